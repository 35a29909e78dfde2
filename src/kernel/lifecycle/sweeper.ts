/**
 * Recovery. Jobs can be lost (the in-process queue dies with its process; a publish can fail after a
 * commit) and workers can die holding a lease. The store says what should be happening, so the sweeper
 * republishes every request that is due and unattended, or whose lease ran out; the conditional claims
 * make the extra jobs harmless. At start-up it runs at once with no grace: nothing is queued yet.
 * It is also the outbox relay: a create whose publish failed (broker down) is answered anyway, and its
 * `queued` row is sent by the first pass after the broker is back.
 */
import type { Logger } from 'pino';
import type { JobQueue } from '../queue/index.js';
import type { RequestStore } from '../store/index.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: { requests: RequestStore; queue: JobQueue; clock: { now(): number }; settings: LifecycleSettings; log: Logger },
  ) {}

  /** One pass; returns how many requests were republished. */
  async sweep(graceMs = this.deps.settings.requeue_after_ms): Promise<number> {
    if (this.running) return this.running;
    this.running = this.pass(graceMs).finally(() => (this.running = undefined));
    return this.running;
  }

  start(): void {
    void this.sweep(0).catch((error) => this.deps.log.error({ err: error }, 'start-up sweep failed'));
    this.timer = setInterval(() => {
      void this.sweep().catch((error) => this.deps.log.error({ err: error }, 'sweep failed'));
    }, this.deps.settings.sweep_interval_ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async pass(graceMs: number): Promise<number> {
    const { requests, queue, clock, settings, log } = this.deps;
    let republished = 0;
    const now = clock.now();
    // Bounded per pass; a backlog larger than this drains over the next passes.
    const due = await requests.findNeedingAttention(now, graceMs, 500);
    for (const request of due) {
      try {
        await queue.publish({ requestId: request.id });
      } catch (error) {
        // The broker is down: the rest would fail alike. The rows stay due, so a later pass sends them.
        log.warn({ err: error, waiting: due.length - republished }, 'sweeper could not publish; the requests wait for the broker');
        break;
      }
      if (!request.leaseOwner) await requests.postponeCheck(request.id, request.nextCheckAtMs, now + settings.requeue_after_ms);
      republished += 1;
    }
    if (republished > 0) log.info({ republished }, 'sweeper republished unattended requests');
    return republished;
  }
}
