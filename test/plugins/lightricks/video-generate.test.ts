import { expect } from 'chai';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { expectRefusedBeforeSending, expectVideoOutput } from '../../support/vendor-conformance.js';
import { completed, FIRST, job, JOB_ID, ltxApi, MP4, OPERATION, serveClip, submitted, useLightricksHarness } from './lightricks-test-kit.js';

const PROMPT = 'A majestic eagle soaring through clouds at sunset';

describe('lightricks plugin: video.generate start (ltx-2-fast, ltx-2-pro)', () => {
  const harness = useLightricksHarness();

  it('submits a text-to-video job with the route model, LTX\'s pixel resolution, 25 fps, and nothing LTX-2 has no control for', async () => {
    const api = ltxApi()
      .post('/v2/text-to-video', { model: 'ltx-2-pro', prompt: PROMPT, duration: 8, resolution: '2560x1440', fps: 25 })
      .reply(202, submitted());

    const result = await harness().start(
      OPERATION,
      { prompt: PROMPT, model: 'ltx-2-pro', duration: 8, resolution: '1440p', aspect_ratio: '16:9', negative_prompt: 'blur', seed: 7, watermark: true, nsfw_checker: true, prompt_extend: true },
      'ltx-2-pro',
    );

    expect(result).to.deep.equal({ task: { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 8 } } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends the manifest\'s defaults (6 s at 1920x1080) when the input carries none', async () => {
    const api = ltxApi().post('/v2/text-to-video', { model: 'ltx-2-fast', prompt: PROMPT, duration: 6, resolution: '1920x1080', fps: 25 }).reply(202, submitted());

    const result = await harness().start(OPERATION, { prompt: PROMPT, model: 'ltx-2-fast' }, 'ltx-2-fast');

    expect(result).to.deep.equal({ task: { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 6 } } });
    expect(api.isDone()).to.equal(true);
  });

  it('submits an image-to-video job with the first frame as image_uri (either spelling), at 4K', async () => {
    const api = ltxApi()
      .post('/v2/image-to-video', { model: 'ltx-2-fast', prompt: PROMPT, image_uri: FIRST, duration: 10, resolution: '3840x2160', fps: 25 })
      .reply(202, submitted())
      .post('/v2/image-to-video', { model: 'ltx-2-pro', prompt: PROMPT, image_uri: FIRST, duration: 6, resolution: '1920x1080', fps: 25 })
      .reply(202, submitted());

    const fast = await harness().start(OPERATION, { prompt: PROMPT, model: 'ltx-2-fast', image_url: FIRST, duration: 10, resolution: '2160p' }, 'ltx-2-fast');
    const pro = await harness().start(OPERATION, { prompt: PROMPT, model: 'ltx-2-pro', first_frame_url: FIRST, duration: 6, resolution: '1080p' }, 'ltx-2-pro');

    expect(fast).to.deep.equal({ task: { taskId: JOB_ID, state: { endpoint: 'image-to-video', duration: 10 } } });
    expect(pro).to.deep.equal({ task: { taskId: JOB_ID, state: { endpoint: 'image-to-video', duration: 6 } } });
    expect(api.isDone()).to.equal(true);
  });

  const refusals: { name: string; input: JsonObject; message: string }[] = [
    { name: 'a portrait clip', input: { aspect_ratio: '9:16' }, message: 'lightricks: ltx-2-fast renders landscape (16:9) only, not 9:16' },
    {
      name: 'a last frame',
      input: { image_url: FIRST, last_frame_url: FIRST },
      message: 'lightricks: ltx-2-fast takes no last frame (last_frame_url / end_image_url); send a first frame (image_url) alone',
    },
    {
      name: 'reference images',
      input: { reference_image_urls: [FIRST] },
      message: 'lightricks: ltx-2-fast takes no reference images (reference_image_urls); send a first frame (image_url) instead',
    },
  ];
  for (const { name, input, message } of refusals) {
    it(`refuses ${name} permanently, without calling LTX`, async () => {
      const api = ltxApi().post(/\/v2\/.*/).reply(202, submitted());

      await expectRefusedBeforeSending(harness().start(OPERATION, { prompt: PROMPT, model: 'ltx-2-fast', ...input }, 'ltx-2-fast'), message, api);
    });
  }
});

describe('lightricks plugin: video.generate status', () => {
  const harness = useLightricksHarness();

  it('stays pending while the job is pending or processing, then hosts the clip from result.video_url', async () => {
    const api = ltxApi()
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('pending'))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('processing'))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('processing'))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, completed());
    const clip = serveClip();
    const task = { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 8 } };

    const pending = [];
    for (let poll = 0; poll < 3; poll += 1) pending.push(await harness().status(OPERATION, task, 'ltx-2-pro'));
    const result = await harness().status(OPERATION, task, 'ltx-2-pro');

    expect(pending).to.deep.equal([{ pending: {} }, { pending: {} }, { pending: {} }]);
    await expectVideoOutput(harness(), OPERATION, result, { taskId: JOB_ID, provider: 'lightricks', model: 'ltx-2-pro', fields: { duration: 8, aspect_ratio: '16:9' } }, MP4);
    expect(api.isDone() && clip.isDone()).to.equal(true);
  });

  it('polls an image-to-video job at the endpoint that created it', async () => {
    const api = ltxApi().get(`/v2/image-to-video/${JOB_ID}`).reply(200, completed());
    serveClip();

    const result = await harness().status(OPERATION, { taskId: JOB_ID, state: { endpoint: 'image-to-video', duration: 10 } }, 'ltx-2-fast');

    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    expect(result.done).to.deep.include({ task_id: JOB_ID, model: 'ltx-2-fast', duration: 10, aspect_ratio: '16:9' });
    expect(harness().checkOutput(OPERATION, result.done)).to.deep.equal([]);
    expect(api.isDone()).to.equal(true);
  });

  it('reports a failed job with LTX\'s reason, as an error object or a sentence, or says it gave none', async () => {
    const task = { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 6 } };
    ltxApi()
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('failed', { error: { type: 'content_filtered_error', message: 'The prompt was blocked by the content filter' } }))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('failed', { error: 'Generation failed' }))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('failed'));

    const results = [];
    for (let poll = 0; poll < 3; poll += 1) results.push(await harness().status(OPERATION, task, 'ltx-2-fast'));

    expect(results).to.deep.equal([
      { failed: 'lightricks: The prompt was blocked by the content filter (content_filtered_error)' },
      { failed: 'lightricks: Generation failed' },
      { failed: 'lightricks: the generation failed without a reason' },
    ]);
  });
});
