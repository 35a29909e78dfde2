/**
 * An AbortController made only when its signal is first asked for. A provider call hands its plugin a signal
 * (timeout, shutdown, the client's cancel, the call's end), but an instant provider's start never looks at it:
 * on Node 20 making the controller (an EventTarget) and aborting it at the call's end (an Event dispatched) took
 * about 9% of the embedded worker's CPU per instant job (docs/performance-notes.md). An abort before the first ask
 * is kept: the signal handed out then is already aborted, with that reason.
 */
export class LazyAbort {
  private controller: AbortController | undefined;
  private reason: unknown;
  private abortedYet = false;

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedYet) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }

  get aborted(): boolean {
    return this.abortedYet;
  }

  /** Like AbortController.abort: the first reason stays, later calls do nothing. */
  abort(reason: unknown): void {
    if (this.abortedYet) return;
    this.abortedYet = true;
    this.reason = reason;
    this.controller?.abort(reason);
  }
}
