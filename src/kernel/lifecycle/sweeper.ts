/**
 * Recovery. Jobs can be lost (the in-process queue dies with its process; a publish can fail after a
 * commit) and workers can die holding a lease. The store says what should be happening, so the sweeper
 * republishes every request that is due and unattended, or whose lease ran out; the conditional claims
 * make the extra jobs harmless. At start-up it runs at once with no grace: nothing is queued yet.
 * It is also the outbox relay: a create whose publish failed (broker down) is answered anyway, and its
 * `queued` row is sent by the first pass after the broker is back.
 *
 * Where delayed jobs die with their process (the in-process queue, and a RabbitMQ worker holding its own polls,
 * queue/held-polls.ts), a starting worker first adopts every vendor poll that waits in the store, due or not: it
 * schedules each in its own queue for its due time (at once if due), so the polls of a worker that died are neither
 * late by the sweeper's grace nor sent one by one through the broker. A poll still held by a live worker is then
 * scheduled twice; its claim is pinned to the poll number, so only one of the two runs it.
 */
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../observability/metrics.js';
import { spanNames, traceAttributes, tracing } from '../observability/tracing.js';
import { withTraceparent, type Job, type JobQueue } from '../queue/index.js';
import type { RequestRecord, RequestStore } from '../store/index.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

/** How many times `requeue_after_ms` a due request may wait in a queue backlog before it is sent again. */
const backlogGraceFactor = 8;
/** Requests one pass republishes at most, and waiting polls read per page at start-up. */
const passLimit = 500;
/** Republishes a pass sends at once: confirms and postponing writes overlap instead of queuing one behind another. */
const passParallel = 32;

export class Sweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<string[]> | undefined;
  private startingUp: Promise<number> | undefined;

  constructor(
    private readonly deps: {
      requests: RequestStore;
      queue: JobQueue;
      clock: { now(): number };
      settings: LifecycleSettings;
      log: Logger;
      metrics?: GatewayMetrics;
    },
  ) {}

  /** One pass; returns how many requests were republished. */
  async sweep(graceMs = this.deps.settings.requeue_after_ms): Promise<number> {
    return (await this.sweepIds(graceMs)).length;
  }

  /** One pass; returns the ids of the requests it republished. */
  private sweepIds(graceMs: number, options: PassOptions = {}): Promise<string[]> {
    if (this.running) return this.running;
    this.running = this.pass(graceMs, options).finally(() => (this.running = undefined));
    return this.running;
  }

  start(): void {
    this.startingUp = this.startUp().catch((error) => {
      this.deps.log.error({ err: error }, 'start-up sweep failed');
      return 0;
    });
    this.timer = setInterval(() => {
      void this.sweep().catch((error) => this.deps.log.error({ err: error }, 'sweep failed'));
    }, this.deps.settings.sweep_interval_ms);
    this.timer.unref();
  }

  /** Resolves once the start-up pass (start()) has sent what it found; at once when not started. */
  async startedUp(): Promise<void> {
    await this.startingUp;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.startingUp;
    await this.running;
  }

  /**
   * At start-up: the waiting polls when this process adopts them, then everything else due, with no grace and pass
   * after pass until none is left (nothing is queued yet). Returns how many jobs it sent or scheduled.
   */
  async startUp(): Promise<number> {
    const adopting = this.deps.queue.delayedJobsDieWithProcess === true;
    const adopted = adopting ? await this.adoptWaitingPolls() : 0;
    // A request whose lease ran out stays due until a worker claims it, so a full pass may find the same ones again:
    // the passes stop once one sends nothing new.
    const sent = new Set<string>();
    for (;;) {
      const republished = await this.sweepIds(0, { skipWaitingPolls: adopting });
      const before = sent.size;
      for (const id of republished) sent.add(id);
      if (republished.length < passLimit || sent.size === before) break;
    }
    return adopted + sent.size;
  }

  /** Schedules every vendor poll that waits in the store for its due time, in pages (see the top of this file). */
  private async adoptWaitingPolls(): Promise<number> {
    const { requests, queue, clock, log } = this.deps;
    let after = { dueAtMs: Number.MIN_SAFE_INTEGER, id: '' };
    let adopted = 0;
    for (;;) {
      const page = await requests.findWaitingPolls(after, passLimit);
      for (const poll of page) {
        const job = withTraceparent({ requestId: poll.id, poll: poll.pollCount, dueAtMs: poll.dueAtMs }, poll.traceContext ?? undefined);
        // At least 1 ms: a due poll is then kept by a queue that holds polls, not sent through the broker.
        await queue.publish(job, { delayMs: Math.max(1, poll.dueAtMs - clock.now()) });
        adopted += 1;
      }
      if (page.length < passLimit) break;
      const last = page.at(-1)!;
      after = { dueAtMs: last.dueAtMs, id: last.id };
    }
    if (adopted > 0) log.info({ adopted }, 'scheduled the vendor polls waiting in the store');
    return adopted;
  }

  private async pass(graceMs: number, { skipWaitingPolls = false }: PassOptions): Promise<string[]> {
    const { requests, queue, clock, settings, log } = this.deps;
    const republished: string[] = [];
    const now = clock.now();
    // While jobs wait in the queue for a worker, a request due a little while ago is most likely one of them: sending
    // it again would only lengthen the wait of every job behind it, and the copies compound (up to 500 a pass; in the
    // vendor-scale bench the work queue held 24,000 jobs for 10,000 requests). Such requests get a longer grace;
    // expired leases and requests waiting past that grace are repaired as always, so a job really lost is still found.
    const backlog = await queue.waiting?.().catch(() => undefined);
    const grace = backlog ? Math.max(graceMs, settings.requeue_after_ms * backlogGraceFactor) : graceMs;
    // Bounded per pass; a backlog larger than this drains over the next passes.
    const due = await requests.findNeedingAttention(now, grace, passLimit, { skipWaitingPolls });
    const republish = async (request: RequestRecord): Promise<void> => {
      // Under the create's stored context: the repair shows in the request's trace, and the job it sends runs there.
      await tracing.inSpan(spanNames.republish, { parent: request.traceContext, attributes: { [traceAttributes.requestId]: request.id } }, () => queue.publish(jobFor(request)));
      if (!request.leaseOwner) await requests.postponeCheck(request.id, request.nextCheckAtMs, now + settings.requeue_after_ms);
      // A request still naming a lease holder is one whose worker died (its lease ran out): the next claim takes it over.
      this.deps.metrics?.sweeperRepaired(request.leaseOwner ? 'released_lease' : 'republished', 1);
      republished.push(request.id);
    };
    for (let start = 0; start < due.length; start += passParallel) {
      const outcomes = await Promise.allSettled(due.slice(start, start + passParallel).map(republish));
      const failure = outcomes.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (failure) {
        // The broker (or the store) is down: the rest would fail alike. The rows stay due, so a later pass sends them.
        log.warn({ err: failure.reason, waiting: due.length - republished.length }, 'sweeper could not republish; the requests wait for the next pass');
        break;
      }
    }
    if (republished.length > 0) log.info({ republished: republished.length }, 'sweeper republished unattended requests');
    return republished;
  }
}

interface PassOptions {
  /** Leave vendor polls that wait unleased alone: this process adopted them (startUp). */
  skipWaitingPolls?: boolean;
}

/** A request with a vendor task gets a job for its current poll (a start job would claim nothing), any other a start. */
function jobFor(request: RequestRecord): Job {
  if (!request.task) return { requestId: request.id };
  // A lease taken over has no due time left (the dead worker's claim cleared it): that poll is not measured as late.
  return request.nextCheckAtMs === null ? { requestId: request.id, poll: request.pollCount } : { requestId: request.id, poll: request.pollCount, dueAtMs: request.nextCheckAtMs };
}
