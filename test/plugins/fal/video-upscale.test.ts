/** video.upscale on fal-ai/bytedance-upscaler/upscale/video: the request map, the output and the exact cost. */
import { expect } from 'chai';
import nock from 'nock';
import falPlugin from '../../../plugins/fal/index.js';
import type { JsonObject, ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { HOSTED_URL } from '../../support/vendor-conformance.js';
import { BYTES, caseOf, CDN, completed, CONFIG, doneOutput, falQueue, queueUrls, REQUEST_ID, submitted, useFalHarness, videoWithSound } from './fal-test-kit.js';

const OPERATION = 'video.upscale';
const CASE = caseOf(OPERATION);
const STATUS = `/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}/status`;
const RESULT = `/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}`;

function taskWith(remembered: JsonObject): ProviderTask {
  return { taskId: REQUEST_ID, state: { model_id: CASE.modelId, ...queueUrls(CASE.appId), remembered } };
}

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

  it('sends the frame rate as fal\'s "60fps" and remembers what prices the job', async () => {
    const api = falQueue()
      .post('/fal-ai/bytedance-upscaler/upscale/video', { video_url: 'https://example.com/c.mp4', target_resolution: '4k', target_fps: '60fps' })
      .reply(200, submitted(CASE.appId));

    const result = await harness().start(OPERATION, { video_url: 'https://example.com/c.mp4', target_resolution: '4k', target_fps: 60, duration_seconds: 3, video_title: 'Clip' });

    expect(api.isDone()).to.equal(true);
    expect(result).to.have.deep.nested.property('task.state.remembered', { duration_seconds: 3, target_resolution: '4k', target_fps: 60 });
  });

  it('serves the legacy video-upscaler value on the same fal model', async () => {
    const api = falQueue().post('/fal-ai/bytedance-upscaler/upscale/video', { video_url: 'https://example.com/c.mp4', target_resolution: '1080p' }).reply(200, submitted(CASE.appId));

    await harness().start(OPERATION, { video_url: 'https://example.com/c.mp4', model: 'video-upscaler', target_resolution: '1080p' }, 'video-upscaler');

    expect(api.isDone()).to.equal(true);
  });
});

describe('fal plugin: video.upscale result', () => {
  const harness = useFalHarness();

  it('hosts the upscaled video and settles on the seconds fal billed at the 2k rate', async () => {
    finishedWith(CASE.result());

    const output = await done(harness(), taskWith({ duration_seconds: 2, target_resolution: '2k' }));

    expect(output).to.deep.equal({
      task_id: REQUEST_ID,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      provider: 'fal',
      model: 'bytedance-upscaler',
      requested_model: 'bytedance-upscaler',
      // fal billed 2.5 s; 2k costs twice 1080p: ceil(1 x 2 x 2.5).
      exact_cost_credits: 5,
    });
    expect(output.video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(await harness().hostedBytes(String(output.video_url))).to.deep.equal(BYTES.upscaled);
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
  });

  it('reports the legacy model value as requested', async () => {
    finishedWith(CASE.result());

    const output = await done(harness(), taskWith({ target_resolution: '1080p' }), 'video-upscaler');

    expect(output).to.include({ requested_model: 'video-upscaler', exact_cost_credits: 3 });
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
  });

  it('prices 4k at 60 fps at fal\'s ratio (4 x 2) and rounds up to a whole credit', async () => {
    finishedWith({ ...CASE.result(), duration: 1.01 });

    expect(await done(harness(), taskWith({ target_resolution: '4k', target_fps: 60 }))).to.include({ exact_cost_credits: 9 });
  });

  it('uses the configured rate', async () => {
    const priced = await createPluginHarness(falPlugin, { ...CONFIG, upscale_credits_per_second: 2.5 });
    try {
      finishedWith({ ...CASE.result(), duration: 4 });
      expect(await done(priced, taskWith({ target_resolution: '1080p' }))).to.include({ exact_cost_credits: 10 });
    } finally {
      await priced.close();
    }
  });

  it('falls back to the declared duration_seconds when fal names no billed length', async () => {
    finishedWith({ video: CASE.result().video });

    expect(await done(harness(), taskWith({ duration_seconds: 7, target_resolution: '1080p' }))).to.include({ exact_cost_credits: 7 });
  });

  it('measures the upscaled video when neither fal nor the client gave a length', async () => {
    finishedWith({ video: CASE.result().video }, await videoWithSound());

    expect(await done(harness(), taskWith({ target_resolution: '2k' }))).to.include({ exact_cost_credits: 2 });
  });
});
