/**
 * A client cancels a request while the local plugin renders it: the render is stopped (its ffmpeg process or
 * synthesis thread ends), the request fails with the cancel's message and is refunded in full, and all of it
 * happens while the cancel call is answered, not after the render would have finished. While it renders, the
 * request's output says the local plugin serves it and claims no vendor model.
 *
 * A start that is sending a vendor submission is not stopped: the vendor may be taking the job, and the start
 * is left to end (here the submission times out, and the request fails as an unconfirmed one).
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { childProcessesNamed } from '../support/child-processes.js';
import { eventually } from '../support/eventually.js';
import { withFixtures } from '../support/fixtures.js';
import { startLoopbackVendor, type LoopbackVendor } from '../support/loopback-vendor.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

/** ffmpeg processes this test process started (the service runs in it). */
const ffmpegChildren = () => childProcessesNamed('ffmpeg');

describe('cancel during a local render', () => {
  let service: TestService;
  before(async () => {
    // 60 fps makes a 20-second 1080p clip a render of many seconds on any machine: there is time to cancel it.
    service = await startTestService({ providers: { local: { videoFps: 60 } } });
  });
  after(async () => service.stop());

  async function startRender(key: string, body: object) {
    const created = await service.api('POST', '/api/v1/requests', { key, body });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const id: string = created.body.id;
    const processing = await eventually('the local plugin to start', async () => {
      const seen = await service.api('GET', `/api/v1/requests/${id}`, { key });
      return seen.body.status === 'processing' && seen.body.output.provider === 'local' ? seen.body : undefined;
    });
    return { id, processing };
  }

  async function cancel(key: string, id: string) {
    const started = performance.now();
    const answer = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });
    return { answer, elapsedMs: performance.now() - started };
  }

  it('stops a video render: its ffmpeg is killed, the request is failed and refunded while the cancel is answered', async () => {
    const { key } = await service.createKey({ credits: 100_000 });
    const before = (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining;
    const { id, processing } = await startRender(key, {
      operation: 'video.generate',
      input: { model: 'partner-2-pro', prompt: 'a paper boat drifting down a rain gutter', duration: 20, resolution: '1080p', aspect_ratio: '16:9' },
    });
    // The local plugin does not make partner-2-pro: no model is claimed until it names its own renderer.
    expect(processing.output).to.deep.equal({ task_id: id, status: 'processing', provider: 'local' });
    const charged: number = processing.billableCredits;
    expect(charged).to.be.greaterThan(0);
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(before - charged);
    await eventually('ffmpeg to render', async () => ((await ffmpegChildren()).length > 0 ? true : undefined));

    const { answer, elapsedMs } = await cancel(key, id);

    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(elapsedMs, 'the cancel waits for the stopped render, not for a finished one').to.be.lessThan(5_000);
    expect(answer.body).to.deep.include({ id, status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect(answer.body.output).to.deep.equal({ task_id: id, status: 'failed', provider: 'local' });
    expect(answer.body.credits).to.deep.include({ charged, refunded: charged, net: 0 });
    expect(answer.body.credits.entries.map((entry: { kind: string; amount: number }) => [entry.kind, entry.amount])).to.deep.equal([
      ['debit', -charged],
      ['refund', charged],
    ]);
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(before);
    // SIGKILLed when the cancel came; the process table may take a moment to forget it.
    await eventually('no ffmpeg left running', async () => ((await ffmpegChildren()).length === 0 ? true : undefined), 2_000);
    const later = await service.api('GET', `/api/v1/requests/${id}`, { key });
    expect(later.body).to.deep.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
  });

  it('stops a music render in its synthesis thread the same way', async () => {
    const { key } = await service.createKey({ credits: 100_000 });
    const before = (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining;
    const { id, processing } = await startRender(key, {
      operation: 'music.generate',
      input: { prompt: 'a long slow ambient piece for a night drive', provider: 'elevenlabs', duration_seconds: 600 },
    });
    const charged: number = processing.billableCredits;

    const { answer, elapsedMs } = await cancel(key, id);

    expect(answer.status, JSON.stringify(answer.body)).to.equal(200);
    expect(elapsedMs).to.be.lessThan(5_000);
    expect(answer.body).to.deep.include({ id, status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect(answer.body.credits).to.deep.include({ charged, refunded: charged, net: 0 });
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(before);
    const again = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });
    expect(again.status).to.equal(409);
    expect(again.body.code).to.equal('MG_REQUEST_ALREADY_FINISHED');
  });
});

describe('cancel during a vendor submission', () => {
  const fixtures = fileURLToPath(new URL('../fixtures/at-most-once', import.meta.url));
  let vendor: LoopbackVendor;
  let service: TestService;
  before(async () => {
    vendor = await startLoopbackVendor();
    service = await startTestService({
      manifest_dirs: [`${fixtures}/manifests`, ...withFixtures.manifest_dirs],
      plugin_dirs: [`${fixtures}/plugins`, ...withFixtures.plugin_dirs],
      providers: { 'plain-vendor': { base_url: `${vendor.url}/plain`, timeout_ms: 1_500 } },
    });
  });
  after(async () => {
    await service.stop();
    await vendor.close();
  });

  it('leaves a start that is submitting to a vendor to end, and answers with how it ended', async () => {
    vendor.answer(() => ({ hang: true }));
    const { key } = await service.createKey({ credits: 100 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.submit', input: { message: 'hello', model: 'plain-1' } } });
    const id: string = created.body.id;
    await eventually('the submission to reach the vendor', async () => (vendor.calls('POST', '/plain/jobs').length === 1 ? true : undefined));

    const cancelled = await service.api('POST', `/api/v1/requests/${id}/cancel`, { key });

    // Not stopped mid-POST: the start ran to its own end (the vendor never answered) while the cancel waited.
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(409);
    expect(cancelled.body.code).to.equal('MG_REQUEST_ALREADY_FINISHED');
    const done = await pollUntilTerminal(service, key, id);
    expect(done.status).to.equal('failed');
    expect(done.errorMessage).to.match(/^plain-vendor did not confirm the submission/);
    expect(done.credits).to.deep.include({ charged: 5, refunded: 5, net: 0 });
    expect(vendor.calls('POST', '/plain/jobs')).to.have.length(1);
  });
});
