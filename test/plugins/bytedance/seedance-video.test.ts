/**
 * video.generate with Seedance 1.0 Pro: the create body for each kind of run (render settings as body fields,
 * frames as `image_url` items with roles), the runs refused before anything is sent, the task as it is polled
 * (queued, running, succeeded, failed, cancelled, expired) and cancelling it.
 */
import { expect } from 'chai';
import nock from 'nock';
import bytedancePlugin, { type ArkConfig } from '../../../plugins/bytedance/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createFakePluginContext, type FakePluginContext } from '../../support/fake-plugin-context.js';
import { expectRefusedBeforeSending, expectVideoOutput } from '../../support/vendor-conformance.js';
import { arkApi, CONFIG, created, failure, MP4, succeeded, TASK_ID, TASK_PATH, TASKS_PATH, taskAnswer, tosFile, useBytedanceHarness } from './bytedance-test-kit.js';

const OPERATION = 'video.generate';
const MODEL = 'seedance-1-pro';
const VENDOR_MODEL = 'seedance-1-0-pro-250528';
const FIRST = 'https://example.com/inputs/first.png';
const LAST = 'https://example.com/inputs/last.png';

describe('bytedance plugin: Seedance 1.0 Pro video.generate', () => {
  const harness = useBytedanceHarness();

  /** Submits `input` and expects exactly `body`, and the state the output will need. */
  async function expectCreate(input: JsonObject, body: JsonObject, state: JsonObject): Promise<void> {
    const api = arkApi().post(TASKS_PATH, body).matchHeader('content-type', 'application/json').reply(200, created());

    const result = await harness().start(OPERATION, { model: MODEL, ...input }, MODEL);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state } });
    expect(api.isDone()).to.equal(true);
  }

  describe('create', () => {
    it('prompt-only: settings as body fields; negative prompt, prompt extension and the NSFW switch are not sent (Seedance has none)', async () => {
      await expectCreate(
        {
          prompt: 'a paper boat drifting down a rain gutter, close-up',
          duration: 8,
          resolution: '720p',
          aspect_ratio: '9:16',
          seed: 42,
          watermark: true,
          negative_prompt: 'blurry',
          prompt_extend: true,
          nsfw_checker: true,
        },
        {
          model: VENDOR_MODEL,
          content: [{ type: 'text', text: 'a paper boat drifting down a rain gutter, close-up' }],
          resolution: '720p',
          ratio: '9:16',
          duration: 8,
          seed: 42,
          watermark: true,
        },
        { duration: 8, aspect_ratio: '9:16' },
      );
    });

    it('prompt-only with the manifest\'s defaults: 16:9 stated, no watermark unless asked', async () => {
      await expectCreate(
        { prompt: 'timelapse of clouds over a mountain ridge', duration: 5, resolution: '1080p' },
        { model: VENDOR_MODEL, content: [{ type: 'text', text: 'timelapse of clouds over a mountain ridge' }], resolution: '1080p', ratio: '16:9', duration: 5, watermark: false },
        { duration: 5, aspect_ratio: '16:9' },
      );
    });

    it('first frame: an image_url item with role first_frame; without an asked shape the clip follows the frame (adaptive)', async () => {
      await expectCreate(
        { prompt: 'the turtle swims up', image_url: FIRST, duration: 5, resolution: '1080p' },
        {
          model: VENDOR_MODEL,
          content: [{ type: 'text', text: 'the turtle swims up' }, { type: 'image_url', image_url: { url: FIRST }, role: 'first_frame' }],
          resolution: '1080p',
          ratio: 'adaptive',
          duration: 5,
          watermark: false,
        },
        { duration: 5, aspect_ratio: 'adaptive' },
      );
    });

    it('first and last frame (first_frame_url / end_image_url spellings), at an asked shape', async () => {
      await expectCreate(
        { prompt: 'a kitten looks up at the sky', first_frame_url: FIRST, end_image_url: LAST, aspect_ratio: '1:1', duration: 10, resolution: '480p' },
        {
          model: VENDOR_MODEL,
          content: [
            { type: 'text', text: 'a kitten looks up at the sky' },
            { type: 'image_url', image_url: { url: FIRST }, role: 'first_frame' },
            { type: 'image_url', image_url: { url: LAST }, role: 'last_frame' },
          ],
          resolution: '480p',
          ratio: '1:1',
          duration: 10,
          watermark: false,
        },
        { duration: 10, aspect_ratio: '1:1' },
      );
    });

    const refused: { name: string; input: JsonObject; message: string }[] = [
      {
        name: 'reference images (Seedance 1.0 Pro takes none)',
        input: { prompt: 'p', reference_image_urls: ['https://example.com/inputs/cat.png'] },
        message: 'bytedance: seedance-1-pro cannot take reference_image_urls: it renders from a prompt, a first frame, or a first and a last frame',
      },
      {
        name: 'reference audio and a clip, named together',
        input: { prompt: 'p', image_url: FIRST, audio_url: 'https://example.com/inputs/voice.mp3', first_clip_url: 'https://example.com/inputs/clip.mp4' },
        message: 'bytedance: seedance-1-pro cannot take first_clip_url, audio_url: it renders from a prompt, a first frame, or a first and a last frame',
      },
      {
        name: 'a last frame without a first one',
        input: { prompt: 'p', last_frame_url: LAST },
        message: 'bytedance: seedance-1-pro needs a first frame (image_url or first_frame_url) to end on a last frame',
      },
    ];
    for (const { name, input, message } of refused) {
      it(`refuses ${name} before anything is sent (permanent)`, async () => {
        const anyCreate = arkApi().post(TASKS_PATH).reply(200, created());

        await expectRefusedBeforeSending(harness().start(OPERATION, { model: MODEL, ...input }, MODEL), message, anyCreate);
      });
    }
  });

  describe('status', () => {
    const HANDLE = { taskId: TASK_ID, state: { duration: 8, aspect_ratio: 'adaptive' } };

    it('reports queued as 0 % and running without progress (ModelArk reports none), then hosts the clip with the duration and shape it was rendered at', async () => {
      const videoUrl = tosFile(`/seedance-1-0-pro/${TASK_ID}.mp4`, MP4);
      const api = arkApi()
        .get(TASK_PATH)
        .reply(200, taskAnswer('queued'))
        .get(TASK_PATH)
        .reply(200, taskAnswer('running'))
        .get(TASK_PATH)
        .reply(200, succeeded(videoUrl, { duration: 8, ratio: '4:3' }));

      const queued = await harness().status(OPERATION, HANDLE, MODEL);
      const running = await harness().status(OPERATION, HANDLE, MODEL);
      const result = await harness().status(OPERATION, HANDLE, MODEL);

      expect([queued, running]).to.deep.equal([{ pending: { progress: 0 } }, { pending: {} }]);
      await expectVideoOutput(harness(), OPERATION, result, { taskId: TASK_ID, provider: 'bytedance', model: MODEL, fields: { duration: 8, aspect_ratio: '4:3' } }, MP4);
      expect(api.isDone() && nock.pendingMocks().length === 0).to.equal(true);
    });

    it('states the asked duration and shape when the finished task does not echo them', async () => {
      const videoUrl = tosFile('/seedance-1-0-pro/bare.mp4', MP4);
      arkApi().get(TASK_PATH).reply(200, succeeded(videoUrl, { duration: undefined, ratio: 'adaptive' }));

      const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { duration: 6, aspect_ratio: '21:9' } }, MODEL);

      expect(result).to.have.nested.property('done.duration', 6);
      expect(result).to.have.nested.property('done.aspect_ratio', '21:9');
    });

    it('reports a failed task with the vendor\'s message and code', async () => {
      arkApi()
        .get(TASK_PATH)
        .reply(200, taskAnswer('failed', { error: { code: 'OutputVideoSensitiveContentDetected.PolicyViolation', message: 'The request failed because the output video may be related to copyright restrictions.' } }));

      expect(await harness().status(OPERATION, HANDLE, MODEL)).to.deep.equal({
        failed: 'bytedance: The request failed because the output video may be related to copyright restrictions. (OutputVideoSensitiveContentDetected.PolicyViolation)',
      });
    });

    it('reports a cancelled task and an expired one as failed', async () => {
      arkApi().get(TASK_PATH).reply(200, taskAnswer('cancelled')).get(TASK_PATH).reply(200, taskAnswer('expired'));

      expect(await harness().status(OPERATION, HANDLE, MODEL)).to.deep.equal({ failed: 'bytedance: the task was cancelled' });
      expect(await harness().status(OPERATION, HANDLE, MODEL)).to.deep.equal({
        failed: 'bytedance: the task expired before it was rendered (ModelArk gives up on a task 48 hours after creation by default)',
      });
    });
  });

  describe('cancel', () => {
    // The harness drives start and status only; cancel needs nothing but the vendor client.
    let ctx: FakePluginContext<ArkConfig>;
    const route = { model: MODEL, vendorModel: VENDOR_MODEL, publicName: MODEL };
    const HANDLE = { taskId: TASK_ID, state: { duration: 5, aspect_ratio: '16:9' } };
    beforeEach(async () => void (ctx = await createFakePluginContext<ArkConfig>({ config: CONFIG, operation: OPERATION })));
    afterEach(() => ctx.cleanup());

    it('cancels a queued task with DELETE on the task', async () => {
      const api = arkApi().delete(TASK_PATH).reply(200, {});

      await bytedancePlugin.operations[OPERATION].cancel!(HANDLE, ctx, route);

      expect(api.isDone()).to.equal(true);
    });

    it('takes a task ModelArk no longer knows (404) as cancelled', async () => {
      const api = arkApi().delete(TASK_PATH).reply(404, { error: { code: 'ResourceNotFound', message: 'The specified task is not found.', param: '', type: 'NotFound' } });

      await bytedancePlugin.operations[OPERATION].cancel!(HANDLE, ctx, route);

      expect(api.isDone()).to.equal(true);
    });

    it('passes on the refusal to cancel a running task as a permanent error', async () => {
      // The page documents that only a queued task can be cancelled, not the refusal's wording: this one is ours.
      arkApi()
        .delete(TASK_PATH)
        .reply(400, { error: { code: 'InvalidParameter', message: 'Only tasks in the queued status can be cancelled.', param: 'id', type: 'BadRequest' } });

      const error = await failure(bytedancePlugin.operations[OPERATION].cancel!(HANDLE, ctx, route));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`bytedance: Only tasks in the queued status can be cancelled. (HTTP 400 on DELETE ${TASK_PATH})`);
      expect(error.details.vendorCode).to.equal('InvalidParameter');
    });
  });
});
