/**
 * The metrics move with real traffic through the REST API of an embedded gateway (real HTTP, SQLite, worker and
 * webhook deliverer; vendors answered by nock or scripted): each scenario scrapes `/metrics` before and after, and
 * checks what changed — a success settled down and one settled up, a vendor failure served by a fallback, a
 * permanent failure refunded, a cancel, a rate-limited call, a webhook delivered after a failed attempt.
 */
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import nock from 'nock';
import { eventually } from '../support/eventually.js';
import { fixturePluginDir } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { scrape, type Scrape } from '../support/metrics-scrape.js';
import { startOfRateWindow } from '../support/rate-window.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const fixture = (path: string) => fileURLToPath(new URL(`../fixtures/${path}`, import.meta.url));

/** The change of one series between two scrapes (a series that did not exist counts as 0). */
function delta(before: Scrape, after: Scrape, name: string, labels: Record<string, string>): number {
  return after.sum(name, labels) - before.sum(name, labels);
}

describe('metrics under traffic through the REST API', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    nock.disableNetConnect();
    nock.enableNetConnect(/127\.0\.0\.1/);
    service = await startTestService({
      // test.echo priced per declared second and settled on the measured one; test.relay: relay-a, a synthetic stand-in, relay-b.
      manifest_dirs: [fixture('settlement/manifests'), fixture('routing/manifests')],
      plugin_dirs: [fixturePluginDir, fixture('routing/plugins')],
      providers: { 'relay-a': { api_key: 'key-a' }, 'relay-b': { api_key: 'key-b' } },
      outbound: { allow_hosts: ['127.0.0.1'] },
      webhooks: { poll_interval_ms: 50, timeout_ms: 2000, retry_schedule_ms: [100, 200] },
      rate_limits: { creates_per_minute: 4 },
      metrics: { refresh_interval_ms: 50 },
    });
  });
  after(async () => {
    await service.stop();
    nock.cleanAll();
    nock.enableNetConnect();
  });

  const metrics = () => scrape(`${service.url}/metrics`);

  async function create(key: string, body: Record<string, unknown>): Promise<string> {
    const created = await service.api('POST', '/api/v1/requests', { key, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body.id;
  }

  /** The request is finished before its finish is counted (the count follows the commit): wait for the count. */
  function settled(check: (now: Scrape) => boolean): Promise<Scrape> {
    return eventually('the metrics to reflect the request', async () => {
      const now = await metrics();
      return check(now) ? now : undefined;
    }, 10_000);
  }

  it('counts a success: created, debited, started, polled, finished, settled down and refunded', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const before = await metrics();
    const id = await create(key, { operation: 'test.echo', input: { message: 'down', seconds: 10, script: { pending: 1, usage: { output_seconds: 3 } } } });
    const done = await pollUntilTerminal(service, key, id);
    expect(done).to.include({ status: 'succeeded', billableCredits: 6 });
    const after = await settled((now) => delta(before, now, 'mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'succeeded' }) === 1);

    const change = (name: string, labels: Record<string, string>) => delta(before, after, name, labels);
    expect(change('mediagate_requests_created_total', { operation: 'test.echo', model: 'echo-1' })).to.equal(1);
    expect(change('mediagate_credits_debited_total', { operation: 'test.echo' })).to.equal(20);
    expect(change('mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'succeeded' })).to.equal(1);
    expect(change('mediagate_request_duration_seconds_count', { operation: 'test.echo', outcome: 'succeeded' })).to.equal(1);
    expect(change('mediagate_request_queue_wait_seconds_count', { operation: 'test.echo' })).to.equal(1);
    // One start, then a poll answered pending and a poll answered done.
    expect(change('mediagate_provider_calls_total', { provider: 'scripted', call: 'start', outcome: 'ok' })).to.equal(1);
    expect(change('mediagate_provider_calls_total', { provider: 'scripted', call: 'status', outcome: 'ok' })).to.equal(2);
    expect(change('mediagate_provider_call_duration_seconds_count', { provider: 'scripted', call: 'status' })).to.equal(2);
    // Both polls were scheduled, so both are measured against their due time; a worker with free slots takes them within moments (a bogus due time would land past 5 s).
    expect(change('mediagate_vendor_poll_lateness_seconds_count', { provider: 'scripted' })).to.equal(2);
    expect(change('mediagate_vendor_poll_lateness_seconds_bucket', { provider: 'scripted', le: '5' })).to.equal(2);
    expect(change('mediagate_credits_settled_total', { operation: 'test.echo', direction: 'down' })).to.equal(14);
    expect(change('mediagate_credits_refunded_total', { operation: 'test.echo' })).to.equal(14);
    expect(change('mediagate_credits_settled_total', { operation: 'test.echo', direction: 'up' })).to.equal(0);
    // The create, and a poll after the start and after the pending answer.
    expect(change('mediagate_broker_publishes_total', { outcome: 'confirmed' })).to.be.at.least(3);
    expect(change('mediagate_http_requests_total', { method: 'POST', route: '/api/v1/requests', status: '202' })).to.equal(1);
    expect(change('mediagate_http_request_duration_seconds_count', { method: 'POST', route: '/api/v1/requests', status: '202' })).to.equal(1);
    expect(change('mediagate_http_requests_total', { method: 'GET', route: '/api/v1/requests/:requestId', status: '200' })).to.be.at.least(1);
    // Route patterns only: no request id ever becomes a label value.
    expect([...after.labelValues('mediagate_http_requests_total', 'route')].filter((route) => route.includes(id))).to.deep.equal([]);
  });

  it('counts a settlement up, charged from the balance', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const before = await metrics();
    const id = await create(key, { operation: 'test.echo', input: { message: 'up', seconds: 2, script: { usage: { output_seconds: 7.2 } } } });
    const done = await pollUntilTerminal(service, key, id);
    expect(done.status).to.equal('succeeded');
    expect(done.billableCredits).to.be.above(4);
    const after = await settled((now) => delta(before, now, 'mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'succeeded' }) === 1);
    expect(delta(before, after, 'mediagate_credits_debited_total', { operation: 'test.echo' })).to.equal(4);
    expect(delta(before, after, 'mediagate_credits_settled_total', { operation: 'test.echo', direction: 'up' })).to.equal(done.billableCredits - 4);
    expect(delta(before, after, 'mediagate_credits_refunded_total', { operation: 'test.echo' })).to.equal(0);
  });

  it('counts a vendor failure, the fallback that served the request, and the provider that finished it', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const vendor = nock('https://relay-a.relay.test').post('/v1/relay').reply(503, { error: { message: 'overloaded', type: 'server_error' } }).persist();
    try {
      const before = await metrics();
      const id = await create(key, { operation: 'test.relay', input: { message: 'hello' } });
      const done = await pollUntilTerminal(service, key, id);
      expect(done.output).to.include({ provider: 'stand-in', echo: 'synthetic: hello' });
      expect(vendor.isDone()).to.equal(true);
      const after = await settled((now) => delta(before, now, 'mediagate_requests_finished_total', { operation: 'test.relay' }) === 1);
      expect(delta(before, after, 'mediagate_provider_calls_total', { provider: 'relay-a', call: 'start', outcome: 'retryable_error' })).to.equal(1);
      expect(delta(before, after, 'mediagate_provider_calls_total', { provider: 'stand-in', call: 'start', outcome: 'ok' })).to.equal(1);
      expect(delta(before, after, 'mediagate_provider_fallbacks_total', { operation: 'test.relay', from_provider: 'relay-a', to_provider: 'stand-in' })).to.equal(1);
      expect(delta(before, after, 'mediagate_provider_fallbacks_total', { operation: 'test.relay', from_provider: 'relay-a', to_provider: 'relay-b' })).to.equal(0);
      expect(delta(before, after, 'mediagate_requests_finished_total', { operation: 'test.relay', provider: 'stand-in', model: 'relay-1', outcome: 'succeeded' })).to.equal(1);
      expect(delta(before, after, 'mediagate_provider_call_duration_seconds_count', { provider: 'relay-a', call: 'start' })).to.equal(1);
    } finally {
      nock.cleanAll();
    }
  });

  it('counts a permanent vendor failure against its provider and the refund', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const before = await metrics();
    const id = await create(key, { operation: 'test.echo', input: { message: 'no', seconds: 1, script: { outcome: 'permanent_error' } } });
    expect((await pollUntilTerminal(service, key, id)).status).to.equal('failed');
    const after = await settled((now) => delta(before, now, 'mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'failed' }) === 1);
    expect(delta(before, after, 'mediagate_provider_calls_total', { provider: 'scripted', call: 'start', outcome: 'permanent_error' })).to.equal(1);
    expect(delta(before, after, 'mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'failed' })).to.equal(1);
    expect(delta(before, after, 'mediagate_request_duration_seconds_count', { operation: 'test.echo', outcome: 'failed' })).to.equal(1);
    expect(delta(before, after, 'mediagate_credits_debited_total', { operation: 'test.echo' })).to.equal(2);
    expect(delta(before, after, 'mediagate_credits_refunded_total', { operation: 'test.echo' })).to.equal(2);
  });

  it('shows a vendor task in flight, then counts its cancel as cancelled with a full refund', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const before = await metrics();
    const id = await create(key, { operation: 'test.echo', input: { message: 'forever', seconds: 4, script: { pending: 1_000_000 } } });
    const holding = await settled((now) => now.value('mediagate_vendor_tasks_in_flight', { provider: 'scripted' }) === 1);
    expect(holding.value('mediagate_requests_backlog', { state: 'processing' })).to.equal(1);
    let cancelled = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });
    // A poll in progress holds the request for a moment; the API asks to retry.
    while (cancelled.status === 409) cancelled = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });
    expect(cancelled.status).to.equal(200);
    expect(cancelled.body).to.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
    const after = await settled(
      (now) => delta(before, now, 'mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'cancelled' }) === 1 && now.value('mediagate_vendor_tasks_in_flight', { provider: 'scripted' }) === 0,
    );
    expect(delta(before, after, 'mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'cancelled' })).to.equal(1);
    expect(delta(before, after, 'mediagate_requests_finished_total', { operation: 'test.echo', outcome: 'failed' })).to.equal(0);
    expect(delta(before, after, 'mediagate_request_duration_seconds_count', { operation: 'test.echo', outcome: 'cancelled' })).to.equal(1);
    expect(delta(before, after, 'mediagate_credits_refunded_total', { operation: 'test.echo' })).to.equal(8);
    expect(after.value('mediagate_requests_backlog', { state: 'processing' })).to.equal(0);
    expect(delta(before, after, 'mediagate_http_requests_total', { method: 'POST', route: '/api/v1/requests/:requestId/cancel', status: '200' })).to.equal(1);
  });

  it('counts a call refused by the rate limit, with its 429', async () => {
    const { key } = await service.createKey({ credits: 100 });
    await startOfRateWindow();
    const before = await metrics();
    const estimate = () => service.api('POST', '/api/v1/estimates', { key, body: { operation: 'test.echo', input: { message: 'price me' } } });
    for (let call = 0; call < 4; call += 1) expect((await estimate()).status).to.equal(200);
    expect((await estimate()).status).to.equal(429);
    const after = await metrics();
    expect(delta(before, after, 'mediagate_rate_limit_rejections_total', { bucket: 'create' })).to.equal(1);
    expect(delta(before, after, 'mediagate_rate_limit_rejections_total', { bucket: 'read' })).to.equal(0);
    expect(delta(before, after, 'mediagate_http_requests_total', { method: 'POST', route: '/api/v1/estimates', status: '429' })).to.equal(1);
    expect(delta(before, after, 'mediagate_http_requests_total', { method: 'POST', route: '/api/v1/estimates', status: '200' })).to.equal(4);
  });

  it('counts a webhook attempt that failed and the delivery after it, with their latency', async () => {
    const answers = [500, 204];
    const port = await freePort();
    const receiver: Server = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.writeHead(answers.shift() ?? 204).end());
    });
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    try {
      const { key } = await service.createKey({ credits: 100 });
      const before = await metrics();
      const id = await create(key, { operation: 'test.echo', input: { message: 'hook', seconds: 1 }, webhook_url: `http://127.0.0.1:${port}/hooks` });
      await pollUntilTerminal(service, key, id);
      const after = await settled((now) => delta(before, now, 'mediagate_webhook_deliveries_total', { outcome: 'delivered' }) === 1);
      expect(delta(before, after, 'mediagate_webhook_deliveries_total', { outcome: 'failed_attempt' })).to.equal(1);
      expect(delta(before, after, 'mediagate_webhook_deliveries_total', { outcome: 'gave_up' })).to.equal(0);
      expect(delta(before, after, 'mediagate_webhook_delivery_duration_seconds_count', { outcome: 'delivered' })).to.equal(1);
      expect(delta(before, after, 'mediagate_webhook_delivery_duration_seconds_count', { outcome: 'failed_attempt' })).to.equal(1);
      expect((await settled((now) => now.value('mediagate_webhook_outbox_backlog') === 0)).value('mediagate_webhook_outbox_backlog')).to.equal(0);
    } finally {
      await new Promise<void>((resolve) => (receiver.closeAllConnections(), receiver.close(() => resolve())));
    }
  });
});
