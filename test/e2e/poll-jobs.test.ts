/**
 * Poll jobs name the poll they are for, so a stale or duplicate copy never polls a vendor early (and never starts a
 * second chain of polls); and the sweeper, while jobs wait in a queue backlog, leaves requests that are merely
 * waiting in it alone instead of adding copies behind them. Real service, real SQLite, the scripted plugin.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { RequestFinisher, RequestWorker, Sweeper } from '../../src/kernel/lifecycle/index.js';
import { MemoryQueue, type ChangeNotices, type Job, type JobQueue } from '../../src/kernel/queue/index.js';
import { withFixtures } from '../support/fixtures.js';
import { paidRequestRow } from '../support/request-rows.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('poll jobs and the sweeper', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService(withFixtures);
    // The test's own sweeper does the sweeping here; the service's would republish the rows below first.
    await service.service.gateway.sweeper.stop();
  });
  after(async () => service.stop());

  /** A paid request row in the given state, as a worker or the API would have left it. */
  async function requestRow(fields: Record<string, unknown>): Promise<string> {
    return paidRequestRow(service, await service.createKey({ credits: 10 }), fields, { createdAtMs: Date.now() - 60_000 });
  }

  /** A request waiting for its 4th poll (poll_count 3) of a task that answers `done` the first time it is asked. */
  function waitingForPoll(taskId: string, nextCheckAtMs: number): Record<string, unknown> {
    return {
      status: 'processing',
      provider: 'scripted',
      task: JSON.stringify({ taskId, state: { polls_left: 0, script: {}, message: 'polled' } }),
      output: JSON.stringify({ task_id: taskId, status: 'processing', provider: 'scripted', model: 'echo-v1' }),
      poll_count: 3,
      next_check_at_ms: nextCheckAtMs,
      started_at_ms: Date.now() - 50_000,
      attempts: 1,
    };
  }

  it('claims a poll only with the job scheduled for it: a stale poll or a start copy asks the vendor nothing', async () => {
    const { worker, requests } = service.service.gateway;
    const id = await requestRow(waitingForPoll('scripted_pinned', Date.now() + 60_000));
    const before = await requests.get(id);

    // A copy of the previous poll's job (redelivered after that poll was done), and a start job (the sweeper's
    // copy from while the request was queued): had either claimed, the vendor's `done` would have finished it.
    await worker.handle({ requestId: id, poll: 2 });
    await worker.handle({ requestId: id });
    expect(await requests.get(id)).to.deep.equal(before);

    await worker.handle({ requestId: id, poll: 3 });
    const after = await requests.get(id);
    expect([after!.status, after!.output]).to.deep.equal(['succeeded', { status: 'succeeded', echo: 'polled', task_id: 'scripted_task', provider: 'scripted' }]);
  });

  it('tells waiters of a poll only when it changed what a client sees: new progress, not a vendor saying `pending` again', async () => {
    const { worker, requests } = service.service.gateway;
    // The worker's change notices, as its finisher and the waiters share them (the gateway does not expose the feed).
    const changes = (worker as unknown as { deps: { changes: ChangeNotices } }).deps.changes;
    const announce = changes.announce;
    const announced: string[] = [];
    changes.announce = (id) => {
      announced.push(id);
      announce.call(changes, id);
    };
    // Tasks that stay pending for the whole test (the service keeps polling them every 20 ms, as the manifest says).
    const pendingTask = (taskId: string, script: Record<string, unknown>) =>
      JSON.stringify({ taskId, state: { polls_left: 10_000, script, message: 'still rendering' } });
    try {
      const quiet = await requestRow({ ...waitingForPoll('scripted_quiet', Date.now() + 60_000), task: pendingTask('scripted_quiet', { no_progress: true }) });
      const moving = await requestRow({ ...waitingForPoll('scripted_moving', Date.now() + 60_000), task: pendingTask('scripted_moving', {}) });
      const quietBefore = await requests.get(quiet);

      await worker.handle({ requestId: quiet, poll: 3 });
      await worker.handle({ requestId: moving, poll: 3 });

      const [quietAfter, movingAfter] = [await requests.get(quiet), await requests.get(moving)];
      // Both were polled and rescheduled; only the one whose answer showed progress changed its output, and its tag.
      expect([quietAfter!.pollCount, movingAfter!.pollCount]).to.deep.equal([4, 4]);
      expect(quietAfter!.output).to.deep.equal(quietBefore!.output);
      expect(movingAfter!.output).to.have.property('progress');
      expect(announced).to.include(moving);
      expect(announced).to.not.include(quiet);
    } finally {
      changes.announce = announce;
    }
  });

  it('claims a poll it scheduled itself with the row it wrote: no read of the row, the same record, nothing once the row moved on', async () => {
    const { worker, requests } = service.service.gateway;
    // The service's worker with a queue that keeps what it is given, and a store that counts its reads.
    const published: Job[] = [];
    const queue = { publish: async (job: Job) => void published.push(job) } as unknown as JobQueue;
    let reads = 0;
    const countingRequests = Object.create(requests, {
      get: { value: (...args: Parameters<typeof requests.get>) => ((reads += 1), requests.get(...args)) },
      claim: { value: (...args: Parameters<typeof requests.claim>) => ((reads += 1), requests.claim(...args)) },
    }) as typeof requests;
    const deps = (worker as unknown as { deps: ConstructorParameters<typeof RequestWorker>[0] }).deps;
    const own = new RequestWorker({ ...deps, queue, requests: countingRequests });
    const id = await requestRow({ ...waitingForPoll('scripted_known', Date.now() + 60_000), task: JSON.stringify({ taskId: 'scripted_known', state: { polls_left: 2, script: {}, message: 'known' } }) });

    await own.handle({ requestId: id, poll: 3 });
    expect(published.map((job) => job.poll)).to.deep.equal([4]);
    expect(JSON.parse(published[0].known!), 'the job carries the row as the worker left it').to.deep.equal(await requests.get(id));

    reads = 0;
    await own.handle(published[0]);
    expect(reads, 'neither a read of the row nor the claim that reads it').to.equal(0);
    expect(published.map((job) => job.poll)).to.deep.equal([4, 5]);
    expect(JSON.parse(published[1].known!)).to.deep.equal(await requests.get(id));

    // Another copy of poll 4 (the sweeper's, say) after poll 4 was done: its known row is stale and claims nothing.
    await own.handle(published[0]);
    expect(published).to.have.length(2);
    await own.handle(published[1]);
    const finished = (await requests.get(id))!;
    expect([finished.status, finished.output]).to.deep.equal(['succeeded', { status: 'succeeded', echo: 'known', task_id: 'scripted_task', provider: 'scripted' }]);
  });

  it('leaves requests that may be waiting in a queue backlog alone, and repairs what cannot be: long overdue, dead workers', async () => {
    const { requests, clock } = service.service.gateway;
    const now = Date.now();
    const settings = { lease_ms: 30_000, max_attempts: 3, sweep_interval_ms: 5_000, requeue_after_ms: 1_000, retry_after_ms: 1_000, start_record_after_ms: 25 };
    const dueLately = await requestRow({ next_check_at_ms: now - 5_000 });
    const dueLongAgo = await requestRow({ next_check_at_ms: now - 20_000 });
    const pollDueLongAgo = await requestRow(waitingForPoll('scripted_overdue', now - 20_000));
    const deadWorker = await requestRow({ status: 'processing', lease_owner: 'dead-worker', lease_expires_at_ms: now - 1, attempts: 1, next_check_at_ms: null });

    const sent = async (queue: MemoryQueue): Promise<Job[]> => {
      const jobs: Job[] = [];
      await queue.consume(async (job) => void jobs.push(job), { concurrency: 8 });
      await new Promise((resolve) => setTimeout(resolve, 50));
      return jobs.filter((job) => job.requestId !== 'req_in_the_backlog').sort((a, b) => a.requestId.localeCompare(b.requestId));
    };
    const byId = (jobs: Job[]) => jobs.map((job) => [job.requestId, job.poll]);

    // One job waits for a worker: 5 s overdue is within the backlog grace (8 x requeue_after_ms), 20 s is not.
    const backlogged = new MemoryQueue();
    await backlogged.publish({ requestId: 'req_in_the_backlog' });
    const sweeper = (queue: MemoryQueue) => new Sweeper({ requests, queue, clock, settings, log: pino({ level: 'silent' }) });
    expect(await sweeper(backlogged).sweep()).to.equal(3);
    expect(byId(await sent(backlogged))).to.deep.equal(
      byId([{ requestId: dueLongAgo }, { requestId: pollDueLongAgo, poll: 3 }, { requestId: deadWorker }].sort((a, b) => a.requestId.localeCompare(b.requestId))),
    );

    // No backlog: the ordinary grace (requeue_after_ms). The two sent above were postponed by that pass.
    const idle = new MemoryQueue();
    expect(await sweeper(idle).sweep()).to.equal(2);
    expect(byId(await sent(idle))).to.deep.equal(byId([{ requestId: dueLately }, { requestId: deadWorker }].sort((a, b) => a.requestId.localeCompare(b.requestId))));
  });

  it('fails the request of a dead-lettered job once nobody holds it: tried again while a worker does, left alone once finished', async () => {
    const { requests, accounts, clock, database } = service.service.gateway;
    const finisher = new RequestFinisher({ requests, accounts, clock, log: pino({ level: 'silent' }) });
    const message = 'the request could not be processed (its job failed repeatedly) and was refunded';
    // Between two polls of its chain the request is held by nobody; during one, by the worker polling it.
    const id = await requestRow({ ...waitingForPoll('scripted_dead_letter', Date.now() + 60_000), lease_owner: 'live-worker', lease_expires_at_ms: Date.now() + 30_000 });

    let refused: unknown;
    await finisher.failAbandoned(id, message, 30_000).catch((error: unknown) => (refused = error));
    expect(String(refused)).to.match(/held by a worker right now; its dead letter is tried again later/);
    expect((await requests.get(id))!.status).to.equal('processing');

    await database.sql.run('UPDATE requests SET lease_owner = NULL, lease_expires_at_ms = NULL WHERE id = ?', [id]);
    expect(await finisher.failAbandoned(id, message, 30_000)).to.equal(true);
    const failed = (await requests.get(id))!;
    expect([failed.status, failed.errorMessage]).to.deep.equal(['failed', message]);
    // Finished now: a second copy of the dead letter changes nothing and is not tried again.
    expect(await finisher.failAbandoned(id, message, 30_000)).to.equal(false);
    const ledger = await accounts.listRequestLedger(id);
    expect(ledger.map((entry) => [entry.kind, entry.amount])).to.deep.equal([['debit', -2], ['refund', 2]]);
  });

  it('adopts at start-up every poll waiting for its due time, each for that time, where delayed jobs die with their process', async () => {
    const { requests, clock } = service.service.gateway;
    const now = Date.now();
    const settings = { lease_ms: 30_000, max_attempts: 3, sweep_interval_ms: 5_000, requeue_after_ms: 15_000, retry_after_ms: 1_000, start_record_after_ms: 25 };
    const soon = await requestRow(waitingForPoll('scripted_soon', now + 2_000));
    const later = await requestRow(waitingForPoll('scripted_later', now + 120_000));
    const due = await requestRow(waitingForPoll('scripted_due', now - 1_000));
    const running = await requestRow({ ...waitingForPoll('scripted_running', now + 2_000), lease_owner: 'live-worker', lease_expires_at_ms: now + 30_000 });
    const ours = new Set([soon, later, due, running]);
    const recording = (delayedJobsDieWithProcess: boolean) => {
      const published: { requestId: string; poll?: number; delayMs: number }[] = [];
      const queue: JobQueue = {
        delayedJobsDieWithProcess,
        publish: async (job, options) => void (ours.has(job.requestId) && published.push({ requestId: job.requestId, poll: job.poll, delayMs: options?.delayMs ?? 0 })),
        consume: async () => {},
        close: async () => {},
      };
      return { queue, published };
    };
    const startUp = (queue: JobQueue) => new Sweeper({ requests, queue, clock, settings, log: pino({ level: 'silent' }) }).startUp();

    // A queue that loses delayed jobs with its process: every waiting poll, due or not, in due order, each for its
    // own due time (a due one for 1 ms, so that a queue holding polls keeps it); never one a worker holds (its
    // lease); and the no-grace pass that follows leaves the adopted polls alone.
    const losing = recording(true);
    await startUp(losing.queue);
    expect(losing.published.map((job) => [job.requestId, job.poll])).to.deep.equal([[due, 3], [soon, 3], [later, 3]]);
    const [dueDelay, soonDelay, laterDelay] = losing.published.map((job) => job.delayMs);
    expect(dueDelay).to.equal(1);
    expect(soonDelay).to.be.within(1_000, 2_000);
    expect(laterDelay).to.be.within(119_000, 120_000);

    // A queue that keeps delayed jobs (RabbitMQ's delay levels): only what is due is sent, at once.
    const keeping = recording(false);
    await startUp(keeping.queue);
    expect(keeping.published).to.deep.equal([{ requestId: due, poll: 3, delayMs: 0 }]);
  });
});
