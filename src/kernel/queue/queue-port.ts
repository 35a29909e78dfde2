/**
 * The job queue port. A job only names a request: the request row says what to do next (start it,
 * poll its task), so a duplicate or stale job is harmless — its claim simply fails.
 */
export interface Job {
  requestId: string;
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobQueue {
  /**
   * Resolves once the job is safely queued (for a broker: after the publisher confirm). Rejects within a
   * short bound when the broker is unreachable: callers have the job in the store, and the sweeper sends it.
   */
  publish(job: Job, options?: { delayMs?: number }): Promise<void>;
  /** Starts delivering jobs to `handler`, at most `concurrency` at a time. */
  consume(handler: JobHandler, options: { concurrency: number }): Promise<void>;
  /** Stops delivering; resolves when in-flight handlers have finished. */
  close(): Promise<void>;
  /** Whether the broker is reachable right now (for health endpoints); absent = always healthy. */
  health?(): Promise<{ ok: boolean; detail?: string }>;
}
