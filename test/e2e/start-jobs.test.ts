/**
 * A create's start job carries the request's row as its admission wrote it, so the worker's first claim needs no read
 * of the row; a copy of the job that arrives once the row moved on claims as a job without the row would. Real service,
 * real SQLite, the fixture plugins; the test holds the job the create published and hands it to the worker itself.
 */
import { expect } from 'chai';
import type { Job } from '../../src/kernel/queue/index.js';
import { withFixtures } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';

describe('start jobs carry the row as admitted', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService(withFixtures);
    // Nothing but the test hands jobs to the worker here.
    await service.service.gateway.sweeper.stop();
  });
  after(async () => service.stop());

  /** Creates a request and keeps its start job from the worker: the job as the create published it. */
  async function createHeld(key: string, input: Record<string, unknown>): Promise<Job> {
    const { queue } = service.service.gateway;
    const publish = queue.publish;
    let held: Job | undefined;
    queue.publish = async (job) => void (held = job);
    try {
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input } });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      expect(held?.requestId).to.equal(created.body.id);
      return held!;
    } finally {
      queue.publish = publish;
    }
  }

  /** Counts the store's claims and row reads while `run` runs. */
  async function counting(run: () => Promise<void>): Promise<Record<'claimStartOf' | 'claim' | 'get', number>> {
    // The store's methods by name, to wrap and put back.
    const requests = service.service.gateway.requests as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const counts = { claimStartOf: 0, claim: 0, get: 0 };
    const originals = Object.fromEntries(Object.keys(counts).map((name) => [name, requests[name]]));
    for (const name of Object.keys(counts) as (keyof typeof counts)[]) {
      requests[name] = (...args: unknown[]) => {
        counts[name] += 1;
        return originals[name].apply(requests, args);
      };
    }
    try {
      await run();
    } finally {
      for (const [name, original] of Object.entries(originals)) requests[name] = original;
    }
    return counts;
  }

  it('claims a create from the row its job carries: no read, and the request runs as created', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const job = await createHeld(key, { message: 'ünïcödé "quoted"' });
    const { requests, worker } = service.service.gateway;
    expect(JSON.parse(job.known!), 'the row as admitted').to.deep.equal(await requests.get(job.requestId));

    const counts = await counting(() => worker.handle(job));
    expect(counts).to.deep.equal({ claimStartOf: 1, claim: 0, get: 0 });
    const finished = await service.api('GET', `/api/v1/requests/${job.requestId}`, { key });
    expect(finished.body).to.deep.include({ status: 'succeeded' });
    expect(finished.body.output).to.include({ echo: 'ünïcödé "quoted"' });
    expect(await requests.get(job.requestId)).to.include({ attempts: 1, leaseOwner: null });

    // The same job again (a redelivered copy): the row moved on, so it claims as without the row, and nothing runs.
    const again = await counting(() => worker.handle(job));
    expect(again).to.deep.equal({ claimStartOf: 1, claim: 1, get: 0 });
    expect((await requests.get(job.requestId))!.attempts).to.equal(1);
  });

  it('takes over a request whose first claim was lost with its worker, from a copy of the job that carries the row', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const job = await createHeld(key, { message: 'taken over' });
    const { requests, worker } = service.service.gateway;
    // Another worker claimed it and died: its lease runs out.
    await requests.claim(job.requestId, 'worker-that-died', Date.now() - 5_000, 1_000, 'start');

    const counts = await counting(() => worker.handle(job));
    expect(counts.claimStartOf).to.equal(1);
    expect(counts.claim, 'the ordinary claim takes it over').to.equal(1);
    const takenOver = await requests.get(job.requestId);
    expect(takenOver, takenOver?.errorMessage ?? '').to.include({ status: 'succeeded', attempts: 2 });
  });

  it('claims as without the row when the job carries none (too large, or the sweeper\'s copy)', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const job = await createHeld(key, { message: 'large', script: { padding: 'x'.repeat(2_100) } });
    expect(job.known, 'a row past the limit stays in the store').to.equal(undefined);
    const counts = await counting(() => service.service.gateway.worker.handle(job));
    expect(counts).to.deep.equal({ claimStartOf: 0, claim: 1, get: 0 });
    expect(await service.service.gateway.requests.get(job.requestId)).to.include({ status: 'succeeded' });
  });
});
