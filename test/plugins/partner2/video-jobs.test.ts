/**
 * The life cycle of every asynchronous partner2 operation, one table row each: the exact create call, the
 * task it leaves, polls that report progress, the hosted MP4 in an output that fits the manifest, the vendor's
 * failures on the create call, and a failed or malformed job.
 */
import { expect } from 'chai';
import nock from 'nock';
import partner2 from '../../../plugins/partner2/index.js';
import type { JsonObject, ProviderTask, StatusResult } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { failure, HOSTED_URL, useNock } from '../../support/vendor-conformance.js';
import { API_KEY, CONFIG, INVALID_SIZE, MP4, serveVideo, VIDEO_JOB_CASES, videoObject, videosApi, type VideoJobCase } from './partner2-test-kit.js';

function doneOutput(result: StatusResult): JsonObject {
  if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
  return result.done;
}

for (const job of VIDEO_JOB_CASES) {
  describe(`partner2 plugin: ${job.operation} (POST ${job.path})`, () => {
    useNock();
    let harness: PluginHarness;
    const task: ProviderTask = { taskId: job.videoId, state: { output: job.extraOutput } };
    const create = () => videosApi().post(job.path);

    before(async () => {
      harness = await createPluginHarness(partner2, CONFIG);
    });
    beforeEach(() => {
      harness.sleeps.length = 0;
    });
    after(() => harness.close());

    it('sends the mapped JSON body with the Bearer key and keeps the new video id as the task', async () => {
      const api = videosApi().matchHeader('content-type', 'application/json').post(job.path, job.body).reply(200, videoObject(job.videoId, 'queued'));

      const result = await harness.start(job.operation, job.input, job.model);

      expect(result).to.deep.equal({ task: { taskId: job.videoId, state: { output: job.extraOutput } } });
      expect(api.isDone()).to.equal(true);
    });

    it('reports queued and in_progress with their progress, then hosts the finished MP4', async () => {
      const api = videosApi()
        .get(`/v1/videos/${job.videoId}`).reply(200, videoObject(job.videoId, 'queued'))
        .get(`/v1/videos/${job.videoId}`).reply(200, videoObject(job.videoId, 'in_progress', { progress: 33 }))
        .get(`/v1/videos/${job.videoId}`).reply(200, videoObject(job.videoId, 'completed'));
      const content = serveVideo(job.videoId);

      expect(await harness.status(job.operation, task, job.model)).to.deep.equal({ pending: { progress: 0 } });
      expect(await harness.status(job.operation, task, job.model)).to.deep.equal({ pending: { progress: 33 } });
      const output = doneOutput(await harness.status(job.operation, task, job.model));

      expect(api.isDone() && content.isDone()).to.equal(true);
      expect(output).to.deep.equal({
        task_id: job.videoId,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'partner2',
        model: job.publicModel,
        ...job.extraOutput,
      });
      expect(output.video_url).to.match(HOSTED_URL).and.to.match(/\.mp4$/);
      expect(await harness.hostedBytes(String(output.video_url))).to.deep.equal(MP4);
      expect(harness.checkOutput(job.operation, output)).to.deep.equal([]);
    });

    it('follows a long render: ten polls with rising progress, then done', async () => {
      const progress = [0, 0, 5, 12, 20, 31, 47, 60, 78, 94];
      const api = videosApi();
      for (const [poll, percent] of progress.entries()) {
        api.get(`/v1/videos/${job.videoId}`).reply(200, videoObject(job.videoId, poll < 2 ? 'queued' : 'in_progress', { progress: percent }));
      }
      api.get(`/v1/videos/${job.videoId}`).reply(200, videoObject(job.videoId, 'completed'));
      serveVideo(job.videoId);

      const seen: number[] = [];
      for (let poll = 0; poll < progress.length; poll += 1) {
        const result = await harness.status(job.operation, task, job.model);
        if (!('pending' in result)) throw new Error(`poll ${poll}: expected pending, got ${JSON.stringify(result)}`);
        seen.push(result.pending.progress ?? -1);
      }
      const output = doneOutput(await harness.status(job.operation, task, job.model));

      expect(seen).to.deep.equal(progress);
      expect(harness.checkOutput(job.operation, output)).to.deep.equal([]);
      expect(nock.pendingMocks()).to.deep.equal([]);
    });

    it('reports a failed job with the vendor\'s error message and code', async () => {
      videosApi()
        .get(`/v1/videos/${job.videoId}`)
        .reply(200, videoObject(job.videoId, 'failed', { error: { code: 'moderation_blocked', message: 'This request has been blocked by our moderation system.' } }));

      expect(await harness.status(job.operation, task, job.model)).to.deep.equal({
        failed: 'partner2: This request has been blocked by our moderation system. (moderation_blocked)',
      });
    });

    it('fails permanently with the vendor\'s message on a 400', async () => {
      create().reply(400, INVALID_SIZE);

      const error = await failure(harness.start(job.operation, job.input, job.model));

      expect(error.retryable).to.equal(false);
      expect(error.details.vendorStatus).to.equal(400);
      expect(error.details.vendorCode).to.equal('invalid_value');
      expect(error.message).to.equal(`partner2: ${INVALID_SIZE.error.message} (HTTP 400 on POST ${job.path})`);
      expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(API_KEY);
      expect(harness.sleeps).to.deep.equal([]);
    });

    it('waits for Retry-After on a 429, then starts the job', async () => {
      create().reply(429, { error: { message: 'Rate limit reached for requests', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, { 'Retry-After': '7' });
      create().reply(200, videoObject(job.videoId, 'queued'));

      const result = await harness.start(job.operation, job.input, job.model);

      expect(harness.sleeps).to.deep.equal([7000]);
      expect(result).to.deep.equal({ task: { taskId: job.videoId, state: { output: job.extraOutput } } });
      expect(nock.pendingMocks()).to.deep.equal([]);
    });

    it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling the vendor', async () => {
      const fresh = await createPluginHarness(partner2, CONFIG, { volume_threshold: 2 });
      try {
        // Three attempts per call (the vendor client's retries), two calls.
        create().times(6).reply(503, { error: { message: 'The server is overloaded or not ready yet.', type: 'server_error', param: null, code: null } });
        for (let call = 0; call < 2; call += 1) {
          const error = await failure(fresh.start(job.operation, job.input, job.model));
          expect(error.retryable).to.equal(true);
          expect(error.details.vendorStatus).to.equal(503);
        }
        expect(fresh.breakerState()).to.equal('open');

        const untouched = create().reply(200, videoObject(job.videoId, 'queued'));
        const fast = await failure(fresh.start(job.operation, job.input, job.model));
        expect(fast.retryable).to.equal(true);
        expect(fast.message).to.equal('provider partner2 is unavailable (circuit open)');
        expect(untouched.isDone()).to.equal(false);
      } finally {
        await fresh.close();
      }
    });

    it('fails permanently when the create answer has no video id', async () => {
      const { id: _id, ...withoutId } = videoObject(job.videoId, 'queued');
      create().reply(200, withoutId);

      const error = await failure(harness.start(job.operation, job.input, job.model));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('partner2: malformed response: id is missing or not a string');
    });

    it('has no cancel: the Videos API only deletes finished videos', () => {
      expect(partner2.operations[job.operation].cancel).to.equal(undefined);
    });
  });
}

describe('partner2 plugin: polling edge cases', () => {
  useNock();
  const [generate] = VIDEO_JOB_CASES;
  const task: ProviderTask = { taskId: generate.videoId, state: { output: generate.extraOutput } };
  let harness: PluginHarness;
  before(async () => {
    harness = await createPluginHarness(partner2, CONFIG);
  });
  after(() => harness.close());

  it('leaves progress out when the vendor does not report it', async () => {
    const { progress: _progress, ...withoutProgress } = videoObject(generate.videoId, 'queued');
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, withoutProgress);

    expect(await harness.status(generate.operation, task, generate.model)).to.deep.equal({ pending: {} });
  });

  it('reports a failed job without an error body with a fixed reason', async () => {
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, videoObject(generate.videoId, 'failed'));

    expect(await harness.status(generate.operation, task, generate.model)).to.deep.equal({ failed: 'partner2: the video job failed without a reason' });
  });

  it('treats a job a compatible server reports as expired as failed', async () => {
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, videoObject(generate.videoId, 'expired'));

    expect(await harness.status(generate.operation, task, generate.model)).to.deep.equal({ failed: 'partner2: the video job expired' });
  });

  it('fails permanently on a status outside the documented life cycle, and on a job without a status', async () => {
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, videoObject(generate.videoId, 'rendering'));
    const { status: _status, ...withoutStatus } = videoObject(generate.videoId, 'queued');
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, withoutStatus);

    const unknown = await failure(harness.status(generate.operation, task, generate.model));
    const missing = await failure(harness.status(generate.operation, task, generate.model));

    expect([unknown.retryable, missing.retryable]).to.deep.equal([false, false]);
    expect(unknown.message).to.equal('partner2: malformed response: unknown video status "rendering"');
    expect(missing.message).to.equal('partner2: malformed response: status is missing or not a string');
  });

  it('fails permanently when a completed job serves an empty file', async () => {
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(200, videoObject(generate.videoId, 'completed'));
    serveVideo(generate.videoId, Buffer.alloc(0));

    const error = await failure(harness.status(generate.operation, task, generate.model));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('partner2: malformed response: content is missing or not a non-empty video');
  });

  it('fails permanently with the vendor\'s message when the video is gone (404)', async () => {
    const gone = { error: { message: `Video with id '${generate.videoId}' not found.`, type: 'invalid_request_error', param: null, code: null } };
    videosApi().get(`/v1/videos/${generate.videoId}`).reply(404, gone);

    const error = await failure(harness.status(generate.operation, task, generate.model));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`partner2: ${gone.error.message} (HTTP 404 on GET /v1/videos/${generate.videoId})`);
  });
});
