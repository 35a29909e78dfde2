/**
 * The embedded default with its worker on a thread of its own (`worker.thread`, on by default for `mediagate start
 * all`): the HTTP thread queues, the worker thread runs every job on its own SQLite connection, and what the HTTP
 * side needs of the worker crosses between them: finishes that wake a create's wait and a long poll, a client's
 * cancel that stops a running start, the worker's metrics on /metrics, its breakers on /healthz, and a thread that
 * dies is started again without losing the request it ran.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { ThreadQueue } from '../../src/kernel/worker-thread/index.js';
import { eventually } from '../support/eventually.js';
import { withFixtures } from '../support/fixtures.js';
import { download, probeImage } from '../support/media-probe.js';
import { scrape } from '../support/metrics-scrape.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const echo = (script: Record<string, unknown>, message = 'on the worker thread') => ({ operation: 'test.echo', input: { message, script } });

describe('the embedded worker on a thread of its own', function () {
  let service: TestService;
  let key: string;

  before(async () => {
    // A short lease: the start a dead thread held is taken over by the new thread's sweeper within it.
    service = await startTestService({ ...withFixtures, worker: { thread: true, lease_ms: 1_500 }, breaker: { volume_threshold: 2, error_threshold_percentage: 50, reset_timeout_ms: 60_000 } });
    ({ key } = await service.createKey({ credits: 100_000 }));
  });
  after(async () => service?.stop());

  const create = async (body: object, headers: Record<string, string> = {}) => service.api('POST', '/api/v1/requests', { key, body, headers });
  const get = (id: string, headers: Record<string, string> = {}) => service.api('GET', `/api/v1/requests/${id}`, { key, headers });

  it('runs the jobs on the worker thread: a create with Prefer: wait answered at its finish, with real media', async () => {
    // The HTTP thread hands its jobs over and consumes none itself.
    expect(service.service.gateway.queue).to.be.instanceOf(ThreadQueue);
    const created = await create({ operation: 'image.generate', input: { prompt: 'a red mug on a wooden table' } }, { prefer: 'wait=30' });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.status).to.equal('succeeded');
    const file = await download(created.body.output.image_url);
    expect(file.contentType).to.equal('image/png');
    expect((await probeImage(file.bytes)).width).to.be.greaterThan(0);
  });

  it('wakes a long poll on the HTTP thread when the worker thread finishes the request', async () => {
    const created = await create(echo({ start_delay_ms: 1_000 }));
    expect(created.status).to.equal(202);
    const began = performance.now();
    const answer = await get(created.body.id, { prefer: 'wait=30' });
    expect(answer.body).to.include({ id: created.body.id, status: 'succeeded' });
    expect(answer.body.output.echo).to.equal('on the worker thread');
    expect(answer.body.credits).to.deep.include({ charged: 2, refunded: 0, net: 2 });
    // Answered at the finish (after the 1 s start), not at the end of the 30 s wait.
    expect(performance.now() - began).to.be.within(500, 15_000);
  });

  it('stops a running start on the worker thread when the client cancels, and refunds it', async () => {
    const created = await create(echo({ start_delay_ms: 60_000 }));
    const id: string = created.body.id;
    await eventually('the start to run', async () => ((await get(id)).body.output?.provider === 'scripted' ? true : undefined));
    const began = performance.now();
    const cancelled = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(cancelled.body).to.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect(cancelled.body.credits).to.deep.include({ charged: 2, refunded: 2, net: 0 });
    // The start was stopped on the thread (its 60 s sleep honours the cancel), not waited out.
    expect(performance.now() - began).to.be.below(20_000);
  });

  it("serves the worker thread's metrics with the HTTP thread's at /metrics, each once", async () => {
    const done = await create(echo({}, 'counted'), { prefer: 'wait=30' });
    expect(done.body.status).to.equal('succeeded');
    const metrics = await scrape(`${service.url}/metrics`);
    // Counted on the worker thread only: its provider calls and finishes.
    expect(metrics.value('mediagate_provider_calls_total', { provider: 'scripted', call: 'start', outcome: 'ok' })).to.be.at.least(2);
    expect(metrics.sum('mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'succeeded' })).to.be.at.least(2);
    // Counted on the HTTP thread only: the creates and the HTTP answers.
    expect(metrics.sum('mediagate_requests_created_total', { operation: 'test.echo' })).to.be.at.least(3);
    expect(metrics.sum('mediagate_http_requests_total', { route: '/api/v1/requests', method: 'POST' })).to.be.at.least(4);
    // Set by both threads, served once: one build, the broker (the in-process queue) up, the worker's slots once.
    expect(metrics.of('mediagate_build_info')).to.have.length(1);
    expect(metrics.value('mediagate_build_info')).to.equal(1);
    expect(metrics.value('mediagate_broker_connected')).to.equal(1);
    const { concurrency, poll_concurrency } = service.service.gateway.settings.worker;
    expect(metrics.value('mediagate_worker_slots', { state: 'busy' }) + metrics.value('mediagate_worker_slots', { state: 'free' })).to.equal(concurrency + poll_concurrency);
    // Two SQLite connections serve the process: the HTTP thread's and the worker thread's.
    expect(metrics.value('mediagate_database_pool_connections', { state: 'used' })).to.equal(2);
  });

  it('shows on /healthz a circuit breaker the worker thread opened', async () => {
    // Retryable vendor errors (503) count against the breaker; two of two fail, past the 50% threshold.
    for (const message of ['overloaded 1', 'overloaded 2']) {
      const created = await create(echo({ transient_starts: 100 }, message));
      expect(created.status).to.equal(202);
    }
    const health = await eventually('the breaker to open on /healthz', async () => {
      const answer = await service.api('GET', '/healthz');
      return answer.body.providers?.scripted?.state === 'open' ? answer.body : undefined;
    });
    expect(health.providers.scripted.state).to.equal('open');
    expect((await scrape(`${service.url}/metrics`)).value('mediagate_breaker_open', { provider: 'scripted' })).to.equal(1);
  });
});

describe('a worker thread that dies', function () {
  let service: TestService;
  let key: string;

  before(async () => {
    service = await startTestService({ ...withFixtures, worker: { thread: true, lease_ms: 1_500 } });
    ({ key } = await service.createKey({ credits: 1_000 }));
  });
  after(async () => service?.stop());

  it('is started again, and the request it was running finishes on the new thread', async () => {
    const marker = join(service.dataDir, 'thread-ended');
    const created = await service.api('POST', '/api/v1/requests', { key, body: echo({ end_thread_once: marker }, 'survived') });
    expect(created.status).to.equal(202);
    const finished = await pollUntilTerminal(service, key, created.body.id, 30_000);
    // The first start ended its thread (the marker says it ran); the new thread's sweeper took the request over.
    expect(existsSync(marker)).to.equal(true);
    expect(finished).to.include({ status: 'succeeded' });
    expect(finished.output.echo).to.equal('survived');
    expect(finished.credits).to.deep.include({ charged: 2, refunded: 0, net: 2 });
    const health = await service.api('GET', '/healthz');
    expect(health.status).to.equal(200);
    expect(health.body.checks.queue).to.deep.equal({ ok: true });
  });
});
