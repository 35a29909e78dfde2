/**
 * Every one of the 18 operations end to end over real HTTP on the embedded default: submit, poll to
 * `succeeded`, download every URL of the output and decode it with the expected format, dimensions and
 * duration. Inputs that need media use files the gateway itself produced and hosts (lip sync requires
 * hosted URLs), so the suite runs offline.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { download, probeImage, probeMedia, readGlb, readSpzHeader } from '../support/media-probe.js';
import { GUESSED_OPERATIONS } from '../support/operation-catalogue.js';

describe('all 18 operations, end to end (local provider)', function () {
  this.timeout(120_000);
  let service: TestService;
  let key: string;
  const hosted: { image?: string; video?: string; audio?: string } = {};
  const covered = new Set<string>();

  before(async () => {
    service = await startTestService({ worker: { concurrency: 2 } });
    ({ key } = await service.createKey({ credits: 1_000_000 }));
  });
  after(async () => {
    await service.stop();
  });

  async function run(operation: string, input: Record<string, unknown>): Promise<{ output: any; billableCredits: number; headers: Headers }> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    expect(created.body.poll_after_ms).to.be.a('number');
    const done = await pollUntilTerminal(service, key, created.body.id, 110_000);
    expect(done.status, done.errorMessage).to.equal('succeeded');
    expect(done.errorMessage).to.equal(null);
    covered.add(operation);
    return { output: done.output, billableCredits: done.billableCredits, headers: created.headers };
  }

  async function expectHostedUrl(url: unknown): Promise<Buffer> {
    expect(url).to.be.a('string');
    expect(url as string).to.match(new RegExp(`^${service.url}/files/req_`));
    const file = await download(url as string);
    expect(file.contentLength).to.equal(file.bytes.length);
    return file.bytes;
  }

  async function expectVideo(url: unknown, expected: { seconds?: number; width?: number; height?: number; audio?: boolean }) {
    const info = await probeMedia(await expectHostedUrl(url));
    expect(info.formatName).to.contain('mp4');
    expect(info.video?.codec).to.equal('h264');
    if (expected.seconds !== undefined) expect(info.durationSeconds).to.be.closeTo(expected.seconds, 0.5);
    if (expected.width !== undefined) expect(info.video!.width).to.equal(expected.width);
    if (expected.height !== undefined) expect(info.video!.height).to.equal(expected.height);
    if (expected.audio) expect(info.audio, 'an audio track').to.not.equal(undefined);
    return info;
  }

  async function expectAudio(url: unknown, seconds?: number) {
    const info = await probeMedia(await expectHostedUrl(url));
    expect(info.audio, 'an audio stream').to.not.equal(undefined);
    expect(info.video).to.equal(undefined);
    if (seconds !== undefined) expect(info.durationSeconds).to.be.closeTo(seconds, 0.5);
    return info;
  }

  async function expectPng(url: unknown, width?: number, height?: number) {
    const image = await probeImage(await expectHostedUrl(url));
    expect(image.format).to.equal('png');
    if (width !== undefined) expect(image.width).to.equal(width);
    if (height !== undefined) expect(image.height).to.equal(height);
    return image;
  }

  it('prompt.enhance.image and prompt.enhance.video rewrite the prompt in its own language for 1 credit', async () => {
    const image = await run('prompt.enhance.image', { prompt: 'a lighthouse on a cliff', visualStyle: 'oil painting', aspectRatio: '3:2' });
    expect(image.billableCredits).to.equal(1);
    // output.provider is the kernel's word on who served the request, even where the plugin's output has none.
    expect(image.output).to.include({ status: 'succeeded', operation: 'prompt.enhance.image', provider: 'local', model: 'local-prompt-template' });
    expect(image.output.enhancedPrompt).to.be.a('string').and.contain('lighthouse');
    expect(image.output).to.not.have.property('task_id');
    const video = await run('prompt.enhance.video', { prompt: 'un renard qui court dans la neige', duration: 4, aspectRatio: '16:9' });
    expect(video.billableCredits).to.equal(1);
    expect(video.output.enhancedPrompt).to.contain('renard');
    expect(video.output.enhancedPrompt).to.not.equal('un renard qui court dans la neige');
    const again = await run('prompt.enhance.video', { prompt: 'un renard qui court dans la neige', duration: 4, aspectRatio: '16:9' });
    expect(again.output.enhancedPrompt, 'deterministic').to.equal(video.output.enhancedPrompt);
  });

  it('image.generate makes a PNG at the size of aspect_ratio x resolution', async () => {
    const { output } = await run('image.generate', { prompt: 'a red bicycle', model: 'nano-banana-pro', aspect_ratio: '16:9', resolution: '1K' });
    expect(output).to.include({ asset_type: 'image', status: 'succeeded', provider: 'local', model: 'local-image', aspect_ratio: '16:9', provider_image_count: 1 });
    expect(output.task_id).to.be.a('string');
    expect(output.image_urls).to.deep.equal([output.image_url]);
    expect(output.provider_image_urls).to.have.length(1);
    await expectPng(output.image_url, 1024, 576);
    hosted.image = output.image_url;
    const kling = await run('image.generate', { prompt: 'a blue kite', model: 'kling-image', aspect_ratio: '1:1', resolution: '1k' });
    await expectPng(kling.output.image_url, 1024, 1024);
  });

  it('image.edit edits a hosted image (model A defaults to the largest legal resolution)', async () => {
    const { output } = await run('image.edit', { prompt: 'make it a watercolour', image_url: hosted.image, model: 'nano-banana', aspect_ratio: '1:1', resolution: '1K' });
    expect(output).to.include({ asset_type: 'image', status: 'succeeded', provider: 'local', model: 'local-image' });
    await expectPng(output.image_url, 1024, 1024);
  });

  it('video.generate makes an H.264 MP4 of the requested duration and aspect ratio', async () => {
    const { output } = await run('video.generate', { prompt: 'a paper boat in the rain', model: 'seedance-1-pro', duration: 2, aspect_ratio: '16:9', resolution: '480p' });
    expect(output).to.include({ asset_type: 'video', status: 'succeeded', provider: 'local', model: 'local-video', duration: 2, aspect_ratio: '16:9' });
    await expectVideo(output.video_url, { seconds: 2, width: 854, height: 480 });
    hosted.video = output.video_url;
    const portrait = await run('video.generate', { prompt: 'a city at night', model: 'partner-2', duration: 4, aspect_ratio: '9:16', resolution: '720p' });
    await expectVideo(portrait.output.video_url, { seconds: 4, width: 720, height: 1280 });
  });

  it('narration.generate speaks the text into hosted audio', async () => {
    const { output } = await run('narration.generate', { text: 'Welcome to the demo.', include_timestamps: true });
    expect(output).to.include({ asset_type: 'audio', status: 'succeeded', provider: 'local', model: 'local-speech' });
    expect(output).to.not.have.property('task_id');
    const info = await expectAudio(output.audio_url);
    expect(info.durationSeconds).to.be.within(0.5, 10);
    hosted.audio = output.audio_url;
  });

  it('music.generate makes a track of the requested length', async () => {
    const { output } = await run('music.generate', { prompt: 'upbeat synthwave', provider: 'elevenlabs', generation_mode: 'loop', duration_seconds: 3 });
    expect(output).to.include({ asset_type: 'audio', status: 'succeeded', provider: 'local', model: 'local-music', requested_provider: 'elevenlabs' });
    expect(output.title).to.be.a('string');
    await expectAudio(output.audio_url, 3);
  });

  it('soundfx.generate makes a one-off effect, and with video_url a context-aware effect plus preview video', async () => {
    const oneOff = await run('soundfx.generate', { prompt: 'a door creaking', duration_seconds: 2, loop: true });
    expect(oneOff.output).to.include({ asset_type: 'audio', status: 'succeeded', mode: 'one_off' });
    await expectAudio(oneOff.output.audio_url, 2);
    const withVideo = await run('soundfx.generate', { prompt: 'rain on paper', video_url: hosted.video });
    expect(withVideo.output.mode).to.equal('video_context');
    await expectAudio(withVideo.output.audio_url, 2);
    await expectVideo(withVideo.output.sfx_video_url, { seconds: 2, audio: true });
  });

  it('video.upscale scales a hosted video and reports the exact cost', async () => {
    const { output, billableCredits } = await run('video.upscale', { video_url: hosted.video, duration_seconds: 2, model: 'bytedance-upscaler', target_resolution: '1080p' });
    expect(output).to.include({ asset_type: 'video', status: 'succeeded', provider: 'local', model: 'local-upscale', requested_model: 'bytedance-upscaler' });
    expect(output.exact_cost_credits).to.be.a('number');
    expect(billableCredits).to.equal(output.exact_cost_credits);
    await expectVideo(output.video_url, { seconds: 2, height: 1080 });
  });

  it('lipsync.generate puts hosted audio onto a hosted video', async () => {
    const { output } = await run('lipsync.generate', { video_url: hosted.video, audio_url: hosted.audio, video_duration: 2, audio_duration: 2 });
    expect(output).to.include({ asset_type: 'video', status: 'succeeded', provider: 'local' });
    expect(output.exact_cost_credits).to.be.a('number');
    await expectVideo(output.video_url, { audio: true });
    await expectAudio(output.audio_url);
  });

  it('subtitles.generate burns styled subtitles into the video', async () => {
    const { output } = await run('subtitles.generate', {
      video_url: hosted.video,
      duration: 2,
      file_name: 'boat.mp4',
      content_type: 'video/mp4',
      subtitle_settings: { font: 'DejaVu Sans', fontSize: 28, color: '#FFFF00', strokeColor: '#000000', strokeWidth: 2 },
    });
    expect(output).to.include({ asset_type: 'video', status: 'succeeded' });
    expect(output.model).to.be.a('string');
    await expectVideo(output.video_url, { seconds: 2, width: 854, height: 480 });
  });

  it('smartmotion.generate moves a camera over a hosted image', async () => {
    const { output } = await run('smartmotion.generate', {
      file_url: hosted.image,
      file_name: 'bicycle.png',
      content_type: 'image/png',
      duration: 2,
      control_mode: 'camera_control',
      camera_control: { pan: 2, tilt: 0, roll: 0, zoom: 5, horizontal: 0, vertical: 0 },
    });
    expect(output).to.include({ asset_type: 'video', status: 'succeeded', provider: 'local' });
    await expectVideo(output.video_url, { seconds: 2 });
  });

  it('three_d.model.generate makes a valid GLB and a preview', async () => {
    const { output } = await run('three_d.model.generate', { source_image_urls: [hosted.image], asset_kind: 'object', name: 'Bicycle' });
    expect(output).to.include({ asset_type: '3d_model', status: 'succeeded', provider: 'local', asset_kind: 'object' });
    const glb = await readGlb(await expectHostedUrl(output.model_url));
    expect(glb.meshes).to.be.at.least(1);
    expect(output.preview_image_urls).to.have.length.at.least(1);
    await expectPng(output.preview_image_urls[0]);
    for (const url of output.raw_artifact_urls) await expectHostedUrl(url);
  });

  it('three_d.location.generate makes a panorama, a splat, an SPZ and a collider GLB', async () => {
    const { output, billableCredits } = await run('three_d.location.generate', { name: 'Reading room', description: 'a quiet library reading room' });
    expect(output).to.include({ asset_type: '3d_location', status: 'succeeded', provider: 'local' });
    expect(billableCredits).to.be.greaterThan(0);
    const pano = await expectPng(output.pano_url);
    expect(pano.width).to.equal(pano.height * 2);
    const splat = await expectHostedUrl(output.splat_url);
    expect(splat.length % 32).to.equal(0);
    expect(splat.length).to.be.greaterThan(0);
    expect(readSpzHeader(await expectHostedUrl(output.spz_url)).points).to.be.greaterThan(0);
    expect((await readGlb(await expectHostedUrl(output.collider_glb_url))).meshes).to.be.at.least(1);
    for (const url of output.preview_image_urls) await expectPng(url);
  });

  it('the partner2 family: character, generate with characters, edit, remix', async () => {
    const character = await run('partner2.character.create', { name: 'Boat', source_video_url: hosted.video, source_video_name: 'boat.mp4' });
    expect(character.billableCredits).to.equal(0);
    expect(character.output.status).to.equal('completed');
    expect(character.output.character).to.include({ name: 'Boat', sourceVideoUrl: hosted.video });
    expect(character.output.character.id).to.match(/^char_/);

    const withCharacters = await run('partner2.video.generate_with_characters', { prompt: 'the boat sails away', characters: [character.output.character.id], duration: 4, aspect_ratio: '16:9' });
    expect(withCharacters.output).to.include({ asset_type: 'video', status: 'succeeded', duration: 4 });
    await expectVideo(withCharacters.output.video_url, { seconds: 4 });

    const edit = await run('partner2.video.edit', { partner_video_id: 'video_abc123', prompt: 'make it night', duration: 4, source_video_url: hosted.video });
    expect(edit.output.task_id).to.match(/^video_/);
    await expectVideo(edit.output.video_url, {});

    // The local provider's record of that id is in its state folder under the gateway's data folder, so the id keeps
    // working as long as the data does (not in an OS temporary folder a reboot may empty).
    const record = JSON.parse(await readFile(join(service.dataDir, 'plugins', 'local', 'videos', `${edit.output.task_id}.json`), 'utf8'));
    expect(record.url).to.equal(edit.output.video_url);

    // The edit's own id names a video the local provider made: remix reads that one back.
    const remix = await run('partner2.video.remix', { partner_video_id: edit.output.task_id, prompt: 'make it snow', duration: 4 });
    expect(remix.headers.get('deprecation')).to.not.equal(null);
    expect(remix.output.task_id).to.match(/^video_/);
    await expectVideo(remix.output.video_url, { seconds: 4 });
  });

  it('covered all 18 operations (the 3 the spec only names: guessed-operations.test.ts)', () => {
    expect([...covered].sort()).to.deep.equal(service.service.gateway.registry.names().filter((name) => !GUESSED_OPERATIONS.includes(name)));
  });
});
