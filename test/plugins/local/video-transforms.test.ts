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
    it('doubles the size by default, keeps the audio and reports the length it upscaled', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.video }, { model: 'topaz-enhance' });
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: 'local-upscale',
        requested_model: 'topaz-enhance',
        // The 2 s source, measured: the manifest prices it, not the plugin.
        usage: { output_seconds: 2 },
      });
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 640, height: 480, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('scales to a target resolution and retimes to target_fps', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.silentVideo, target_resolution: '720p', target_fps: 24 });
      expectH264(await harness.probe(String(output.video_url)), { width: 1280, height: 720, duration: 1.5, fps: 24 });
      expect(output.usage).to.deep.equal({ output_seconds: 1.5 });
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
        model: 'local-video',
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
});
