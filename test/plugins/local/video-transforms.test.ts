import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { createLocalHarness, LOCAL_TASK_ID, type LocalHarness } from './local-harness.js';
import { expectH264, rejectionOf } from './media-expectations.js';

describe('local plugin: operations on an existing video', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  describe('video.upscale', () => {
    it('doubles the size by default, keeps the audio and settles the exact cost', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.video }, { model: 'topaz-enhance' });
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-test',
        requested_model: 'topaz-enhance',
        // 2 s source at 2x: ceil(2 × 2).
        exact_cost_credits: 4,
      });
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 640, height: 480, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('scales to a target resolution and retimes to target_fps', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.silentVideo, target_resolution: '720p', target_fps: 24 });
      expectH264(await harness.probe(String(output.video_url)), { width: 1280, height: 720, duration: 1.5, fps: 24 });
      // 720 / 180 = 4x: ceil(1.5 × 4).
      expect(output.exact_cost_credits).to.equal(6);
    });

    it('honours upscale_factor 4', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.silentVideo, upscale_factor: 4 });
      expectH264(await harness.probe(String(output.video_url)), { width: 1280, height: 720, duration: 1.5 });
    });

    it('fails permanently on an undecodable source', async () => {
      const error = await rejectionOf(harness.run('video.upscale', { video_url: harness.urls.notMedia }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
      expect((error as ProviderError).message).to.match(/video_url/);
    });
  });

  describe('smartmotion.generate', () => {
    it('moves the camera over an image as camera_control asks', async () => {
      const output = await harness.run('smartmotion.generate', {
        file_url: harness.urls.image,
        content_type: 'image/png',
        duration: 3,
        control_mode: 'camera_control',
        camera_control: { pan: 5, tilt: -2, roll: 3, zoom: 4, horizontal: 0, vertical: 1 },
      });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-test',
      });
      expectH264(await harness.probe(String(output.video_url)), { width: 320, height: 240, duration: 3 });
    });

    it('applies a preset motion to a video, for 5 s by default, keeping its sound', async () => {
      const output = await harness.run('smartmotion.generate', { file_url: harness.urls.video, motion: 'zoom_out' });
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 320, height: 240, duration: 5 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('recognises an image without a content type', async () => {
      const output = await harness.run('smartmotion.generate', { file_url: harness.urls.portrait, motion: 'pan_left', duration: 2 });
      expectH264(await harness.probe(String(output.video_url)), { width: 240, height: 320, duration: 2 });
    });
  });

  describe('subtitles.generate', () => {
    it('burns styled captions into the video and keeps size, length and sound', async () => {
      const output = await harness.run('subtitles.generate', {
        video_url: harness.urls.video,
        file_name: 'team_update.mp4',
        content_type: 'video/mp4',
        duration: 2,
        subtitle_settings: { font: 'Arial Bold', fontSize: 28, color: '#FFDD00', strokeColor: '#000000', strokeWidth: 3 },
      });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-test',
      });
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 320, height: 240, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });
  });

  describe('partner2.video.edit and partner2.video.remix', () => {
    it('restyles the source clip at 720p landscape with a vendor-shaped id', async () => {
      const output = await harness.run('partner2.video.edit', {
        partner_video_id: 'video_abc123',
        prompt: 'golden hour',
        source_video_url: harness.urls.video,
      });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-test',
      });
      expect(output.task_id).to.match(/^video_[0-9a-f]{16}$/);
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 1280, height: 720, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('remixes to a portrait clip of the requested duration', async () => {
      const output = await harness.run('partner2.video.remix', {
        partner_video_id: 'video_abc123',
        prompt: 'mirror world',
        source_video_url: harness.urls.silentVideo,
        duration: 4,
        aspect_ratio: '9:16',
      });
      expectH264(await harness.probe(String(output.video_url)), { width: 720, height: 1280, duration: 4 });
    });

    it('renders a new 4 s clip when there is no source video', async () => {
      const output = await harness.run('partner2.video.edit', { partner_video_id: 'video_abc123', prompt: 'new take', resolution: '1080p' });
      expectH264(await harness.probe(String(output.video_url)), { width: 1920, height: 1080, duration: 4 });
    });
  });

  describe('partner2.video.generate_with_characters', () => {
    it('renders a clip of the requested duration and reports it', async () => {
      const output = await harness.run('partner2.video.generate_with_characters', {
        prompt: 'Two friends wave',
        partner_cameos: ['char_aaa', 'char_bbb'],
        duration: 8,
        aspect_ratio: '9:16',
        resolution: '720p',
      });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-test',
        duration: 8,
      });
      expectH264(await harness.probe(String(output.video_url)), { width: 720, height: 1280, duration: 8 });
    });

    it('defaults to 4 s', async () => {
      const output = await harness.run('partner2.video.generate_with_characters', { prompt: 'Alone' });
      expect(output.duration).to.equal(4);
      expectH264(await harness.probe(String(output.video_url)), { width: 1280, height: 720, duration: 4 });
    });
  });

  describe('partner2.character.create', () => {
    it('creates a character whose id follows the video content', async () => {
      const input = { name: 'Ada', source_video_url: harness.urls.video, source_video_name: 'ada.mp4' };
      const output = await harness.run('partner2.character.create', input);
      // The id is the SHA-256 of the whole file (hashed as it streams from disk), so ids handed out stay valid.
      const digest = createHash('sha256').update(await readFile(harness.fixtures.videoWithAudio)).digest('hex').slice(0, 16);
      expect(output).to.deep.equal({
        status: 'completed',
        character: { id: `char_${digest}`, name: 'Ada', sourceVideoUrl: harness.urls.video },
        provider: 'local',
        model: 'local-test',
      });
      expect(await harness.run('partner2.character.create', input)).to.deep.equal(output);
    });

    it('refuses a source over 100 MB', async () => {
      const { open } = await import('node:fs/promises');
      const { join } = await import('node:path');
      const { pathToFileURL } = await import('node:url');
      const path = join(harness.fixtures.dir, 'huge.mp4');
      const file = await open(path, 'w');
      await file.truncate(100 * 1024 * 1024 + 1);
      await file.close();
      const error = await rejectionOf(harness.run('partner2.character.create', { name: 'Big', source_video_url: pathToFileURL(path).href }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
    });

    it('refuses a source that is not a video', async () => {
      const error = await rejectionOf(harness.run('partner2.character.create', { name: 'Bad', source_video_url: harness.urls.notMedia }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).message).to.include('source_video_url');
    });
  });
});
