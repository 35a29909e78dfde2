/**
 * The client-facing lifecycle on the production topology (2 API processes + 1 worker on MariaDB + RabbitMQ):
 * webhooks delivered once and signed, list/cancel/estimate/Prefer: wait, and a rate limit shared by both API
 * processes rather than multiplied by them.
 */
import { createServer, type Server } from 'node:http';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { api, ProcessTopology, waitForTerminal, type ManagedProcess } from '../support/process-topology.js';
import { freePort } from '../support/free-port.js';
import { withBrokerChannel } from '../support/rabbitmq.js';
import { startOfRateWindow } from '../support/rate-window.js';

describe('client lifecycle on the production topology', function () {
  this.timeout(120_000);
  let topology: ProcessTopology;
  let apis: ManagedProcess[];
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: Record<string, string>; body: string }[] = [];

  before(async function () {
    const port = await freePort();
    receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body });
        res.statusCode = received.length === 1 ? 503 : 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(port, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${port}/hook`;
    topology = await ProcessTopology.create(this, { MEDIAGATE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1', MEDIAGATE_RATE_LIMIT_CREATES_PER_MINUTE: '6' });
    apis = [await topology.start('api'), await topology.start('api')];
    await topology.start('worker');
  });
  after(async () => {
    await topology?.stop();
    receiver?.closeAllConnections();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  it('delivers one signed webhook per request from the workers, retrying a failed attempt', async () => {
    const key = await topology.createKey(1000);
    const secret = (await api(apis[1].url, key, 'GET', '/api/v1/webhooks/secret')).body.key;
    const created = await api(apis[0].url, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: 'prod hook' }, webhook_url: receiverUrl });
    expect(created.status).to.equal(202);
    await waitForTerminal(apis[1].url, key, [created.body.id], 30_000);
    const until = Date.now() + 30_000;
    while (received.length < 2 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).to.have.length(2);
    const verified = received.map((delivery) => new Webhook(secret).verify(delivery.body, delivery.headers) as { type: string; data: { id: string } });
    expect(verified.map((payload) => [payload.type, payload.data.id])).to.deep.equal([
      ['request.succeeded', created.body.id],
      ['request.succeeded', created.body.id],
    ]);
    expect(received[0].headers['webhook-id']).to.equal(received[1].headers['webhook-id']);
    const log = (await api(apis[0].url, key, 'GET', `/api/v1/requests/${created.body.id}/deliveries`)).body.data;
    expect(log[0].state).to.equal('delivered');
    expect(log[0].attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).to.deep.equal([503, 200]);
  });

  it('estimates, waits with Prefer, lists and cancels across API processes', async () => {
    const key = await topology.createKey(1000);
    const estimate = await api(apis[0].url, key, 'POST', '/api/v1/estimates', { operation: 'test.echo', input: { message: 'x', size: 'large' } });
    expect(estimate.body).to.include({ billableCredits: 10, affordable: true });
    const waited = await fetch(`${apis[1].url}/api/v1/requests`, {
      method: 'POST',
      headers: { 'x-api-key': key, 'content-type': 'application/json', prefer: 'wait=20' },
      body: JSON.stringify({ operation: 'test.echo', input: { message: 'wait for me' } }),
    });
    expect(waited.status).to.equal(200);
    expect((await waited.json()).status).to.equal('succeeded');
    const slow = await api(apis[0].url, key, 'POST', '/api/v1/requests', { operation: 'test.slow', input: { message: 'cancel', script: { pending: 1_000_000 } } });
    let cancelled;
    do cancelled = await api(apis[1].url, key, 'POST', `/api/v1/requests/${slow.body.id}/cancel`);
    while (cancelled.status === 409 && cancelled.body.code === 'MG_REQUEST_BUSY');
    expect(cancelled.body).to.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
    const listed = await api(apis[1].url, key, 'GET', '/api/v1/requests?limit=10');
    expect(listed.body.data.map((item: { id: string }) => item.id)).to.include(slow.body.id);
    expect((await api(apis[0].url, key, 'GET', '/api/v1/status')).body.creditsRemaining).to.equal(998);
  });

  it('stops a start running in the worker process when an API process answers the cancel, once the store confirms it', async () => {
    const key = await topology.createKey(1000);
    const created = await api(apis[0].url, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: 'long render', script: { start_delay_ms: 120_000 } } });
    expect(created.status).to.equal(202);
    const id: string = created.body.id;
    let seen;
    do seen = await api(apis[1].url, key, 'GET', `/api/v1/requests/${id}`);
    while (seen.body.status === 'queued' && (await new Promise((resolve) => setTimeout(resolve, 50, true))));
    expect(seen.body.status).to.equal('processing');
    const charged: number = seen.body.billableCredits;
    expect(charged).to.be.greaterThan(0);
    expect((await api(apis[0].url, key, 'GET', '/api/v1/status')).body.creditsRemaining).to.equal(1000 - charged);

    // A notice on the broker with no cancel recorded in the store stops nothing.
    await withBrokerChannel(async (channel) => {
      channel.publish(`${topology.env.MEDIAGATE_AMQP_PREFIX}.cancels`, '', Buffer.from(JSON.stringify([id])));
      // The channel's close-ok follows the publish: closing only the connection can lose it.
      await channel.close();
    });
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect((await api(apis[1].url, key, 'GET', `/api/v1/requests/${id}`)).body.status).to.equal('processing');

    const started = performance.now();
    const cancelled = await api(apis[1].url, key, 'POST', `/api/v1/requests/${id}/cancel`);
    const elapsedMs = performance.now() - started;

    // Answered once the worker stopped the start, not after the 5 s a cancel waits for a busy worker (409).
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    expect(elapsedMs).to.be.lessThan(4_000);
    expect(cancelled.body).to.deep.include({ id, status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect(cancelled.body.credits).to.deep.include({ charged, refunded: charged, net: 0 });
    expect((await api(apis[0].url, key, 'GET', '/api/v1/status')).body.creditsRemaining).to.equal(1000);
    const again = await api(apis[0].url, key, 'POST', `/api/v1/requests/${id}/cancel`);
    expect([again.status, again.body.code]).to.deep.equal([409, 'MG_REQUEST_ALREADY_FINISHED']);
  });

  it('purges data past retention on the shared store: both API processes then show the marker', async () => {
    const key = await topology.createKey(1000);
    const created = await api(apis[0].url, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: 'old news' } });
    await waitForTerminal(apis[0].url, key, [created.body.id], 30_000);
    // What a worker's hourly purge does, run here against the same MariaDB and blob folder, 8 days later.
    const purged = await topology.runRetentionPurge(Date.now() + 8 * 24 * 60 * 60 * 1000);
    expect(purged).to.be.at.least(1);
    const after = await api(apis[1].url, key, 'GET', `/api/v1/requests/${created.body.id}`);
    expect(after.body).to.include({ status: 'succeeded', input: null });
    expect(after.body.dataRemovedAtMs).to.be.a('number');
  });

  it('shares one key\'s create limit between both API processes', async () => {
    const key = await topology.createKey(1000);
    await startOfRateWindow();
    const statuses: number[] = [];
    for (let index = 0; index < 10; index += 1) {
      statuses.push((await api(apis[index % 2].url, key, 'POST', '/api/v1/requests', { operation: 'test.echo', input: { message: `limit ${index}` } })).status);
    }
    // 6 a minute in total: if the limit were per process, 10 alternating calls would all pass.
    expect(statuses.filter((status) => status === 202).length).to.be.at.most(6);
    expect(statuses.filter((status) => status === 429).length).to.be.at.least(4);
  });
});
