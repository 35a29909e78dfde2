/**
 * The job queue port. A job names a request: the request row says what to do next (start it, poll its task), so a
 * duplicate or stale job is harmless — its claim simply fails. (A job may also carry the row as written, `known`, so its
 * claim, pinned to that row, needs no read.)
 */
import type { KnownRow } from '../store/known-rows.js';

export interface Job {
  requestId: string;
  /**
   * For a poll, the poll it was scheduled for (the request's `pollCount` then): a stale or duplicate copy of a poll
   * job (the sweeper's, one redelivered after that poll was done) then claims nothing, instead of polling the vendor
   * early and starting a second chain of polls. Absent on a job that starts a request.
   */
  poll?: number;
  /**
   * For a poll, when it was due: the `next_check_at_ms` its scheduler stored. Only measured (how late a worker took
   * the poll, `mediagate_vendor_poll_lateness_seconds`), never decided on: the claim goes by the row alone.
   */
  dueAtMs?: number;
  /**
   * The W3C traceparent the job's run continues (docs/tracing.md); only when tracing is on. The in-process queue
   * hands the job object over as it is, RabbitMQ carries it in the message's `traceparent` header.
   */
  traceparent?: string;
  /**
   * The request's row as the process that wrote it last knows it, so the claim need not read it back:
   * - on a start job, the row as its admission wrote it (store admittedRow), sent along through a broker too; the
   *   claim is pinned to a request never claimed before (RequestStore.claimStartOf), so a copy of the job that arrives
   *   after that claims as a job without the row would;
   * - on a poll job, only inside the process that scheduled the poll, never sent through a broker: the row as that
   *   worker's recordTask left it (store recordedTaskRow; RequestStore.claimPollOf).
   * A job from the sweeper has none.
   */
  known?: KnownRow;
}

/** `job` carrying `traceparent`, or `job` itself (the same object) when there is none: tracing off. */
export function withTraceparent(job: Job, traceparent: string | undefined): Job {
  return traceparent === undefined ? job : { ...job, traceparent };
}

export type JobHandler = (job: Job) => Promise<void>;

export interface JobQueue {
  /**
   * Resolves once the job is safely queued (for a broker: after the publisher confirm). Rejects within a
   * short bound when the broker is unreachable: callers have the job in the store, and the sweeper sends it.
   */
  publish(job: Job, options?: { delayMs?: number }): Promise<void>;
  /**
   * Starts delivering jobs to `handler`: at most `concurrency` starts and, apart from them, at most
   * `pollConcurrency` polls (jobs naming a poll; default `concurrency`) at a time. Polls mostly wait on a vendor,
   * so a worker can hold many; and a backlog of starts never delays a due poll.
   */
  consume(handler: JobHandler, options: { concurrency: number; pollConcurrency?: number }): Promise<void>;
  /** Stops delivering; resolves when in-flight handlers have finished. */
  close(): Promise<void>;
  /**
   * True when a delayed job lives only in this process until it is due (the in-process queue; a RabbitMQ worker
   * holding its own polls), so it dies with the process: a starting worker then adopts the polls waiting in the
   * store (Sweeper.startUp). Absent or false: delayed jobs wait in the broker.
   */
  readonly delayedJobsDieWithProcess?: boolean;
  /**
   * How much waits for a worker right now (not delayed, not running): jobs, or a broker's messages, which may carry
   * several (0 only when nothing waits); undefined when unknown. For the sweeper.
   */
  waiting?(): Promise<number | undefined>;
  /** Whether the broker is reachable right now (for health endpoints); absent = always healthy. */
  health?(): Promise<{ ok: boolean; detail?: string }>;
}

/** Told of every publish once it is known to be queued (for a broker: confirmed) or not; for the metrics. */
export type PublishObserver = (outcome: 'confirmed' | 'failed') => void;
