/**
 * Recovery. Jobs can be lost (the in-process queue dies with its process; a publish can fail after a
 * commit) and workers can die holding a lease. The store says what should be happening, so the sweeper
 * republishes every request that is due and unattended, or whose lease ran out; the conditional claims
 * make the extra jobs harmless. At start-up it runs at once with no grace: nothing is queued yet.
 * It is also the outbox relay: a create whose publish failed (broker down) is answered anyway, and its
 * `queued` row is sent by the first pass after the broker is back.
 */
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../observability/metrics.js';
import { spanNames, traceAttributes, tracing } from '../observability/tracing.js';
import type { Job, JobQueue } from '../queue/index.js';
import type { RequestRecord, RequestStore } from '../store/index.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

/** How many times `requeue_after_ms` a due request may wait in a queue backlog before it is sent again. */
const backlogGraceFactor = 8;

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: { requests: RequestStore; queue: JobQueue; clock: { now(): number }; settings: LifecycleSettings; log: Logger; metrics?: GatewayMetrics },
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
    // While jobs wait in the queue for a worker, a request due a little while ago is most likely one of them: sending
    // it again would only lengthen the wait of every job behind it, and the copies compound (up to 500 a pass; in the
    // vendor-scale bench the work queue held 24,000 jobs for 10,000 requests). Such requests get a longer grace;
    // expired leases and requests waiting past that grace are repaired as always, so a job really lost is still found.
    const backlog = await queue.waiting?.().catch(() => undefined);
    const grace = backlog ? Math.max(graceMs, settings.requeue_after_ms * backlogGraceFactor) : graceMs;
    // Bounded per pass; a backlog larger than this drains over the next passes.
    const due = await requests.findNeedingAttention(now, grace, 500);
    for (const request of due) {
      try {
        // Under the create's stored context: the repair shows in the request's trace, and the job it sends runs there.
        await tracing.inSpan(spanNames.republish, { parent: request.traceContext, attributes: { [traceAttributes.requestId]: request.id } }, () => queue.publish(jobFor(request)));
      } catch (error) {
        // The broker is down: the rest would fail alike. The rows stay due, so a later pass sends them.
        log.warn({ err: error, waiting: due.length - republished }, 'sweeper could not publish; the requests wait for the broker');
        break;
      }
      if (!request.leaseOwner) await requests.postponeCheck(request.id, request.nextCheckAtMs, now + settings.requeue_after_ms);
      // A request still naming a lease holder is one whose worker died (its lease ran out): the next claim takes it over.
      this.deps.metrics?.sweeperRepaired(request.leaseOwner ? 'released_lease' : 'republished', 1);
      republished += 1;
    }
    if (republished > 0) log.info({ republished }, 'sweeper republished unattended requests');
    return republished;
  }
}

/** A request with a vendor task gets a job for its current poll (a start job would claim nothing), any other a start. */
function jobFor(request: RequestRecord): Job {
  return request.task ? { requestId: request.id, poll: request.pollCount } : { requestId: request.id };
}
