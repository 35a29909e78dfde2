/**
 * SSRF through the public API. An "internal service" listens on loopback (not allow-listed, the default);
 * clients point source-media fields and webhook URLs at it in several spellings. It must receive nothing;
 * requests end `failed`, refunded, with one neutral message that does not tell whether the host exists.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';
import { startOfRateWindow } from '../support/rate-window.js';

const neutral = (field: string) => `could not fetch ${field}: the URL is not reachable from this service`;

describe('outbound guard through the public API (SSRF)', function () {
  this.timeout(60_000);
  let service: TestService;
  let internal: Server;
  let internalPort: number;
  const received: string[] = [];

  before(async () => {
    internal = createServer((req, res) => {
      received.push(`${req.method} ${req.url}`);
      res.end('internal');
    });
    await new Promise<void>((resolve) => internal.listen(0, '127.0.0.1', resolve));
    internalPort = (internal.address() as AddressInfo).port;
    service = await startTestService({
      ...withFixtures,
      webhooks: { timeout_ms: 500, poll_interval_ms: 50, retry_schedule_ms: [100], rotation_grace_ms: 60_000, test_sends_per_minute: 3 },
    });
  });
  after(async () => {
    await service.stop();
    await new Promise<void>((resolve) => (internal.closeAllConnections(), internal.close(() => resolve())));
  });
  beforeEach(() => (received.length = 0));

  async function balance(key: string): Promise<number> {
    return (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining;
  }

  /** Creates the request, waits for it to finish, and checks the failure, the refund and the silent server. */
  async function expectRefusedInput(operation: string, input: Record<string, unknown>, field: string): Promise<void> {
    const { key } = await service.createKey({ credits: 1000 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect({ status: done.status, errorMessage: done.errorMessage }, operation).to.deep.equal({ status: 'failed', errorMessage: neutral(field) });
    expect(await balance(key), 'refunded in full').to.equal(1000);
    expect(received, `${operation} ${field} reached the internal server`).to.deep.equal([]);
  }

  it('refuses internal source media in every spelling, for every operation that reads a URL', async () => {
    const at = (host: string, path: string) => `http://${host}:${internalPort}${path}`;
    await expectRefusedInput('video.upscale', { video_url: at('127.0.0.1', '/clip.mp4') }, 'video_url');
    await expectRefusedInput('lipsync.generate', { video_url: at('2130706433', '/face.mp4'), audio_url: at('127.0.0.1', '/speech.wav') }, 'video_url');
    await expectRefusedInput('image.edit', { prompt: 'make it blue', image_url: at('[::ffff:7f00:1]', '/source.png') }, 'image_url');
    await expectRefusedInput('subtitles.generate', { video_url: at('0x7f.1', '/talk.mp4') }, 'video_url');
    await expectRefusedInput('smartmotion.generate', { file_url: at('localhost', '/still.png'), motion: 'forward_up' }, 'file_url');
  });

  it('refuses an internal audio_url after a hosted (own-store) video_url was read from the store', async () => {
    const { key } = await service.createKey({ credits: 1000 });
    const made = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'video.generate', input: { prompt: 'a calm sea', duration: 2 } } });
    const video = await pollUntilTerminal(service, key, made.body.id);
    expect(video.status, video.errorMessage).to.equal('succeeded');
    await expectRefusedInput('lipsync.generate', { video_url: video.output.video_url, audio_url: `http://017700000001:${internalPort}/speech.wav` }, 'audio_url');
  });

  it('never delivers a webhook to an internal address, and logs the attempts without the reason', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const webhookUrl = `http://127.0.0.1:${internalPort}/hook`;
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'to the inside' }, webhook_url: webhookUrl } });
    await pollUntilTerminal(service, key, created.body.id);
    const deadline = Date.now() + 10_000;
    let deliveries: any[] = [];
    while (deliveries[0]?.state !== 'failed') {
      if (Date.now() > deadline) throw new Error(`delivery not failed in time: ${JSON.stringify(deliveries)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      deliveries = (await service.api('GET', `/api/v1/requests/${created.body.id}/deliveries`, { key })).body.data;
    }
    expect(deliveries).to.have.length(1);
    expect(deliveries[0]).to.include({ url: webhookUrl, state: 'failed', deliveredAtMs: null });
    expect(deliveries[0].attempts.map((attempt: { statusCode: number | null; error: string }) => [attempt.statusCode, attempt.error])).to.deep.equal([
      [null, 'not reachable from this service'],
      [null, 'not reachable from this service'],
    ]);
    expect(received).to.deep.equal([]);
  });

  it('answers a test send with delivered and status only, never the network reason', async () => {
    for (const url of [`http://127.0.0.1:${internalPort}/hook`, 'http://10.0.0.5:6379/', 'http://[::1]:9/x']) {
      const test = await service.api('POST', '/api/v1/webhooks/test', { key: (await service.createKey()).key, body: { url } });
      expect(test.status, url).to.equal(200);
      expect(test.body, url).to.deep.equal({ id: test.body.id, delivered: false, statusCode: null });
      expect(test.body.id).to.match(/^msg_/);
    }
    expect(received).to.deep.equal([]);
  });

  it('rate-limits test sends per key: 429 with Retry-After past the budget', async () => {
    const { key } = await service.createKey();
    const send = () => service.api('POST', '/api/v1/webhooks/test', { key, body: { url: 'http://10.0.0.5/x' } });
    await startOfRateWindow();
    for (let index = 0; index < 3; index += 1) expect((await send()).status).to.equal(200);
    const limited = await send();
    expect(limited.status).to.equal(429);
    expect(limited.body).to.include({ status: 429, code: 'MG_RATE_LIMITED' });
    expect(Number(limited.headers.get('retry-after'))).to.be.within(1, 60);
    // Another key has its own budget.
    expect((await service.api('POST', '/api/v1/webhooks/test', { key: (await service.createKey()).key, body: { url: 'http://10.0.0.5/x' } })).status).to.equal(200);
  });

  it('answers 422 naming the field for a webhook URL the URL parser rejects, on create and on the test send', async () => {
    const { key } = await service.createKey({ credits: 100 });
    for (const url of ['http://', 'http://:80/', 'http://example.com:99999/', 'http://[fe80::1%25eth0]/']) {
      const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'x' }, webhook_url: url } });
      expect(created.status, url).to.equal(422);
      expect(created.body, url).to.include({ status: 422, code: 'MG_VALIDATION_FAILED' });
      expect(created.body.errors.map((error: { path: string }) => error.path), url).to.deep.equal(['/webhook_url']);
      const test = await service.api('POST', '/api/v1/webhooks/test', { key: (await service.createKey()).key, body: { url } });
      expect(test.status, url).to.equal(422);
      expect(test.body, url).to.include({ status: 422, code: 'MG_VALIDATION_FAILED' });
      expect(test.body.errors.map((error: { path: string }) => error.path), url).to.deep.equal(['/url']);
    }
  });
});
