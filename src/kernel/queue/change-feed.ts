/**
 * The change feed port: notices that requests changed state, from the process that changed them (a worker, or an
 * API process answering a cancel) to every process that holds clients waiting on requests (long polls and event
 * streams, lifecycle/request-watches.ts). A notice only names request ids; whoever receives it reads the state from
 * the store, which stays the truth, so a duplicate costs a read and nothing else.
 *
 * Notices are best effort, on purpose: a lost one (a broker outage, a process starting) delays a waiter, it never
 * changes a request. That is why a notice is announced after the change committed and never awaited by the code
 * that changes requests, and why the receiving side re-checks what it watches on a slow timer of its own.
 */

/** The announcing side, all the worker and the finisher see. */
export interface ChangeNotices {
  /** Announces that a request's visible state changed (after the commit). Never throws and never waits. */
  announce(requestId: string): void;
}

/** What a subscriber is told. */
export interface ChangeListener {
  /** These requests changed (one batch; ids may repeat across batches). */
  changed(requestIds: readonly string[]): void;
  /** Notices may have been lost (the feed was cut off and is back): re-check everything watched. */
  missedSome(): void;
}

export interface ChangeFeed extends ChangeNotices {
  /**
   * Delivers the notices of every process, this one included, to `listener` (one listener per feed). Resolves once
   * every notice announced from then on will reach it.
   */
  subscribe(listener: ChangeListener): Promise<void>;
  /** Sends what is still gathered, then stops; later announcements are dropped. */
  close(): Promise<void>;
}
