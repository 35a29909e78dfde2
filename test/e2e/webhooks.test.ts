/**
 * Signed webhooks end to end: a real local receiver that fails, times out and recovers; signatures verified
 * with the official `standardwebhooks` package; secret rotation; the deliveries log; redelivery; the URL guard.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { expect } from 'chai';
import { Webhook } from 'standardwebhooks';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** A receiver whose answers are scripted per call: a status code, or 'hang' (never answers). */
async function startReceiver(script: (number | 'hang')[]): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const port = await freePort();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      const answer = script[received.length - 1] ?? 204;
      if (answer === 'hang') return;
      if (answer === 429) res.setHeader('retry-after', '1');
      res.statusCode = answer;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

async function until(condition: () => boolean | Promise<boolean>, deadlineMs = 20_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!(await condition())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('signed webhooks (Standard Webhooks)', function () {
  this.timeout(60_000);
  let service: TestService;
  before(async () => {
    service = await startTestService({
      ...withFixtures,
      outbound: { allow_hosts: ['127.0.0.1'] },
      webhooks: { timeout_ms: 500, poll_interval_ms: 50, retry_schedule_ms: [100, 200, 300], rotation_grace_ms: 60_000 },
    });
  });
  after(async () => service.stop());

  it('delivers once per terminal state, signed, retrying through failures and a timeout until the receiver recovers', async () => {
    const receiver = await startReceiver([500, 'hang', 429, 200]);
    try {
      const { key } = await service.createKey({ credits: 100 });
      const secret = (await service.api('GET', '/api/v1/webhooks/secret', { key })).body.key as string;
      expect(secret).to.match(/^whsec_/);
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'hook me' }, webhook_url: receiver.url } });
      const done = await pollUntilTerminal(service, key, created.body.id);
      await until(() => receiver.received.length >= 4);
      const deliveries = (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data;
      await until(async () => (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data[0].state === 'delivered');
      const log = (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data;
      expect(log).to.have.length(1);
      expect(log[0]).to.include({ type: 'request.succeeded', state: 'delivered', url: receiver.url });
      expect(log[0].attempts.map((attempt: { statusCode: number | null }) => attempt.statusCode)).to.deep.equal([500, null, 429, 200]);
      expect(log[0].attempts[1].error).to.contain('timed out');
      // The wait after the 429 honoured Retry-After: 1 s, longer than the 300 ms schedule step.
      expect(log[0].attempts[3].attemptedAtMs - log[0].attempts[2].attemptedAtMs).to.be.at.least(1000);
      expect(deliveries[0].id).to.equal(log[0].id);

      const webhook = new Webhook(secret);
      const ids = new Set<string>();
      for (const delivery of receiver.received) {
        const payload = webhook.verify(delivery.body, { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) }) as any;
        expect(payload.type).to.equal('request.succeeded');
        expect(payload.data).to.include({ id: created.body.id, status: 'succeeded' });
        expect(payload.data.output).to.deep.equal(done.output);
        ids.add(String(delivery.headers['webhook-id']));
      }
      expect(ids.size, 'one logical delivery: the same webhook-id on every attempt').to.equal(1);
    } finally {
      await receiver.close();
    }
  });

  it('fires request.failed for a cancelled request, and can be redelivered', async () => {
    const receiver = await startReceiver([204, 204]);
    try {
      const { key } = await service.createKey({ credits: 100 });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.slow', input: { message: 'cancel me', script: { pending: 1_000_000 } }, webhook_url: receiver.url } });
      let cancelled: any;
      do cancelled = await service.api('POST', `/api/v1/requests/${created.body.id}/cancel`, { key });
      while (cancelled.status === 409 && cancelled.body.code === 'MG_REQUEST_BUSY');
      await until(() => receiver.received.length === 1);
      expect(JSON.parse(receiver.received[0].body)).to.deep.include({ type: 'request.failed' });
      const [delivery] = (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data;
      await until(async () => (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data[0].state === 'delivered');
      const again = await service.api('POST', `/api/v1/requests/${created.body.id}/deliveries/${delivery.id}/redeliver`, { key });
      expect(again.status).to.equal(202);
      await until(() => receiver.received.length === 2);
      expect(receiver.received[1].headers['webhook-id']).to.equal(receiver.received[0].headers['webhook-id']);
    } finally {
      await receiver.close();
    }
  });

  it('counts a redirect as a failed attempt (never followed) and retries', async () => {
    const receiver = await startReceiver([302, 204]);
    try {
      const { key } = await service.createKey({ credits: 100 });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'moved' }, webhook_url: receiver.url } });
      await until(async () => (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data[0]?.state === 'delivered');
      const [delivery] = (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data;
      expect(delivery.attempts.map((attempt: { statusCode: number }) => attempt.statusCode)).to.deep.equal([302, 204]);
      expect(receiver.received).to.have.length(2);
    } finally {
      await receiver.close();
    }
  });

  it('disables a delivery on 410 Gone without retrying', async () => {
    const receiver = await startReceiver([410]);
    try {
      const { key } = await service.createKey({ credits: 100 });
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'gone' }, webhook_url: receiver.url } });
      await until(async () => (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data[0]?.state === 'disabled');
      await new Promise((resolve) => setTimeout(resolve, 400));
      expect(receiver.received).to.have.length(1);
    } finally {
      await receiver.close();
    }
  });

  it('signs with both secrets during the rotation grace window', async () => {
    const receiver = await startReceiver([204]);
    try {
      const { key } = await service.createKey({ credits: 100 });
      const old = (await service.api('GET', '/api/v1/webhooks/secret', { key })).body.key;
      const rotated = (await service.api('POST', '/api/v1/webhooks/secret/rotate', { key })).body.key;
      expect(rotated).to.not.equal(old);
      const test = await service.api('POST', '/api/v1/webhooks/test', { key, body: { url: receiver.url } });
      expect(test.body).to.deep.equal({ id: test.body.id, delivered: true, statusCode: 204 });
      const [delivery] = receiver.received;
      const headers = { 'webhook-id': String(delivery.headers['webhook-id']), 'webhook-timestamp': String(delivery.headers['webhook-timestamp']), 'webhook-signature': String(delivery.headers['webhook-signature']) };
      expect(String(delivery.headers['webhook-signature']).split(' ')).to.have.length(2);
      expect((new Webhook(rotated).verify(delivery.body, headers) as any).type).to.equal('webhook.test');
      expect((new Webhook(old).verify(delivery.body, headers) as any).type).to.equal('webhook.test');
    } finally {
      await receiver.close();
    }
  });

  it('never sends to private, loopback or link-local addresses that are not allow-listed', async () => {
    const { key } = await service.createKey({ credits: 100 });
    for (const url of ['http://localhost:9/x', 'http://10.0.0.5/x', 'http://169.254.169.254/latest/meta-data', 'http://[::1]:9/x']) {
      const test = await service.api('POST', '/api/v1/webhooks/test', { key, body: { url } });
      // Refused by policy or unreachable: the same answer, without the reason.
      expect(test.body, url).to.deep.equal({ id: test.body.id, delivered: false, statusCode: null });
    }
  });
});
