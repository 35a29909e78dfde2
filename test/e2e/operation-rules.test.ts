/**
 * The spec's per-model rules, enforced from the manifests before any credit is spent: each illegal
 * combination is a 422 naming the field, and the account balance does not move.
 */
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

describe('per-model rules over HTTP', () => {
  let service: TestService;
  let key: string;
  before(async () => {
    service = await startTestService();
    ({ key } = await service.createKey({ credits: 100_000 }));
  });
  after(async () => service.stop());

  async function refused(operation: string, input: Record<string, unknown>, path: string, code = 'MG_VALIDATION_FAILED') {
    const before = (await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining;
    const response = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(response.status, JSON.stringify(response.body)).to.equal(422);
    expect(response.body.code).to.equal(code);
    expect(response.body.errors.map((error: { path: string }) => error.path), JSON.stringify(response.body.errors)).to.include(path);
    expect((await service.api('GET', '/api/v1/status', { key })).body.creditsRemaining).to.equal(before);
    return response.body;
  }

  async function accepted(operation: string, input: Record<string, unknown>) {
    const response = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(response.status, JSON.stringify(response.body)).to.equal(202);
    return response;
  }

  it('image model A: 1K|2K|4K, and 1:1 is capped below 4K', async () => {
    await refused('image.generate', { prompt: 'x', model: 'nano-banana-pro', resolution: '1k' }, '/input/resolution');
    const capped = await refused('image.generate', { prompt: 'x', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '4K' }, '/input/resolution');
    expect(JSON.stringify(capped.errors)).to.contain('4K');
    await accepted('image.generate', { prompt: 'x', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '2K' });
  });

  it('image model B: lower-case 1k|2k only', async () => {
    await refused('image.generate', { prompt: 'x', model: 'kling-image', resolution: '2K' }, '/input/resolution');
    await refused('image.generate', { prompt: 'x', model: 'kling-image', resolution: '4k' }, '/input/resolution');
    await accepted('image.generate', { prompt: 'x', model: 'kling-image', resolution: '2k' });
  });

  it('image.edit model A defaults to the largest legal resolution for the aspect ratio', async () => {
    const square = await accepted('image.edit', { prompt: 'x', image_url: 'https://example.com/a.png', model: 'nano-banana-pro', aspect_ratio: '1:1' });
    const wide = await accepted('image.edit', { prompt: 'x', image_url: 'https://example.com/a.png', model: 'nano-banana-pro', aspect_ratio: '16:9' });
    const stored = async (id: string) => (await service.service.gateway.requests.get(id))!.input!;
    expect((await stored(square.body.id)).resolution).to.equal('2K');
    expect((await stored(wide.body.id)).resolution).to.equal('4K');
  });

  it('video model A cannot combine frame guidance with audio_url', async () => {
    await refused('video.generate', { prompt: 'x', model: 'wan-2.6', first_frame_url: 'https://example.com/f.png', audio_url: 'https://example.com/a.mp3' }, '/input/audio_url');
    await accepted('video.generate', { prompt: 'x', model: 'wan-2.6', audio_url: 'https://example.com/a.mp3' });
  });

  it('video model B (partner2 family): durations 4/8/12/16/20', async () => {
    await refused('video.generate', { prompt: 'x', model: 'partner-2', duration: 5 }, '/input/duration');
    await refused('partner2.video.edit', { partner_video_id: 'video_abc', prompt: 'x', duration: 6 }, '/input/duration');
    await accepted('partner2.video.edit', { partner_video_id: 'video_abc', prompt: 'x', duration: 8 });
  });

  it('partner_video_id must have the shape video_<id>', async () => {
    await refused('partner2.video.edit', { partner_video_id: 'vid-123', prompt: 'x' }, '/input/partner_video_id');
    await refused('partner2.video.remix', { partner_video_id: 'abc', prompt: 'x' }, '/input/partner_video_id');
  });

  it('at most two characters per request', async () => {
    await refused('partner2.video.generate_with_characters', { prompt: 'x', characters: ['char_a', 'char_b', 'char_c'] }, '/input/characters');
    await accepted('partner2.video.generate_with_characters', { prompt: 'x', characters: ['char_a', 'char_b'] });
  });

  it('three_d.location: quality defaults to standard, expanded sizing is refused', async () => {
    const body = await refused('three_d.location.generate', { description: 'a room', quality: 'expanded' }, '/input/quality');
    expect(JSON.stringify(body.errors)).to.contain('expanded world sizing is not available');
    const ok = await accepted('three_d.location.generate', { description: 'a room' });
    expect((await service.service.gateway.requests.get(ok.body.id))!.input!.quality).to.equal('standard');
  });

  it('a disabled upscale model is refused with its reason, a legacy one is served with a Deprecation header', async () => {
    const disabled = await refused('video.upscale', { video_url: 'https://example.com/v.mp4', model: 'topaz-astra' }, '/input/model', 'MG_MODEL_DISABLED');
    expect(disabled.detail).to.contain('temporarily disabled');
    const legacy = await accepted('video.upscale', { video_url: 'https://example.com/v.mp4', model: 'video-upscaler' });
    expect(legacy.headers.get('deprecation')).to.not.equal(null);
    expect(legacy.headers.get('mediagate-deprecation-notice')).to.contain('bytedance-upscaler');
    const current = await accepted('video.upscale', { video_url: 'https://example.com/v.mp4', model: 'bytedance-upscaler' });
    expect(current.headers.get('deprecation')).to.equal(null);
  });

  it('prompt enhancement costs 1 credit and character creation 0', async () => {
    const enhance = await accepted('prompt.enhance.image', { prompt: 'x' });
    const character = await accepted('partner2.character.create', { name: 'n', source_video_url: 'https://example.com/v.mp4' });
    const credits = async (id: string) => (await service.api('GET', `/api/v1/requests/${id}`, { key })).body.billableCredits;
    expect(await credits(enhance.body.id)).to.equal(1);
    expect(await credits(character.body.id)).to.equal(0);
  });
});
