/**
 * `poll_after_ms` fits whoever serves the request: the offline `local` renderer is told as its own render time
 * (`polling.providers.local` in the manifest), a vendor as the operation's polling strategy. The REST create answer,
 * the MCP create tool and the request object while it is queued or processing give the same value; a finished
 * request gives none.
 */
import { expect } from 'chai';
import type { OperationManifest } from '../../src/kernel/manifests/index.js';
import { startLoopbackVendor, type LoopbackVendor } from '../support/loopback-vendor.js';
import { rawToolCall } from '../support/mcp-tool-call.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('poll_after_ms per provider', function () {
  this.timeout(60_000);
  let service: TestService;
  let key: string;
  let vendor: LoopbackVendor;
  const manifest = (operation: string): OperationManifest => service.service.gateway.registry.get(operation)!.manifest;

  before(async () => {
    // OpenAI is configured and takes submissions without ever answering: its requests stay with it until it goes away.
    vendor = await startLoopbackVendor();
    vendor.answer(() => ({ hang: true }));
    service = await startTestService({ providers: { openai: { api_key: 'sk-test-poll-hints', base_url: vendor.url } } });
    ({ key } = await service.createKey({ credits: 10_000 }));
  });
  after(async () => {
    await vendor?.close();
    await service?.stop();
  });

  const create = (operation: string, input: Record<string, unknown>) => service.api('POST', '/api/v1/requests', { key, body: { operation, input } });

  it('a local render is told its own render time, by the create answer and the request object until it is done', async () => {
    const { polling } = manifest('video.generate');
    const localHint = polling.providers!.local!.first_after_ms!;
    expect(localHint).to.be.below(polling.first_after_ms);

    const created = await create('video.generate', { prompt: 'a paper boat', model: 'seedance-1-pro', duration: 2, resolution: '480p' });
    expect(created.status).to.equal(202);
    expect(created.body.poll_after_ms).to.equal(localHint);
    const polled = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
    expect(polled.body.status).to.be.oneOf(['queued', 'processing']);
    expect(polled.body.poll_after_ms).to.equal(localHint);
    const listed = await service.api('GET', '/api/v1/requests?limit=1', { key });
    expect(listed.body.data[0]).to.include({ id: created.body.id });

    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.status).to.equal('succeeded');
    expect(done.output.provider).to.equal('local');
    expect(done).to.not.have.property('poll_after_ms');
  });

  it('a vendor model is told the operation strategy: the REST and MCP creates and the request object agree', async () => {
    const { polling } = manifest('image.generate');
    expect(polling.providers).to.have.property('local');
    expect(polling.providers).to.not.have.property('openai');
    const input = { prompt: 'a lighthouse', model: 'gpt-image-1', aspect_ratio: '1:1' };

    const created = await create('image.generate', input);
    expect(created.status).to.equal(202);
    expect(created.body.poll_after_ms).to.equal(polling.first_after_ms);

    const preview = await rawToolCall(`${service.url}/mcp`, key, 'create_generation_request', { operation: 'image.generate', input });
    const cost = preview.body.result.structuredContent.credits as number;
    const viaMcp = await rawToolCall(`${service.url}/mcp`, key, 'create_generation_request', { operation: 'image.generate', input, confirmed: true, max_credits: cost });
    expect(viaMcp.body.result.structuredContent).to.include({ status: 'queued', poll_after_ms: polling.first_after_ms });

    // Queued, then with the vendor, which holds the submission: every answer says how long to wait.
    let polled = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
    for (const until = Date.now() + 10_000; ; ) {
      expect(polled.body.status).to.be.oneOf(['queued', 'processing']);
      expect(polled.body.poll_after_ms).to.equal(polling.first_after_ms);
      if (polled.body.output.provider === 'openai' || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
      polled = await service.api('GET', `/api/v1/requests/${created.body.id}`, { key });
    }
    const viaMcpPoll = await rawToolCall(`${service.url}/mcp`, key, 'get_generation_request', { id: viaMcp.body.result.structuredContent.id });
    expect(viaMcpPoll.body.result.structuredContent.poll_after_ms).to.equal(polling.first_after_ms);

    expect(polled.body.output).to.include({ provider: 'openai' });

    // The vendor goes away with the submissions unanswered: both fail (refunded), and a failed request has no hint.
    await vendor.close();
    const failed = await pollUntilTerminal(service, key, created.body.id);
    expect(failed.status).to.equal('failed');
    expect(failed).to.not.have.property('poll_after_ms');
    expect((await pollUntilTerminal(service, key, viaMcp.body.result.structuredContent.id)).status).to.equal('failed');
  });

  it('the same model is told the local time when only local can serve it', async () => {
    // nano-banana-pro's vendor (google) is not configured here, so local is the first (only) candidate.
    const created = await create('image.generate', { prompt: 'a lighthouse', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '1K' });
    expect(created.body.poll_after_ms).to.equal(manifest('image.generate').polling.providers!.local!.first_after_ms);
    await pollUntilTerminal(service, key, created.body.id);
  });
});
