/** Time bounds for broker round trips, which may never answer (a half-open socket). */

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

export function withDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  const remaining = deadline - Date.now();
  if (!Number.isFinite(remaining)) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), Math.max(0, remaining));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Awaits a broker round trip that may never answer (a half-open socket) for at most a few seconds. */
export async function bounded(promise: Promise<unknown>, ms = 5_000): Promise<void> {
  await withDeadline(promise, Date.now() + ms, 'timed out').catch(() => {});
}
