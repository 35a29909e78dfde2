/**
 * An API process and a worker process (two gateways on one SQLite file, like `mediagate start api` and
 * `mediagate start worker`), each scraped on its own port: the API counts the creates and shows the backlog
 * and its age from the store while no worker runs; the worker, once started, takes the backlog over (the
 * sweeper republishes it), counts the work and its queue wait, and reports its slots. `role` tells them apart.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import { startService, type RunningService } from '../../src/cli/serve.js';
import { loadSettings, type DeepPartial, type Settings } from '../../src/kernel/config/index.js';
import { newId } from '../../src/kernel/store/index.js';
import { eventually } from '../support/eventually.js';
import { withFixtures } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { scrape, type Scrape } from '../support/metrics-scrape.js';

describe('metrics of the api and worker roles', function () {
  this.timeout(60_000);
  let dataDir: string;
  /** Both processes' clock, moved forward to age the backlog without waiting. */
  let skewMs = 0;
  const clock = { now: () => Date.now() + skewMs };
  const running: RunningService[] = [];

  async function start(role: 'api' | 'worker', overrides: DeepPartial<Settings>): Promise<RunningService> {
    const settings = loadSettings({
      env: {},
      overrides: {
        ...withFixtures,
        ...overrides,
        server: { host: '127.0.0.1', port: await freePort(), public_url: '' },
        data_dir: dataDir,
        log: { level: 'silent' },
        metrics: { refresh_interval_ms: 50 },
        worker: { sweep_interval_ms: 200, requeue_after_ms: 1000, ...overrides.worker },
      },
    });
    const service = await startService(settings, { role, log: pino({ level: 'silent' }), clock });
    running.push(service);
    return service;
  }

  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-metrics-roles-'));
  });
  after(async () => {
    for (const service of running.reverse()) await service.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('the API shows its creates and the aged backlog; the worker takes it over and reports its own work', async () => {
    const api = await start('api', {});
    const { accounts, apiKeys } = api.gateway;
    const accountId = newId('acct', clock.now());
    await accounts.createAccount({ id: accountId, email: 'roles@example.com', plan: 'test', creditsBalance: 100, createdAtMs: clock.now() });
    const { plaintext: key } = await apiKeys.create(accountId, 'roles', ['requests:read', 'requests:write']);
    for (const message of ['one', 'two', 'three']) {
      const created = await fetch(`${api.url}/api/v1/requests`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: JSON.stringify({ operation: 'test.echo', input: { message } }) });
      expect(created.status).to.equal(202);
    }
    skewMs = 120_000;
    const backlogged = await until(api.url, (now) => now.value('mediagate_requests_oldest_age_seconds', { state: 'queued' }) >= 120);
    expect(backlogged.value('mediagate_requests_backlog', { state: 'queued' })).to.equal(3);
    expect(backlogged.value('mediagate_requests_oldest_age_seconds', { state: 'queued' })).to.be.below(150);
    expect(backlogged.value('mediagate_requests_backlog', { state: 'processing' })).to.equal(0);
    expect(backlogged.of('mediagate_build_info').map((sample) => sample.labels.role)).to.deep.equal(['api']);
    expect(backlogged.value('mediagate_requests_created_total', { operation: 'test.echo', model: 'echo-1' })).to.equal(3);
    expect(backlogged.value('mediagate_credits_debited_total', { operation: 'test.echo' })).to.equal(6);
    expect(backlogged.value('mediagate_http_requests_total', { method: 'POST', route: '/api/v1/requests', status: '202' })).to.equal(3);
    // An API process runs no provider work and has no job slots.
    expect(backlogged.of('mediagate_worker_slots')).to.deep.equal([]);
    expect(backlogged.sum('mediagate_provider_calls_total')).to.equal(0);

    const worker = await start('worker', { worker: { health_port: await freePort() } });
    const workerUrl = worker.url;
    expect(workerUrl).to.not.equal(api.url);
    const worked = await until(workerUrl, (now) => now.sum('mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'succeeded' }) === 3);
    expect(worked.of('mediagate_build_info').map((sample) => sample.labels.role)).to.deep.equal(['worker']);
    expect(worked.value('mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'succeeded' })).to.equal(3);
    expect(worked.value('mediagate_provider_calls_total', { provider: 'scripted', call: 'start', outcome: 'ok' })).to.equal(3);
    expect(worked.value('mediagate_sweeper_actions_total', { action: 'republished' })).to.be.at.least(3);
    // Each waited the two minutes the clock moved (and a little): all in the (120 s, 300 s] bucket.
    expect(worked.value('mediagate_request_queue_wait_seconds_count', { operation: 'test.echo' })).to.equal(3);
    expect(worked.value('mediagate_request_queue_wait_seconds_bucket', { operation: 'test.echo', le: '120' })).to.equal(0);
    expect(worked.value('mediagate_request_queue_wait_seconds_bucket', { operation: 'test.echo', le: '300' })).to.equal(3);
    const concurrency = worker.gateway.settings.worker.concurrency + worker.gateway.settings.worker.poll_concurrency;
    expect(worked.value('mediagate_worker_slots', { state: 'busy' }) + worked.value('mediagate_worker_slots', { state: 'free' })).to.equal(concurrency);
    // The creates were counted where they were received.
    expect(worked.value('mediagate_requests_created_total', { operation: 'test.echo', model: 'echo-1' })).to.equal(0);

    const drained = await until(api.url, (now) => now.value('mediagate_requests_backlog', { state: 'queued' }) === 0);
    expect(drained.value('mediagate_requests_oldest_age_seconds', { state: 'queued' })).to.equal(0);
    expect(drained.sum('mediagate_requests_finished_total')).to.equal(0);
  });
});

function until(baseUrl: string, check: (now: Scrape) => boolean): Promise<Scrape> {
  return eventually(`the metrics of ${baseUrl}`, async () => {
    const now = await scrape(`${baseUrl}/metrics`);
    return check(now) ? now : undefined;
  }, 20_000);
}
