/**
 * The job queue contract: what the kernel relies on from every queue adapter (in-process and RabbitMQ),
 * run unchanged against each. Waiting is polling with a deadline, never a fixed sleep, except where the
 * point is that nothing (more) arrives.
 */
import { expect } from 'chai';
import type { Job, JobQueue } from '../../../src/kernel/queue/index.js';

export interface QueueUnderTest {
  queue: JobQueue;
  cleanup(): Promise<void>;
}

export interface QueueContractOptions {
  /** How late a delayed job may arrive (a broker's wait buckets round up). Default 1500 ms. */
  delayLatenessMs?: number;
}

export function describeQueueContract(name: string, makeQueue: () => Promise<QueueUnderTest>, options: QueueContractOptions = {}): void {
  const lateness = options.delayLatenessMs ?? 1_500;

  describe(`JobQueue contract: ${name}`, function () {
    let subject: QueueUnderTest | undefined;
    let queue: JobQueue;

    beforeEach(async function () {
      subject = await makeQueue();
      queue = subject.queue;
    });

    afterEach(async function () {
      await subject?.cleanup();
      subject = undefined;
    });

    it('delivers a job published before consuming started, exactly once and unchanged', async function () {
      await queue.publish({ requestId: 'req_one' });
      const received: Job[] = [];
      await queue.consume(async (job) => void received.push(job), { concurrency: 2 });

      await waitFor(() => received.length >= 1, 5_000, 'the job to arrive');
      await quietPeriod(200);
      expect(received).to.deep.equal([{ requestId: 'req_one' }]);
    });

    it('never runs more than `concurrency` handlers at once, and does use them all', async function () {
      let running = 0;
      let mostAtOnce = 0;
      const done: string[] = [];
      await queue.consume(
        async (job) => {
          running += 1;
          mostAtOnce = Math.max(mostAtOnce, running);
          await sleep(40);
          running -= 1;
          done.push(job.requestId);
        },
        { concurrency: 3 },
      );
      await Promise.all(Array.from({ length: 24 }, (_, i) => queue.publish({ requestId: `req_${i}` })));

      await waitFor(() => done.length === 24, 10_000, 'all 24 jobs to finish');
      expect(mostAtOnce).to.equal(3);
      expect([...done].sort()).to.deep.equal(Array.from({ length: 24 }, (_, i) => `req_${i}`).sort());
    });

    it('runs polls apart from starts: a busy start lane holds no poll back, and polls keep their own limit', async function () {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let pollsAtOnce = 0;
      let mostPollsAtOnce = 0;
      const events: string[] = [];
      await queue.consume(
        async (job) => {
          if (job.poll === undefined) {
            events.push(`start ${job.requestId}`);
            await gate;
            return;
          }
          pollsAtOnce += 1;
          mostPollsAtOnce = Math.max(mostPollsAtOnce, pollsAtOnce);
          await sleep(40);
          pollsAtOnce -= 1;
          events.push(`poll ${job.requestId} ${job.poll}`);
        },
        { concurrency: 1, pollConcurrency: 2 },
      );
      await queue.publish({ requestId: 'req_busy' });
      await waitFor(() => events.length === 1, 5_000, 'the start to run');
      await queue.publish({ requestId: 'req_behind' });
      await Promise.all(Array.from({ length: 6 }, (_, i) => queue.publish({ requestId: `req_poll_${i}`, poll: i })));

      await waitFor(() => events.length === 7, 5_000, 'the six polls, while the start lane is full');
      expect(mostPollsAtOnce).to.equal(2);
      expect(events.slice(1).sort()).to.deep.equal(Array.from({ length: 6 }, (_, i) => `poll req_poll_${i} ${i}`));
      release();
      await waitFor(() => events.includes('start req_behind'), 5_000, 'the start queued behind the busy one');
    });

    it('counts the jobs waiting for a worker (ready, not delayed), for the sweeper', async function () {
      let waitingNow: number | undefined;
      await queue.publish({ requestId: 'req_a' });
      await queue.publish({ requestId: 'req_b', poll: 1 });
      await queue.publish({ requestId: 'req_later' }, { delayMs: 60_000 });
      await waitFor(() => waitingNow === 2, 5_000, 'two jobs to count as waiting', async () => (waitingNow = await queue.waiting!()));

      const received: string[] = [];
      await queue.consume(async (job) => void received.push(job.requestId), { concurrency: 2 });
      await waitFor(() => received.length === 2, 5_000, 'both ready jobs to run');
      await waitFor(() => waitingNow === 0, 5_000, 'nothing to count as waiting', async () => (waitingNow = await queue.waiting!()));
    });

    it('holds a delayed job back for its delay, then delivers it', async function () {
      const arrivals = new Map<string, number>();
      await queue.consume(async (job) => void arrivals.set(job.requestId, Date.now()), { concurrency: 4 });

      const publishedAt = Date.now();
      await queue.publish({ requestId: 'req_later' }, { delayMs: 700 });
      await queue.publish({ requestId: 'req_now' });

      await waitFor(() => arrivals.has('req_later'), 700 + lateness + 2_000, 'the delayed job to arrive');
      const waited = arrivals.get('req_later')! - publishedAt;
      // 20 ms for clock granularity between the two processes' timers; never a real early delivery.
      expect(waited).to.be.at.least(700 - 20);
      expect(waited).to.be.at.most(700 + lateness);
      // An undelayed job published after it was not held behind it.
      expect(arrivals.get('req_now')!).to.be.below(arrivals.get('req_later')!);
    });

    it('does not hold a short delay behind a longer one published before it', async function () {
      const order: string[] = [];
      await queue.consume(async (job) => void order.push(job.requestId), { concurrency: 2 });

      await queue.publish({ requestId: 'req_long' }, { delayMs: 1_200 });
      await queue.publish({ requestId: 'req_short' }, { delayMs: 250 });

      await waitFor(() => order.length === 2, 1_200 + lateness + 2_000, 'both delayed jobs to arrive');
      expect(order).to.deep.equal(['req_short', 'req_long']);
    });

    it('redelivers a job whose handler threw', async function () {
      const attempts: string[] = [];
      await queue.consume(
        async (job) => {
          attempts.push(job.requestId);
          if (attempts.length === 1) throw new Error('the store is briefly unavailable');
        },
        { concurrency: 1 },
      );
      await queue.publish({ requestId: 'req_flaky' });

      await waitFor(() => attempts.length >= 2, 5_000, 'the job to be redelivered');
      await quietPeriod(300);
      expect(attempts).to.deep.equal(['req_flaky', 'req_flaky']);
    });

    it('close() waits for the handlers in flight and stops delivering', async function () {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const events: string[] = [];
      await queue.consume(
        async (job) => {
          events.push(`start ${job.requestId}`);
          await gate;
          events.push(`end ${job.requestId}`);
        },
        { concurrency: 1 },
      );
      await queue.publish({ requestId: 'req_slow' });
      await waitFor(() => events.length === 1, 5_000, 'the handler to start');
      await queue.publish({ requestId: 'req_waiting' });

      let closed = false;
      const closing = queue.close().then(() => {
        closed = true;
        events.push('closed');
      });
      await quietPeriod(150);
      expect(closed, 'close() resolved while a handler was still running').to.equal(false);
      release();
      await closing;
      await quietPeriod(100);
      // The job still waiting was not started: it stays queued (or, in memory, is the sweeper's to redo).
      expect(events).to.deep.equal(['start req_slow', 'end req_slow', 'closed']);
    });

    it('delivers every one of 500 jobs published at once', async function () {
      const seen = new Map<string, number>();
      await queue.consume(async (job) => void seen.set(job.requestId, (seen.get(job.requestId) ?? 0) + 1), { concurrency: 16 });
      const ids = Array.from({ length: 500 }, (_, i) => `req_${String(i).padStart(3, '0')}`);
      await Promise.all(ids.map((requestId) => queue.publish({ requestId })));

      await waitFor(() => seen.size === ids.length, 20_000, 'all 500 jobs to arrive');
      await quietPeriod(100);
      expect([...seen.keys()].sort()).to.deep.equal(ids);
      expect([...seen.values()].every((count) => count === 1), 'a job was delivered twice without a failure').to.equal(true);
    });
  });
}

/** Polls `condition` every 10 ms (after `refresh`, if given) until it holds, failing with `what` after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs: number, what: string, refresh?: () => Promise<unknown>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    await refresh?.();
    if (condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(10);
  }
}

/** Lets time pass to show that nothing more happens in it. */
export function quietPeriod(ms: number): Promise<void> {
  return sleep(ms);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
