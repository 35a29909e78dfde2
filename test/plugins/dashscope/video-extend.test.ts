/**
 * video.extend (a guessed operation) on Wan 2.7's clip continuation: the source is measured first, the submit is
 * the image-to-video request with the source as media `first_clip` and the whole output's length as `duration`
 * (Alibaba Model Studio, "Wan 2.7 - image-to-video API" and the image-to-video 2.7 guide: "Output video (12s, 10s
 * continuation)" for a 2 s first clip; first clips of 2 to 10 s, outputs of 2 to 15 s), and the task is
 * video.generate's. What Wan cannot render is refused before anything is sent.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import dashScopePlugin, { type DashScopeConfig } from '../../../plugins/dashscope/index.js';
import { projectRoot } from '../../../src/kernel/config/index.js';
import { runFfmpeg, type JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { harnessPublicUrl, type PluginHarness } from '../../support/plugin-harness.js';
import { createFakePluginContext } from '../../support/fake-plugin-context.js';
import { describeVendorCallFailures, expectVideoOutput } from '../../support/vendor-conformance.js';
import { CONFIG, created, dashScopeApi, failure, MP4, OSS, SUBMIT_PATH, submitApi, succeeded, TASK_ID, taskAnswer, useDashScopeHarness, VIDEO_PATH, VIDEO_QUERY } from './dashscope-test-kit.js';

const OPERATION = 'video.extend';
const POLL_PATH = `/api/v1/tasks/${TASK_ID}`;
/** The shipped 4 s, 640x360 sample, as the gateway hosts a client's upload or one of its own outputs. */
const SOURCE_KEY = 'req_source/speech.mp4';
const SOURCE_URL = `${harnessPublicUrl}/files/${SOURCE_KEY}`;
const HANDLE = { taskId: TASK_ID, state: { model: 'wan2.7-i2v', duration: 6, aspect_ratio: '16:9', source_duration: 4 } };

/** Puts a video into the harness's store under `key` and returns its hosted URL. */
async function hostVideo(harness: PluginHarness, key: string, bytes: Buffer): Promise<string> {
  await harness.blobs.put(key, bytes);
  return `${harnessPublicUrl}/files/${key}`;
}

describe('dashscope plugin: video.extend (Wan 2.7 clip continuation)', () => {
  const harness = useDashScopeHarness();
  let speech: Buffer;
  const clips: Record<'oneSecond' | 'eightSeconds' | 'elevenSeconds', Buffer> = {} as never;
  let dir: string;

  before(async () => {
    speech = await readFile(join(projectRoot, 'samples/speech.mp4'));
    dir = await mkdtemp(join(tmpdir(), 'mediagate-extend-'));
    const make = async (name: keyof typeof clips, seconds: number) => {
      const path = join(dir, `${name}.mp4`);
      await runFfmpeg(['-f', 'lavfi', '-i', `testsrc=size=64x36:rate=8:duration=${seconds}`, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', path], { signal: new AbortController().signal });
      clips[name] = await readFile(path);
    };
    await Promise.all([make('oneSecond', 1), make('eightSeconds', 8), make('elevenSeconds', 11)]);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  describe('submit', () => {
    it('measures the source and asks wan2.7-i2v for the whole output: first_clip media, source + added seconds, 720P unless asked', async () => {
      const url = await hostVideo(harness(), SOURCE_KEY, speech);
      const api = submitApi()
        .post(SUBMIT_PATH, {
          model: 'wan2.7-i2v',
          input: { prompt: 'the presenter smiles and looks off to the side', negative_prompt: 'text, watermark', media: [{ type: 'first_clip', url }] },
          parameters: { resolution: '720P', duration: 6, watermark: false, seed: 7 },
        })
        .reply(200, created());

      const result = await harness().start(
        OPERATION,
        { video_url: url, prompt: 'the presenter smiles and looks off to the side', negative_prompt: 'text, watermark', seed: 7, duration: 2, model: 'wan-2.7' },
        'wan-2.7',
      );

      expect(result).to.deep.equal({ task: HANDLE });
      expect(api.isDone()).to.equal(true);
    });

    it('rounds the whole output up to Wan\'s next whole second and sends the resolution asked for', async () => {
      const url = await hostVideo(harness(), SOURCE_KEY, speech);
      const api = submitApi()
        .post(SUBMIT_PATH, { model: 'wan2.7-i2v', input: { media: [{ type: 'first_clip', url }] }, parameters: { resolution: '1080P', duration: 7, watermark: false } })
        .reply(200, created());

      const result = await harness().start(OPERATION, { video_url: url, duration: 2.5, resolution: '1080p' }, 'wan-2.7');

      expect(result).to.have.nested.property('task.state.duration', 7);
      expect(api.isDone()).to.equal(true);
    });

    for (const [name, clip, duration, message] of [
      ['a source shorter than 2 s', 'oneSecond', 2, 'dashscope: wan-2.7 continues a video of 2 to 10 seconds; video_url is 1 s long'],
      ['a source longer than 10 s', 'elevenSeconds', 2, 'dashscope: wan-2.7 continues a video of 2 to 10 seconds; video_url is 11 s long'],
      ['more than 15 s in all', 'eightSeconds', 8, 'dashscope: wan-2.7 renders at most 15 seconds in all, source included: video_url is 8 s long, so at most 7 seconds can be added'],
    ] as const) {
      it(`refuses ${name} before anything is sent`, async () => {
        const url = await hostVideo(harness(), `req_source/${clip}.mp4`, clips[clip]);
        const untouched = submitApi().post(SUBMIT_PATH).reply(200, created());

        const error = await failure(harness().start(OPERATION, { video_url: url, duration }, 'wan-2.7'));

        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal(message);
        expect(error.details.vendorCode).to.equal('unsupported_input');
        expect(untouched.isDone()).to.equal(false);
      });
    }

    it('refuses a source that is not a video, before anything is sent', async () => {
      const url = await hostVideo(harness(), 'req_source/not-a-video.mp4', Buffer.from('this is not a video'));
      const untouched = submitApi().post(SUBMIT_PATH).reply(200, created());

      const error = await failure(harness().start(OPERATION, { video_url: url, duration: 2 }, 'wan-2.7'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('dashscope: video_url could not be decoded as video');
      expect(untouched.isDone()).to.equal(false);
    });
  });

  describe('task', () => {
    it('polls the task, then hosts the whole video and states its length, the source\'s and the source\'s shape', async () => {
      // A usage block is read for nothing here: whether Wan's counts the first clip is not documented.
      const api = dashScopeApi().get(POLL_PATH).reply(200, taskAnswer('RUNNING')).get(POLL_PATH).reply(200, succeeded({ video_count: 1, video_duration: 2 }));
      const oss = nock(OSS).get(VIDEO_PATH).query(VIDEO_QUERY).reply(200, MP4, { 'content-type': 'application/octet-stream' });

      expect(await harness().status(OPERATION, HANDLE, 'wan-2.7')).to.deep.equal({ pending: {} });
      const result = await harness().status(OPERATION, HANDLE, 'wan-2.7');

      await expectVideoOutput(harness(), OPERATION, result, { taskId: TASK_ID, provider: 'dashscope', model: 'wan-2.7', fields: { duration: 6, source_duration: 4, aspect_ratio: '16:9' } }, MP4);
      expect(api.isDone() && oss.isDone()).to.equal(true);
    });

    it("reports a failed task with DashScope's message and code", async () => {
      dashScopeApi().get(POLL_PATH).reply(200, taskAnswer('FAILED', { code: 'InvalidParameter.DataInspection', message: 'The first clip could not be downloaded.' }));
      expect(await harness().status(OPERATION, HANDLE, 'wan-2.7')).to.deep.equal({ failed: 'dashscope: The first clip could not be downloaded. (InvalidParameter.DataInspection)' });
    });

    it('cancels a queued task as video.generate does', async () => {
      const ctx = await createFakePluginContext<DashScopeConfig>({ config: CONFIG, operation: OPERATION });
      try {
        const api = dashScopeApi().post(`${POLL_PATH}/cancel`).reply(200, { request_id: '6e8f4a2b-1c3d-4e5f-8a9b-0c1d2e3f4a5b' });
        await dashScopePlugin.operations[OPERATION].cancel!(HANDLE, ctx, { model: 'wan-2.7', vendorModel: 'wan2.7-i2v', publicName: 'wan-2.7' });
        expect(api.isDone()).to.equal(true);
      } finally {
        await ctx.cleanup();
      }
    });
  });
});

const SOURCE_INPUT: JsonObject = { video_url: SOURCE_URL, prompt: 'the presenter smiles', duration: 2 };
let sampleBytes: Buffer | undefined;
const putSample = async (harness: PluginHarness) => {
  sampleBytes ??= await readFile(join(projectRoot, 'samples/speech.mp4'));
  await harness.blobs.put(SOURCE_KEY, sampleBytes);
};

describeVendorCallFailures(dashScopePlugin, CONFIG, [
  {
    name: 'dashscope video.extend submit (POST /api/v1/services/aigc/video-generation/video-synthesis)',
    operation: OPERATION,
    call: async (harness) => {
      await putSample(harness);
      return harness.start(OPERATION, SOURCE_INPUT, 'wan-2.7');
    },
    method: 'POST',
    path: SUBMIT_PATH,
    endpoint: () => submitApi().post(SUBMIT_PATH),
    answer: { body: created(), gives: 'task', taskId: TASK_ID },
    rejections: [{ status: 400, body: { request_id: 'r-400', code: 'InvalidParameter', message: 'The first_clip duration must be between 2 and 10 seconds.' }, message: 'The first_clip duration must be between 2 and 10 seconds.', code: 'InvalidParameter' }],
    rateLimited: { body: { request_id: 'r-429', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' } },
    unavailable: { body: { request_id: 'r-503', code: 'ServiceUnavailable', message: 'Service temporarily unavailable.' }, message: 'Service temporarily unavailable.' },
    internalError: { body: { request_id: 'r-500', code: 'InternalError', message: 'An internal error has occured, please try again later.' }, message: 'An internal error has occured, please try again later.' },
    malformed: { body: { request_id: 'r-200' }, message: 'dashscope: malformed response: output.task_id is missing or not a string' },
  },
  {
    name: 'dashscope video.extend poll (GET /api/v1/tasks/{id})',
    operation: OPERATION,
    call: (harness) => harness.status(OPERATION, HANDLE, 'wan-2.7'),
    method: 'GET',
    path: POLL_PATH,
    endpoint: () => dashScopeApi().get(POLL_PATH),
    answer: { body: taskAnswer('RUNNING'), gives: 'pending' },
    rejections: [{ status: 401, body: { request_id: 'r-401', code: 'InvalidApiKey', message: 'Invalid API-key provided.' }, message: 'Invalid API-key provided.', code: 'InvalidApiKey' }],
    rateLimited: { body: { request_id: 'r-429', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' } },
    unavailable: { body: { request_id: 'r-503', code: 'ServiceUnavailable', message: 'Service temporarily unavailable.' }, message: 'Service temporarily unavailable.' },
    malformed: { body: { request_id: 'r-200', output: { task_id: TASK_ID } }, message: 'dashscope: malformed response: output.task_status is missing or not a string' },
  },
]);
