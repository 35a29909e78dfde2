/**
 * The starts running in this process, by request id, so that a client's cancel can stop a render or an upload
 * under way (cancel-request.ts) instead of waiting for it to end. A start is stopped only until it begins a
 * vendor submission: from then on a vendor may hold a job, and the start is left to return its task, which the
 * canceller then cancels at the vendor — stopping the start would lose the only handle on that job.
 *
 * One registry per process rather than per gateway: the worker and the canceller are built apart (gateway.ts)
 * and meet only here, and request ids are unique, so sharing it cannot mix requests up. A cancel answered in
 * another process (an API process apart from the workers) reaches this one's starts through the cancel notices
 * (cancel-notices.ts), which end in `stopStart` here too.
 */

/** The errorMessage of a cancelled request, whether the canceller or the stopped start failed it. */
export const cancelledMessage = 'the request was cancelled by the client';

/**
 * A client's cancel as a provider call listens to it (call-provider.ts). Not an AbortSignal: every start would make
 * one (an EventTarget, measurable per instant job on Node 20), and a cancel is rare.
 */
export interface ClientCancel {
  /** The cancel's reason once the client cancelled (while the start could still be stopped). */
  readonly reason: Error | undefined;
  /**
   * Calls `listener` at the cancel, or at once if it came already; returns what stops listening. One listener at a
   * time: the provider call under way (a start tries its providers one after another).
   */
  listen(listener: (reason: Error) => void): () => void;
}

export interface RunningStart extends ClientCancel {
  /** Called before a vendor submission leaves: from then on a cancel no longer stops this start. */
  submitting(): void;
  /** Called when the start is over, however it ended. */
  end(): void;
}

interface Entry {
  reason?: Error;
  listener?: (reason: Error) => void;
  submitting: boolean;
}

// A set per request: a worker that lost its lease may still be running the start another worker took over.
const running = new Map<string, Set<Entry>>();

export function trackStart(requestId: string): RunningStart {
  const entry: Entry = { submitting: false };
  const entries = running.get(requestId) ?? new Set<Entry>();
  entries.add(entry);
  running.set(requestId, entries);
  return {
    get reason() {
      return entry.reason;
    },
    listen(listener) {
      if (entry.reason) listener(entry.reason);
      else entry.listener = listener;
      return () => void (entry.listener = undefined);
    },
    submitting: () => void (entry.submitting = true),
    end() {
      entries.delete(entry);
      if (entries.size === 0 && running.get(requestId) === entries) running.delete(requestId);
    },
  };
}

/** Stops the request's starts in this process that have not begun a vendor submission; true when one was stopped. */
export function stopStart(requestId: string): boolean {
  let stopped = false;
  for (const entry of running.get(requestId) ?? []) {
    if (entry.submitting || entry.reason) continue;
    entry.reason = new Error(cancelledMessage);
    entry.listener?.(entry.reason);
    stopped = true;
  }
  return stopped;
}

/** The requests with a start running in this process that a cancel could still stop: these of `requestIds`, or all. */
export function stoppableStarts(requestIds?: readonly string[]): string[] {
  const stoppable = (id: string) => [...(running.get(id) ?? [])].some((entry) => !entry.submitting && !entry.reason);
  return (requestIds ?? [...running.keys()]).filter(stoppable);
}
