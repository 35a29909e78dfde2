/**
 * Veo 3.1 through the Gemini API: the predictLongRunning request each kind of run sends, the runs refused
 * before anything is fetched or sent, and the operation's life after submission (pending, done and hosted,
 * failed, filtered).
 */
import { expect } from 'chai';
import nock from 'nock';
import google from '../../../plugins/google/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { expectRefusedBeforeSending, expectVideoOutput, threePngs, usePluginHarness } from '../../support/vendor-conformance.js';
import { API_KEY, CONFIG, geminiApi, INPUTS } from './google-test-kit.js';
import {
  DOWNLOAD_PATH,
  failedOperation,
  FAST_SUBMIT_PATH,
  filtered,
  finished,
  MP4,
  OPERATION,
  OPERATION_NAME,
  POLL_PATH,
  running,
  SUBMIT_PATH,
  submitted,
} from './veo-test-kit.js';

/** A type alias, not an interface, so that nock accepts it inside a body matcher. */
type InlineImage = { bytesBase64Encoded: string; mimeType: string };

function inline(bytes: Buffer, mimeType = 'image/png'): InlineImage {
  return { bytesBase64Encoded: bytes.toString('base64'), mimeType };
}

describe('google plugin: Veo video.generate (predictLongRunning)', () => {
  // A fresh harness per test: no breaker state or hosted file carries over.
  let harness: PluginHarness;
  usePluginHarness(google, CONFIG, (fresh) => void (harness = fresh));
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => void ([red, blue, green] = await threePngs()));

  describe('submit', () => {
    it('veo-3.1: sends ratio, resolution, duration, negative prompt and prompt rewriting, leaves out what the Gemini API has no field for (seed, watermark, safety checker), and keeps the operation name as the task', async () => {
      const api = geminiApi()
        .post(SUBMIT_PATH, {
          instances: [{ prompt: 'a paper boat drifting down a rain gutter, close-up' }],
          parameters: { aspectRatio: '9:16', resolution: '720p', durationSeconds: 6, negativePrompt: 'blurry, low quality', enhancePrompt: false },
        })
        .matchHeader('content-type', 'application/json')
        .reply(200, submitted());

      const result = await harness.start(
        OPERATION,
        {
          prompt: 'a paper boat drifting down a rain gutter, close-up',
          model: 'veo-3.1',
          duration: 6,
          resolution: '720p',
          aspect_ratio: '9:16',
          negative_prompt: 'blurry, low quality',
          seed: 42,
          watermark: true,
          prompt_extend: false,
          nsfw_checker: true,
        },
        'veo-3.1',
      );

      expect(result).to.deep.equal({ task: { taskId: OPERATION_NAME, state: { duration: 6, aspect_ratio: '9:16' } } });
      expect(api.isDone()).to.equal(true);
    });

    it("veo-3.1-fast: sends Veo's own defaults (16:9, 8 s) when none are asked, and states them", async () => {
      const api = geminiApi()
        .post(FAST_SUBMIT_PATH, { instances: [{ prompt: 'timelapse of clouds over a ridge' }], parameters: { aspectRatio: '16:9', durationSeconds: 8 } })
        .reply(200, submitted('models/veo-3.1-fast-generate-preview/operations/f4st0p'));

      const result = await harness.start(OPERATION, { prompt: 'timelapse of clouds over a ridge', model: 'veo-3.1-fast' }, 'veo-3.1-fast');

      expect(result).to.deep.equal({ task: { taskId: 'models/veo-3.1-fast-generate-preview/operations/f4st0p', state: { duration: 8, aspect_ratio: '16:9' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('first and last frame: both inline as base64 with their types (image_url / end_image_url spellings)', async () => {
      nock(INPUTS).get('/inputs/first.png').reply(200, red, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/last.jpg').reply(200, blue, { 'content-type': 'image/jpeg' });
      const api = geminiApi()
        .post(SUBMIT_PATH, {
          instances: [{ prompt: 'the kite rises into the clouds', image: inline(red), lastFrame: inline(blue, 'image/jpeg') }],
          parameters: { aspectRatio: '16:9', resolution: '1080p', durationSeconds: 8 },
        })
        .reply(200, submitted());

      await harness.start(
        OPERATION,
        { prompt: 'the kite rises into the clouds', model: 'veo-3.1', image_url: `${INPUTS}/inputs/first.png`, end_image_url: `${INPUTS}/inputs/last.jpg`, resolution: '1080p', duration: 8 },
        'veo-3.1',
      );

      expect(api.isDone()).to.equal(true);
    });

    it('first frame by its other spelling, and reference images each inline as an asset reference', async () => {
      nock(INPUTS).get('/inputs/start.png').reply(200, green, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/cat.png').reply(200, red, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/hat.webp').reply(200, blue, { 'content-type': 'image/webp' });
      const api = geminiApi()
        .post(SUBMIT_PATH, {
          instances: [
            {
              prompt: 'the cat puts on the hat',
              image: inline(green),
              referenceImages: [
                { image: inline(red), referenceType: 'asset' },
                { image: inline(blue, 'image/webp'), referenceType: 'asset' },
              ],
            },
          ],
          parameters: { aspectRatio: '16:9', durationSeconds: 8 },
        })
        .reply(200, submitted());

      await harness.start(
        OPERATION,
        { prompt: 'the cat puts on the hat', model: 'veo-3.1', first_frame_url: `${INPUTS}/inputs/start.png`, reference_image_urls: [`${INPUTS}/inputs/cat.png`, `${INPUTS}/inputs/hat.webp`] },
        'veo-3.1',
      );

      expect(api.isDone()).to.equal(true);
    });

    const refusals: Array<{ name: string; input: JsonObject; message: string }> = [
      { name: '1080p below 8 seconds', input: { duration: 4, resolution: '1080p' }, message: 'google: veo-3.1 renders 1080p at 8 seconds only: ask for duration 8, or 720p' },
      {
        name: 'reference images below 8 seconds',
        input: { duration: 6, reference_image_urls: [`${INPUTS}/inputs/never-fetched.png`] },
        message: 'google: veo-3.1 renders with reference images at 8 seconds only: ask for duration 8, or drop reference_image_urls',
      },
    ];
    for (const { name, input, message } of refusals) {
      it(`refuses ${name} before fetching or sending anything`, async () => {
        const anyInput = nock(INPUTS).get(/.*/).reply(200, red, { 'content-type': 'image/png' });
        const anySubmit = geminiApi().post(/.*/).reply(200, submitted());

        await expectRefusedBeforeSending(harness.start(OPERATION, { prompt: 'p', model: 'veo-3.1', ...input }, 'veo-3.1'), message, anyInput, anySubmit);
      });
    }
  });

  describe('operation', () => {
    const HANDLE = { taskId: OPERATION_NAME, state: { duration: 6, aspect_ratio: '9:16' } };

    it('stays pending while the operation is not done (done left out, then false), then downloads the video by its file id with the key and hosts it', async () => {
      const api = geminiApi().get(POLL_PATH).reply(200, submitted()).get(POLL_PATH).reply(200, running()).get(POLL_PATH).reply(200, finished());
      const download = geminiApi().get(DOWNLOAD_PATH).query({ alt: 'media' }).reply(200, MP4, { 'content-type': 'video/mp4' });

      const pending = [await harness.status(OPERATION, HANDLE, 'veo-3.1'), await harness.status(OPERATION, HANDLE, 'veo-3.1')];
      const result = await harness.status(OPERATION, HANDLE, 'veo-3.1');

      expect(pending).to.deep.equal([{ pending: {} }, { pending: {} }]);
      await expectVideoOutput(harness, OPERATION, result, { taskId: OPERATION_NAME, provider: 'google', model: 'veo-3.1', fields: { duration: 6, aspect_ratio: '9:16' } }, MP4);
      expect(api.isDone() && download.isDone()).to.equal(true);
    });

    it("reports a failed operation with Google's message and code", async () => {
      geminiApi().get(POLL_PATH).reply(200, failedOperation(3, 'The input image contains content that violates the usage guidelines.'));

      expect(await harness.status(OPERATION, HANDLE, 'veo-3.1')).to.deep.equal({ failed: 'google: The input image contains content that violates the usage guidelines. (code 3)' });
    });

    it("reports a video removed by Google's safety filters with the filters' reasons", async () => {
      // The reasons are free text; this one is made up (no documented example was found).
      const reason = 'The generated video was blocked by a safety filter.';
      geminiApi().get(POLL_PATH).reply(200, filtered([reason]));

      expect(await harness.status(OPERATION, HANDLE, 'veo-3.1')).to.deep.equal({ failed: `google: Veo returned no video, its safety filters removed it: ${reason}` });
    });

    it('keeps the path prefix of a configured base_url for the submit, the poll and the download (never the host the answer names)', async () => {
      const proxied = await createPluginHarness(google, { ...CONFIG, base_url: 'https://proxy.example/gemini' });
      try {
        const proxy = nock('https://proxy.example', { reqheaders: { 'x-goog-api-key': API_KEY } })
          .post(`/gemini${SUBMIT_PATH}`)
          .reply(200, submitted())
          .get(`/gemini${POLL_PATH}`)
          .reply(200, finished())
          .get(`/gemini${DOWNLOAD_PATH}`)
          .query({ alt: 'media' })
          .reply(200, MP4);

        const started = (await proxied.start(OPERATION, { prompt: 'waves', model: 'veo-3.1' }, 'veo-3.1')) as { task: { taskId: string; state: JsonObject } };
        const result = await proxied.status(OPERATION, started.task, 'veo-3.1');

        expect(result).to.have.nested.property('done.provider', 'google');
        expect(proxy.isDone()).to.equal(true);
      } finally {
        await proxied.close();
      }
    });
  });
});
