import { expect } from 'chai';
import nock from 'nock';
import { expectVideoOutput } from '../../support/vendor-conformance.js';
import { failure, klingApi, REQUEST_ID, submitted, taskAnswer, useKlingHarness } from './kling-test-kit.js';

const OPERATION = 'video.generate';
const TASK_ID = '866237716442431570';
const VIDEO_HOST = 'https://v1-kling.klingai.com';
const VIDEO_PATH = '/bs2/upload-kling-api/7427311436/text2video/CjikY2dSwWcAAAAAAVZrDw-0_raw_video_1.mp4';
const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42 kling video.generate clip');
const FIRST = 'https://example.com/inputs/first.png';
const LAST = 'https://example.com/inputs/last.png';

/** Kling's succeeded query answer for a video task (https://app.klingai.com/global/dev/document-api/apiReference/model/textToVideo). */
function succeeded(duration?: string): Record<string, unknown> {
  return taskAnswer(TASK_ID, 'succeed', { task_result: { videos: [{ id: 'f3b8c7a2-9d4e', url: `${VIDEO_HOST}${VIDEO_PATH}`, ...(duration ? { duration } : {}) }] } });
}

describe('kling plugin: video.generate (kling-2.5-turbo, kling-2.6)', () => {
  const harness = useKlingHarness();

  describe('text-to-video', () => {
    it('sends the route model, Kling\'s string duration, the shape and pro mode for 1080p, and nothing Kling has no control for', async () => {
      const api = klingApi()
        .post('/v1/videos/text2video', {
          model_name: 'kling-v2-6',
          prompt: 'a paper boat drifting down a rain gutter, close-up',
          negative_prompt: 'people, text',
          duration: '10',
          mode: 'pro',
          aspect_ratio: '9:16',
          external_task_id: REQUEST_ID,
        })
        .reply(200, submitted(TASK_ID));

      const result = await harness().start(
        OPERATION,
        {
          prompt: 'a paper boat drifting down a rain gutter, close-up',
          model: 'kling-2.6',
          negative_prompt: 'people, text',
          duration: 10,
          resolution: '1080p',
          aspect_ratio: '9:16',
          seed: 7,
          watermark: false,
          prompt_extend: true,
          nsfw_checker: true,
        },
        'kling-2.6',
      );

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'v1/videos/text2video', duration: 10, aspect_ratio: '9:16' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('sends std mode for 720p, and Kling\'s default shape (16:9) and length (5 s) when none is asked', async () => {
      const api = klingApi()
        .post('/v1/videos/text2video', { model_name: 'kling-v2-5-turbo', prompt: 'clouds over a ridge', duration: '5', mode: 'std', aspect_ratio: '16:9', external_task_id: REQUEST_ID })
        .reply(200, submitted(TASK_ID));

      const result = await harness().start(OPERATION, { prompt: 'clouds over a ridge', model: 'kling-2.5-turbo', resolution: '720p' }, 'kling-2.5-turbo');

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'v1/videos/text2video', duration: 5, aspect_ratio: '16:9' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('stays pending through a long render (no progress: Kling reports none), then hosts the clip with the length Kling reports', async () => {
      const api = klingApi();
      const statuses = ['submitted', 'submitted', 'processing', 'processing', 'processing', 'processing', 'processing', 'processing', 'processing', 'processing'];
      for (const status of statuses) api.get(`/v1/videos/text2video/${TASK_ID}`).reply(200, taskAnswer(TASK_ID, status));
      api.get(`/v1/videos/text2video/${TASK_ID}`).reply(200, succeeded('10.0'));
      const cdn = nock(VIDEO_HOST).get(VIDEO_PATH).reply(200, MP4, { 'content-type': 'application/octet-stream' });
      const handle = { taskId: TASK_ID, state: { path: 'v1/videos/text2video', duration: 10, aspect_ratio: '9:16' } };

      const pending = [];
      for (let poll = 0; poll < statuses.length; poll += 1) pending.push(await harness().status(OPERATION, handle, 'kling-2.6'));
      const result = await harness().status(OPERATION, handle, 'kling-2.6');

      expect(pending).to.deep.equal(statuses.map(() => ({ pending: {} })));
      await expectVideoOutput(harness(), OPERATION, result, { taskId: TASK_ID, provider: 'kling', model: 'kling-2.6', fields: { duration: 10, aspect_ratio: '9:16' } }, MP4);
      expect(api.isDone() && cdn.isDone()).to.equal(true);
    });

    it('reports a failed render with Kling\'s reason', async () => {
      klingApi().get(`/v1/videos/text2video/${TASK_ID}`).reply(200, taskAnswer(TASK_ID, 'failed', { task_status_msg: 'Failure to pass the risk control system' }));

      const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { path: 'v1/videos/text2video' } }, 'kling-2.6');

      expect(result).to.deep.equal({ failed: 'kling: Failure to pass the risk control system' });
    });

    it('refuses reference images permanently, without calling Kling', async () => {
      const api = klingApi().post('/v1/videos/text2video').reply(200, submitted(TASK_ID));

      const error = await failure(harness().start(OPERATION, { prompt: 'a cat', model: 'kling-2.6', reference_image_urls: [FIRST] }, 'kling-2.6'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('kling: kling-2.6 takes no reference images (reference_image_urls); send a first frame (image_url) instead');
      expect(api.isDone()).to.equal(false);
    });
  });

  describe('image-to-video', () => {
    it('sends image_url as the image and end_image_url as image_tail, and no shape (the clip keeps the image\'s)', async () => {
      const api = klingApi()
        .post('/v1/videos/image2video', { model_name: 'kling-v2-5-turbo', image: FIRST, image_tail: LAST, prompt: 'the door swings open', duration: '5', mode: 'pro', external_task_id: REQUEST_ID })
        .reply(200, submitted(TASK_ID));

      const result = await harness().start(
        OPERATION,
        { prompt: 'the door swings open', model: 'kling-2.5-turbo', image_url: FIRST, end_image_url: LAST, duration: 5, resolution: '1080p', aspect_ratio: '1:1' },
        'kling-2.5-turbo',
      );

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'v1/videos/image2video', duration: 5, aspect_ratio: '1:1' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('takes the other spellings too: first_frame_url and last_frame_url', async () => {
      const api = klingApi()
        .post('/v1/videos/image2video', { model_name: 'kling-v2-6', image: FIRST, image_tail: LAST, prompt: 'dawn breaks', duration: '10', mode: 'std', external_task_id: REQUEST_ID })
        .reply(200, submitted(TASK_ID));

      await harness().start(OPERATION, { prompt: 'dawn breaks', model: 'kling-2.6', first_frame_url: FIRST, last_frame_url: LAST, duration: 10, resolution: '720p' }, 'kling-2.6');

      expect(api.isDone()).to.equal(true);
    });

    it('polls the image2video task and hosts its clip, stating the asked length when Kling gives none', async () => {
      const api = klingApi()
        .get(`/v1/videos/image2video/${TASK_ID}`)
        .reply(200, taskAnswer(TASK_ID, 'processing'))
        .get(`/v1/videos/image2video/${TASK_ID}`)
        .reply(200, succeeded());
      const cdn = nock(VIDEO_HOST).get(VIDEO_PATH).reply(200, MP4, { 'content-type': 'video/mp4' });
      const handle = { taskId: TASK_ID, state: { path: 'v1/videos/image2video', duration: 5, aspect_ratio: '16:9' } };

      expect(await harness().status(OPERATION, handle, 'kling-2.5-turbo')).to.deep.equal({ pending: {} });
      const result = await harness().status(OPERATION, handle, 'kling-2.5-turbo');

      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      expect(result.done).to.deep.include({ task_id: TASK_ID, provider: 'kling', model: 'kling-2.5-turbo', duration: 5, aspect_ratio: '16:9' });
      expect(harness().checkOutput(OPERATION, result.done)).to.deep.equal([]);
      expect(await harness().hostedBytes(result.done.video_url as string)).to.deep.equal(MP4);
      expect(api.isDone() && cdn.isDone()).to.equal(true);
    });
  });
});
