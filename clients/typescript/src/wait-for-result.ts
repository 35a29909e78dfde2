/**
 * Waits for one request to succeed or fail. By default each read is a long poll (`Prefer: wait=N`, N up to the
 * gateway's 60 s): the gateway holds the answer until the request finishes, so a result costs one or two reads and
 * arrives the moment it is ready. A gateway that did not hold the read (no `Preference-Applied`: it was at its limit of
 * held reads, or `longPoll: false`) is read again after `poll_after_ms`; `Retry-After` is honoured when the gateway is
 * rate-limiting the key or briefly unavailable.
 */
import { MediagateApiError, MediagateWaitTimeoutError } from './mediagate-errors.js';
import type { FinishedRequest, MediagateRequest, OperationName } from './operation-types.js';

export interface WaitOptions {
  /** Stops waiting (the request goes on at the gateway); the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /**
   * Give up waiting after this long (MediagateWaitTimeoutError). Without it the wait ends when the request does:
   * the gateway itself fails a request whose operation's give-up time has passed.
   */
  timeoutMs?: number;
  /**
   * Hold each read at the gateway until the request finishes (`Prefer: wait`), default true. false: plain reads,
   * `poll_after_ms` apart.
   */
  longPoll?: boolean;
}

/** One read: the request, and whether the gateway held it (`Preference-Applied: wait=N`). */
export interface WaitRead<Op extends OperationName> {
  request: MediagateRequest<Op>;
  held: boolean;
}

/** The longest `Prefer: wait` the gateway honours, in seconds. */
const longestWaitSeconds = 60;

// When an answer carries no `poll_after_ms` (a finished request never does), and the least we wait between reads
// even if a gateway said 0, so a client never spins.
const fallbackPollMs = 1000;
const minimumPollMs = 100;

export async function pollUntilFinished<Op extends OperationName>(
  requestId: string,
  read: (signal: AbortSignal | undefined, waitSeconds: number | undefined) => Promise<WaitRead<Op>>,
  firstDelayMs: number,
  options: WaitOptions,
): Promise<FinishedRequest<Op>> {
  const { signal, timeoutMs, longPoll = true } = options;
  const deadline = timeoutMs === undefined ? Number.POSITIVE_INFINITY : Date.now() + timeoutMs;
  // A long poll need not wait before its first read: the gateway holds it.
  let delayMs = longPoll ? 0 : firstDelayMs;
  let lastSeen: MediagateRequest<Op> | undefined;
  for (;;) {
    await sleep(Math.min(delayMs, Math.max(0, deadline - Date.now())), signal);
    // Never held past the caller's deadline; under a second left, a plain read.
    const waitSeconds = longPoll ? Math.min(longestWaitSeconds, Math.floor((deadline - Date.now()) / 1000)) : 0;
    let held = false;
    try {
      ({ request: lastSeen, held } = await read(signal, waitSeconds > 0 ? waitSeconds : undefined));
    } catch (error) {
      if (!isComeBackLater(error)) throw error;
      delayMs = Math.max(minimumPollMs, error.retryAfterMs);
      if (Date.now() >= deadline) throw new MediagateWaitTimeoutError(requestId, timeoutMs!, lastSeen);
      continue;
    }
    if (lastSeen.status === 'succeeded' || lastSeen.status === 'failed') return finished(lastSeen);
    if (Date.now() >= deadline) throw new MediagateWaitTimeoutError(requestId, timeoutMs!, lastSeen);
    // A held read already waited at the gateway: read again at once. Otherwise wait as the gateway says.
    delayMs = held ? 0 : Math.max(minimumPollMs, lastSeen.poll_after_ms ?? fallbackPollMs);
  }
}

/** 429 and 503 with `Retry-After`: the key is over its read rate, or the database is briefly down; the request is fine. */
function isComeBackLater(error: unknown): error is MediagateApiError & { retryAfterMs: number } {
  return error instanceof MediagateApiError && (error.status === 429 || error.status === 503) && error.retryAfterMs !== undefined;
}

function finished<Op extends OperationName>(request: MediagateRequest<Op>): FinishedRequest<Op> {
  // Retention empties `output` 7 days after creation; a succeeded request's output type would then be a lie.
  if (request.status === 'succeeded' && request.dataRemovedAtMs !== null) {
    throw new Error(`request ${request.id} succeeded, but retention removed its output at ${new Date(request.dataRemovedAtMs).toISOString()}`);
  }
  // The document types `output` as "the operation's output or the pending output" whatever the status; it describes
  // the operation's output as what a succeeded request carries, which is what FinishedRequest says.
  return request as unknown as FinishedRequest<Op>;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
