/**
 * Runs a synthesis job (speech, music, sound effects, gzip) in its own worker thread, so a render of several
 * seconds never stalls the event loop that answers HTTP. One thread per call: the worker's concurrency already
 * bounds how many run at once, and a fresh thread gives each espeak-ng run its own WASM heap.
 */
import { Worker } from 'node:worker_threads';
import type { SynthesisJobName, SynthesisJobs } from './synthesis-jobs.js';

/** A job's error, rebuilt on this side of the thread with its original name (e.g. `UnknownVoiceError`). */
export class SynthesisError extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

/**
 * An abort (timeout, shutdown, the client's cancel) comes from the kernel, not from the job, so it may be
 * retried, like an aborted ffmpeg run; other job errors stay unclassified (a defect, logged, not retried).
 */
class SynthesisAborted extends SynthesisError {
  readonly retryable = true;
  constructor(job: SynthesisJobName) {
    super('AbortError', `${job} synthesis was aborted`);
  }
}

type ThreadMessage<Result> = { result: Result } | { error: { name: string; message: string } };

export function runOffThread<Name extends SynthesisJobName>(
  name: Name,
  request: SynthesisJobs[Name]['request'],
  signal: AbortSignal,
): Promise<SynthesisJobs[Name]['result']> {
  if (signal.aborted) return Promise.reject(new SynthesisAborted(name));
  return new Promise((resolve, reject) => {
    const thread = new Worker(new URL('./synthesis-thread.mjs', import.meta.url), { workerData: { name, request } });
    let settled = false;
    const settle = (action: () => void): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      action();
    };
    // The thread is terminated, not left to finish (a render of minutes would keep a core busy), and the call
    // settles on its exit: once the caller hears of the abort, nothing of the job runs any more.
    const onAbort = (): void => void thread.terminate();
    signal.addEventListener('abort', onAbort, { once: true });
    thread.once('message', (message: ThreadMessage<SynthesisJobs[Name]['result']>) => {
      settle(() => ('result' in message ? resolve(message.result) : reject(new SynthesisError(message.error.name, message.error.message))));
    });
    thread.once('error', (error) => settle(() => reject(error)));
    thread.once('exit', (code) =>
      settle(() => reject(signal.aborted ? new SynthesisAborted(name) : new SynthesisError('Error', `${name} synthesis thread exited with code ${code}`))),
    );
  });
}
