/** video.upscale on fal-ai/bytedance-upscaler/upscale/video: the request map, the output and the usage it settles on. */
import { expect } from 'chai';
import nock from 'nock';
import type { JsonObject, ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { settledPrice } from '../../support/settled-price.js';
import { HOSTED_URL } from '../../support/vendor-conformance.js';
import { BYTES, caseOf, CDN, completed, doneOutput, falQueue, queueUrls, REQUEST_ID, submitted, useFalHarness, videoWithSound } from './fal-test-kit.js';

const OPERATION = 'video.upscale';
const CASE = caseOf(OPERATION);
const STATUS = `/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}/status`;
const RESULT = `/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}`;

const TASK: ProviderTask = { taskId: REQUEST_ID, state: { model_id: CASE.modelId, ...queueUrls(CASE.appId) } };

/** Answers one finished poll with `result`, serving `video` behind it. */
function finishedWith(result: Record<string, unknown>, video: Buffer = BYTES.upscaled): void {
  falQueue().get(STATUS).reply(200, completed(CASE.appId)).get(RESULT).reply(200, result);
  nock(CDN).get('/files/b/lion/upscaled.mp4').reply(200, video, { 'content-type': 'video/mp4' });
}

async function done(harness: PluginHarness, task: ProviderTask, model?: string): Promise<JsonObject> {
  return doneOutput(await harness.status(OPERATION, task, model));
}

describe('fal plugin: video.upscale request', () => {
  const harness = useFalHarness();

  it('sends the frame rate as fal\'s "60fps", and keeps only the queue\'s own fields with the task', async () => {
    const api = falQueue()
      .post('/fal-ai/bytedance-upscaler/upscale/video', { video_url: 'https://example.com/c.mp4', target_resolution: '4k', target_fps: '60fps' })
      .reply(200, submitted(CASE.appId));

    const result = await harness().start(OPERATION, { video_url: 'https://example.com/c.mp4', target_resolution: '4k', target_fps: 60, duration_seconds: 3, video_title: 'Clip' });

    expect(api.isDone()).to.equal(true);
    expect(result).to.deep.equal({ task: TASK });
  });

  it('serves the legacy video-upscaler value on the same fal model', async () => {
    const api = falQueue().post('/fal-ai/bytedance-upscaler/upscale/video', { video_url: 'https://example.com/c.mp4', target_resolution: '1080p' }).reply(200, submitted(CASE.appId));

    await harness().start(OPERATION, { video_url: 'https://example.com/c.mp4', model: 'video-upscaler', target_resolution: '1080p' }, 'video-upscaler');

    expect(api.isDone()).to.equal(true);
  });
});

describe('fal plugin: video.upscale result', () => {
  const harness = useFalHarness();

  it('hosts the upscaled video and reports the seconds fal billed, which the manifest prices at the 2k rate', async () => {
    finishedWith(CASE.result());

    const output = await done(harness(), TASK);

    expect(output).to.deep.equal({
      task_id: REQUEST_ID,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      provider: 'fal',
      model: 'bytedance-upscaler',
      requested_model: 'bytedance-upscaler',
      usage: { output_seconds: 2.5 },
    });
    expect(output.video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(await harness().hostedBytes(String(output.video_url))).to.deep.equal(BYTES.upscaled);
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
    // Declared 2 s at 2k: 2 × 2 = 4 quoted; fal billed 2.5 s: 2.5 × 2 = 5 settled.
    const settled = await settledPrice(OPERATION, CASE.input, output);
    expect({ quote: settled.quote, exactCost: settled.exactCost }).to.deep.equal({ quote: 4, exactCost: 5 });
  });

  it('reports the legacy model value as requested', async () => {
    finishedWith(CASE.result());

    const output = await done(harness(), TASK, 'video-upscaler');

    expect(output).to.include({ requested_model: 'video-upscaler' });
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
  });

  it('is priced at fal\'s 4k ratio (4) by the manifest, rounded up to a whole credit', async () => {
    finishedWith({ ...CASE.result(), duration: 1.01 });

    const output = await done(harness(), TASK);

    const settled = await settledPrice(OPERATION, { video_url: 'https://example.com/c.mp4', target_resolution: '4k' }, output);
    // 10 s assumed: 10 × 4 = 40 quoted; 1.01 × 4 = 4.04 -> 5 settled.
    expect({ quote: settled.quote, exactCost: settled.exactCost }).to.deep.equal({ quote: 40, exactCost: 5 });
  });

  it('measures the upscaled video when fal names no billed length (a declared length is only an estimate)', async () => {
    finishedWith({ video: CASE.result().video }, await videoWithSound());

    // The fixture video lasts 1 s.
    expect(await done(harness(), TASK)).to.have.deep.property('usage', { output_seconds: 1 });
  });
});
