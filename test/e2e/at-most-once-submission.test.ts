/**
 * A vendor job is submitted at most once per request, through the real worker: a vendor that receives the
 * POST and never answers gets exactly one submission and the request fails refunded, with no fallback to
 * the next provider; a plugin that can look the job up finishes from the found task; a plugin that sends
 * our request id as the idempotency key may resend. And while a provider works, `output` already says who: written
 * once the call outlasts `worker.start_record_after_ms`, or with the submission record, never for a start that
 * answers at once.
 */
import { expect } from 'chai';
import { fileURLToPath } from 'node:url';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';
import { startLoopbackVendor, type LoopbackVendor, type ReceivedRequest } from '../support/loopback-vendor.js';

const fixtures = fileURLToPath(new URL('../fixtures/at-most-once', import.meta.url));

describe('at-most-once vendor submission through the worker', () => {
  let vendor: LoopbackVendor;
  let service: TestService;
  let key: string;
  let accountId: string;

  before(async () => {
    vendor = await startLoopbackVendor();
    const provider = (name: string) => ({ base_url: `${vendor.url}/${name}`, timeout_ms: 400 });
    service = await startTestService({
      manifest_dirs: [`${fixtures}/manifests`, ...withFixtures.manifest_dirs],
      plugin_dirs: [`${fixtures}/plugins`, ...withFixtures.plugin_dirs],
      providers: { 'plain-vendor': provider('plain'), 'lookup-vendor': provider('lookup'), 'keyed-vendor': provider('keyed'), 'fallback-vendor': provider('fallback') },
    });
    ({ key, accountId } = await service.createKey({ credits: 100 }));
  });
  after(async () => {
    await service.stop();
    await vendor.close();
  });

  const create = async (input: Record<string, unknown>) => (await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.submit', input } })).body.id as string;
  const jobsAt = (name: string) => vendor.calls('POST', `/${name}/jobs`);
  const ledgerOf = (requestId: string) =>
    service.service.gateway.database.knex('credit_ledger').where({ request_id: requestId }).orderBy('id').select('kind', 'amount');
  const balance = async () => (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining as number;

  it('submits once to a vendor that takes the POST and hangs, fails the request refunded, and falls back to nobody', async () => {
    vendor.answer(() => ({ hang: true }));
    const before = await balance();
    const id = await create({ message: 'hello', model: 'plain-1' });
    const done = await pollUntilTerminal(service, key, id, 20_000);
    expect(done.status).to.equal('failed');
    expect(done.errorMessage).to.equal(
      'plain-vendor did not confirm the submission (plain-vendor: timed out on POST /plain/jobs after it may have reached the vendor); it was not sent again, to avoid a duplicate job; the credits were refunded',
    );
    expect(done.output).to.deep.equal({ task_id: id, status: 'failed', provider: 'plain-vendor', model: 'plain-1' });
    expect(jobsAt('plain').map((job: ReceivedRequest) => JSON.parse(job.body))).to.deep.equal([{ message: 'hello', metadata: { request_id: id } }]);
    expect(vendor.received.filter((request) => request.path.startsWith('/fallback'))).to.deep.equal([]);
    expect(await balance()).to.equal(before);
    expect(await ledgerOf(id)).to.deep.equal([{ kind: 'debit', amount: -5 }, { kind: 'refund', amount: 5 }]);
  });

  it('finishes from the task a reconciling plugin finds after the submission hung, still with one submission', async () => {
    vendor.answer((request) => {
      if (request.method === 'POST') return { hang: true };
      if (request.path.startsWith('/lookup/jobs?request_id=')) return { status: 200, json: { jobs: [{ id: 'job_found' }] } };
      if (request.path === '/lookup/jobs/job_found') return { status: 200, json: { id: 'job_found', echo: 'found it' } };
      return { status: 404, json: {} };
    });
    const before = await balance();
    const id = await create({ message: 'hello', model: 'lookup-1' });
    const done = await pollUntilTerminal(service, key, id, 20_000);
    expect({ status: done.status, output: done.output, errorMessage: done.errorMessage }).to.deep.equal({
      status: 'succeeded',
      output: { status: 'succeeded', echo: 'found it', task_id: 'job_found', provider: 'lookup-vendor' },
      errorMessage: null,
    });
    expect(jobsAt('lookup')).to.have.length(1);
    expect(vendor.calls('GET', `/lookup/jobs?request_id=${id}`)).to.have.length(1);
    expect(vendor.received.filter((request) => request.path.startsWith('/fallback'))).to.deep.equal([]);
    expect(await balance()).to.equal(before - 5);
  });

  it('writes the processing output with the submission record when the submission comes first: one write, and shown while the vendor hangs', async () => {
    vendor.answer(() => ({ hang: true }));
    const attemptWrites = countStartAttemptWrites(service);
    const id = await create({ message: 'hello', model: 'plain-1' });
    let seen: any;
    const until = Date.now() + 10_000;
    do {
      seen = (await service.api('GET', `/api/v1/requests/${id}`, { key })).body;
      if (seen.status === 'processing' && Object.keys(seen.output ?? {}).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    } while (Date.now() < until && seen.status === 'queued');
    expect({ status: seen.status, output: seen.output }).to.deep.equal({ status: 'processing', output: { task_id: id, status: 'processing', provider: 'plain-vendor', model: 'plain-1' } });
    expect((await pollUntilTerminal(service, key, id, 20_000)).status).to.equal('failed');
    expect(attemptWrites.count()).to.equal(0);
    attemptWrites.restore();
  });

  it('sends the request id as the idempotency key, and resends with the same key after a hang', async () => {
    vendor.answer((request, index) => {
      if (request.method === 'POST') return jobsAt('keyed').length === 1 ? { hang: true } : { status: 201, json: { id: 'job_keyed' } };
      if (request.path === '/keyed/jobs/job_keyed') return { status: 200, json: { id: 'job_keyed', echo: `answer ${index}` } };
      return { status: 404, json: {} };
    });
    const id = await create({ message: 'hello', model: 'keyed-1' });
    const done = await pollUntilTerminal(service, key, id, 20_000);
    expect(done.status).to.equal('succeeded');
    expect(done.output.task_id).to.equal('job_keyed');
    expect(jobsAt('keyed').map((job) => job.headers['idempotency-key'])).to.deep.equal([id, id]);
  });
});

describe('processing output while a synchronous provider works', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ ...withFixtures });
  });
  after(async () => service.stop());

  it('carries task_id, status, provider and model, then the provider that served it', async () => {
    const attemptWrites = countStartAttemptWrites(service);
    const { key } = await service.createKey({ credits: 10 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'slowly', script: { start_delay_ms: 1500 } } } });
    const id = created.body.id as string;
    const until = Date.now() + 10_000;
    let seen: any;
    do {
      seen = (await service.api('GET', `/api/v1/requests/${id}`, { key })).body;
      if (seen.status === 'processing' && Object.keys(seen.output).length > 0) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    } while (Date.now() < until && seen.status !== 'succeeded');
    expect({ status: seen.status, output: seen.output }).to.deep.equal({ status: 'processing', output: { task_id: id, status: 'processing', provider: 'scripted', model: 'echo-v1' } });
    const done = await pollUntilTerminal(service, key, id, 10_000);
    expect(done.output).to.deep.equal({ status: 'succeeded', echo: 'slowly', task_id: 'scripted_task', provider: 'scripted' });
    expect(attemptWrites.count()).to.equal(1);
    attemptWrites.restore();
  });

  it('writes no processing output for a start that answers within worker.start_record_after_ms: the finish is the one write', async () => {
    const attemptWrites = countStartAttemptWrites(service);
    const { key } = await service.createKey({ credits: 10 });
    const ids: string[] = [];
    for (let index = 0; index < 5; index += 1) {
      ids.push((await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: `at once ${index}` } } })).body.id as string);
    }
    for (const [index, id] of ids.entries()) {
      const done = await pollUntilTerminal(service, key, id, 10_000);
      expect({ status: done.status, echo: done.output.echo }).to.deep.equal({ status: 'succeeded', echo: `at once ${index}` });
    }
    expect(attemptWrites.count()).to.equal(0);
    attemptWrites.restore();
  });
});

/** Counts the worker's separate writes of a start attempt's processing output (RequestStore.recordStartAttempt). */
function countStartAttemptWrites(service: TestService): { count(): number; restore(): void } {
  const store = service.service.gateway.requests;
  const original = store.recordStartAttempt;
  let calls = 0;
  store.recordStartAttempt = function (this: typeof store, ...args: Parameters<typeof original>) {
    calls += 1;
    return original.apply(this, args);
  };
  return { count: () => calls, restore: () => void (store.recordStartAttempt = original) };
}
