/**
 * Polls `check` until it returns a value other than undefined, and fails at the deadline naming what it waited
 * for: a test waits for a state this way instead of sleeping for it.
 */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, deadlineMs = 30_000): Promise<T> {
  const until = performance.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > until) throw new Error(`gave up waiting for ${what} after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
