/**
 * In-process queue for the embedded default. Jobs live in memory, so a crash loses them: that is fine
 * because the store is the source of truth and the sweeper republishes every request that is due.
 */
import type { Job, JobHandler, JobQueue } from './queue-port.js';

export class MemoryQueue implements JobQueue {
  private readonly ready: { job: Job; deliveries: number }[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private handler: JobHandler | undefined;
  private concurrency = 1;
  private running = 0;
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
  ) {}

  async publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    if (this.closed) return;
    const delay = options.delayMs ?? 0;
    this.enqueue({ job, deliveries: 0 }, delay);
  }

  private enqueue(entry: { job: Job; deliveries: number }, delay: number): void {
    if (delay <= 0) {
      this.ready.push(entry);
      this.pump();
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.ready.push(entry);
      this.pump();
    }, delay);
    // A pending re-poll must not keep a finished process alive: the sweeper finds it after a restart.
    timer.unref();
    this.timers.add(timer);
  }

  async consume(handler: JobHandler, options: { concurrency: number }): Promise<void> {
    this.handler = handler;
    this.concurrency = Math.max(1, options.concurrency);
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    if (this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Jobs waiting (ready or delayed) plus jobs running; for metrics and tests. */
  get depth(): { ready: number; delayed: number; running: number } {
    return { ready: this.ready.length, delayed: this.timers.size, running: this.running };
  }

  private pump(): void {
    while (this.handler && !this.closed && this.running < this.concurrency && this.ready.length > 0) {
      const entry = this.ready.shift()!;
      this.running += 1;
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
              this.retry.onDeadLetter?.(entry.job.requestId).catch((deadLetterError) => this.onHandlerError(deadLetterError, entry.job));
            }
          })
          .finally(() => {
            this.running -= 1;
            if (this.running === 0 && this.closed) this.idleWaiters.splice(0).forEach((resolve) => resolve());
            this.pump();
          });
      });
    }
  }
}
