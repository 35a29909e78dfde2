import { expect } from 'chai';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import localPlugin from '../../../plugins/local/index.js';
import { createLocalHarness, HOSTED_URL, LOCAL_TASK_ID, rms, TEST_ROUTE, type LocalHarness } from './local-harness.js';
import { expectH264, rejectionOf } from './media-expectations.js';

describe('local plugin: video.generate', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  it('renders a silent 5 s 720p 16:9 clip by default', async () => {
    const output = await harness.run('video.generate', { prompt: 'A red fox runs through snow at 100% speed' });
    expect(output).to.deep.equal({
      task_id: output.task_id,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      provider: 'local',
      model: 'local-video',
      duration: 5,
      aspect_ratio: '16:9',
    });
    expect(output.task_id).to.match(LOCAL_TASK_ID);
    expect(output.video_url).to.match(HOSTED_URL);
    const probe = await harness.probe(String(output.video_url));
    expectH264(probe, { width: 1280, height: 720, duration: 5, fps: 12 });
    expect(probe.audio).to.equal(undefined);
  });

  it('follows duration, aspect ratio and resolution', async () => {
    const output = await harness.run('video.generate', { prompt: 'Vertical city', duration: 3, aspect_ratio: '9:16', resolution: '480p' });
    expect(output.duration).to.equal(3);
    expect(output.aspect_ratio).to.equal('9:16');
    expectH264(await harness.probe(String(output.video_url)), { width: 480, height: 854, duration: 3 });
  });

  it('animates a first frame into a last frame', async () => {
    const output = await harness.run('video.generate', {
      prompt: 'From landscape to portrait',
      duration: 2,
      resolution: '480p',
      first_frame_url: harness.urls.image,
      last_frame_url: harness.urls.portrait,
    });
    expectH264(await harness.probe(String(output.video_url)), { width: 854, height: 480, duration: 2 });
  });

  it('reframes a reference clip', async () => {
    const output = await harness.run('video.generate', { prompt: 'Like this clip', duration: 3, resolution: '480p', source_video_url: harness.urls.video });
    expectH264(await harness.probe(String(output.video_url)), { width: 854, height: 480, duration: 3 });
  });

  it('muxes audio_url, padded with silence to the clip length', async () => {
    const output = await harness.run('video.generate', { prompt: 'With sound', duration: 3, resolution: '480p', audio_url: harness.urls.tone });
    const probe = await harness.probe(String(output.video_url));
    expectH264(probe, { width: 854, height: 480, duration: 3 });
    expect(probe.audio?.codec).to.equal('aac');
    expect(rms(await harness.decodeAudio(String(output.video_url)))).to.be.greaterThan(0.01);
  });

  it('rejects an image_url that is not an image, permanently', async () => {
    const error = await rejectionOf(harness.run('video.generate', { prompt: 'x', image_url: harness.urls.notMedia }));
    expect(error).to.be.instanceOf(ProviderError);
    expect((error as ProviderError).retryable).to.equal(false);
  });

  it('uses the configured frame rate', async () => {
    const slow = await createLocalHarness({ videoFps: 6 });
    try {
      const output = await slow.run('video.generate', { prompt: 'Slow', duration: 2, resolution: '480p' });
      expectH264(await slow.probe(String(output.video_url)), { width: 854, height: 480, duration: 2, fps: 6 });
    } finally {
      await slow.cleanup();
    }
  });

  it('kills the render and fails retryably when the kernel aborts the call', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const call = localPlugin.operations['video.generate'].start(
      { prompt: 'Very long', duration: 300, resolution: '1080p' },
      { ...harness.ctx, signal: controller.signal },
      TEST_ROUTE,
    );
    setTimeout(() => controller.abort(), 500);
    const error = await rejectionOf(call);
    expect(error).to.be.instanceOf(ProviderError);
    expect((error as ProviderError).retryable).to.equal(true);
    expect(Date.now() - started).to.be.lessThan(10_000);
  });
});
