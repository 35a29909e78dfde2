/**
 * In-process queue for the embedded default. Jobs live in memory, so a crash loses them: that is fine
 * because the store is the source of truth and the sweeper republishes every request that is due.
 */
import { jobPublishSpan, spanNames, tracing } from '../observability/tracing.js';
import { Fifo } from './fifo.js';
import { withTraceparent, type Job, type JobHandler, type JobQueue, type PublishObserver } from './queue-port.js';

interface Entry {
  job: Job;
  deliveries: number;
}

/** Starts and polls wait and run apart, each under its own concurrency, as in the RabbitMQ adapter's two queues. */
interface Lane {
  ready: Fifo<Entry>;
  running: number;
  concurrency: number;
}

export class MemoryQueue implements JobQueue {
  readonly delayedJobsDieWithProcess = true;
  private readonly lanes: Record<'work' | 'poll', Lane> = { work: { ready: new Fifo(), running: 0, concurrency: 1 }, poll: { ready: new Fifo(), running: 0, concurrency: 1 } };
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: JobHandler | undefined;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  /**
   * A job whose handler threw is handed back after `redeliveryDelayMs`, like a broker's nack+requeue,
   * at most `deliveryLimit` times; past that it is dead-lettered: `onDeadLetter` fails (and refunds) its
   * request, as the RabbitMQ adapter's DLQ consumer does.
   */
  constructor(
    private readonly onHandlerError: (error: unknown, job: Job) => void = () => {},
    private readonly retry: { redeliveryDelayMs: number; deliveryLimit: number; onDeadLetter?: (requestId: string) => Promise<void> } = {
      redeliveryDelayMs: 100,
      deliveryLimit: 5,
    },
    private readonly onPublish?: PublishObserver,
  ) {}

  async publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    // A closing process drops the job; the store still has the request, and the sweeper sends it again.
    if (this.closed) return this.onPublish?.('failed');
    const delay = options.delayMs ?? 0;
    await tracing.inSpan(spanNames.publish, jobPublishSpan(job, delay, 'mediagate-memory'), async (span) => this.enqueue({ job: withTraceparent(job, span.traceparent), deliveries: 0 }, delay));
    this.onPublish?.('confirmed');
  }

  /**
   * A job published on another thread (the embedded worker thread's main thread, worker-thread/): queued as
   * `publish` queues it, without a second publish span or count (the publishing side made both).
   */
  accept(job: Job, delayMs: number): void {
    if (!this.closed) this.enqueue({ job, deliveries: 0 }, delayMs);
  }

  private enqueue(entry: Entry, delay: number): void {
    const lane = this.lanes[entry.job.poll === undefined ? 'work' : 'poll'];
    if (delay <= 0) {
      lane.ready.push(entry);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      lane.ready.push(entry);
      this.pump();
    }, delay);
    // A pending re-poll must not keep a finished process alive: the sweeper finds it after a restart.
    timer.unref();
    this.timers.add(timer);
  }

  async consume(handler: JobHandler, options: { concurrency: number; pollConcurrency?: number }): Promise<void> {
    this.handler = handler;
    this.lanes.work.concurrency = Math.max(1, options.concurrency);
    this.lanes.poll.concurrency = Math.max(1, options.pollConcurrency ?? options.concurrency);
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const lane of Object.values(this.lanes)) lane.ready.clear();
    if (this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Jobs ready and not yet running (delayed ones are not counted); the sweeper's sign of a backlog. */
  async waiting(): Promise<number> {
    return this.lanes.work.ready.length + this.lanes.poll.ready.length;
  }

  /** Jobs waiting (ready or delayed) plus jobs running; for metrics and tests. */
  get depth(): { ready: number; delayed: number; running: number } {
    return { ready: this.lanes.work.ready.length + this.lanes.poll.ready.length, delayed: this.timers.size, running: this.running };
  }

  private get running(): number {
    return this.lanes.work.running + this.lanes.poll.running;
  }

  /** Hands a job past its deliveries to `onDeadLetter`, again after a pause while that fails, as the broker's DLQ consumer does. */
  private deadLetter(job: Job): void {
    this.retry.onDeadLetter?.(job.requestId).catch((error) => {
      this.onHandlerError(error, job);
      if (!this.closed) setTimeout(() => this.deadLetter(job), this.retry.redeliveryDelayMs).unref();
    });
  }

  private pump(): void {
    for (const lane of Object.values(this.lanes)) this.pumpLane(lane);
  }

  private pumpLane(lane: Lane): void {
    while (this.handler && !this.closed && lane.running < lane.concurrency && lane.ready.length > 0) {
      const entry = lane.ready.shift()!;
      lane.running += 1;
      const handler = this.handler;
      // setImmediate keeps a burst of publishes from running handlers inside the publisher's stack.
      setImmediate(() => {
        handler(entry.job)
          .catch((error) => {
            this.onHandlerError(error, entry.job);
            if (this.closed) return;
            if (entry.deliveries < this.retry.deliveryLimit) {
              this.enqueue({ job: entry.job, deliveries: entry.deliveries + 1 }, this.retry.redeliveryDelayMs * 2 ** entry.deliveries);
            } else {
              this.deadLetter(entry.job);
            }
          })
          .finally(() => {
            lane.running -= 1;
            if (this.running === 0 && this.closed) this.idleWaiters.splice(0).forEach((resolve) => resolve());
            this.pump();
          });
      });
    }
  }
}
