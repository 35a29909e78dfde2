/**
 * Kling's failure modes, for each operation of the plugin: the create call and the poll call share the
 * client and the envelope, so each case runs against both endpoints.
 */
import { expect } from 'chai';
import nock from 'nock';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { envelope, failure, klingApi, submitted, useKlingHarness } from './kling-test-kit.js';

const TASK_ID = 'CjMT7WdSwWcAAAAAALvB3g';

const CASES: { operation: string; model?: string; path: string; input: JsonObject }[] = [
  { operation: 'image.generate', model: 'kling-image', path: '/v1/images/generations', input: { prompt: 'a lighthouse', model: 'kling-image' } },
  { operation: 'smartmotion.generate', path: '/v1/videos/image2video', input: { file_url: 'https://example.com/a.jpg', content_type: 'image/jpeg', duration: 5, motion: 'down_back' } },
  { operation: 'video.generate', model: 'kling-2.6', path: '/v1/videos/text2video', input: { prompt: 'a lighthouse', model: 'kling-2.6', duration: 5 } },
  { operation: 'video.generate', model: 'kling-2.5-turbo', path: '/v1/videos/image2video', input: { prompt: 'a lighthouse', model: 'kling-2.5-turbo', image_url: 'https://example.com/a.png' } },
];

for (const { operation, model, path, input } of CASES) {
  describe(`kling plugin: vendor errors on ${operation} (${path})`, () => {
    const harness = useKlingHarness({ volume_threshold: 2 });

    it('turns an HTTP 400 into a permanent error carrying Kling\'s message and code', async () => {
      klingApi().post(path).reply(400, { code: 1201, message: 'Invalid parameter: aspect_ratio', request_id: 'req-1' });

      const error = await failure(harness().start(operation, input, model));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`kling: Invalid parameter: aspect_ratio (HTTP 400 on POST ${path})`);
      expect(error.details).to.include({ vendorStatus: 400, vendorCode: '1201' });
      expect(harness().sleeps).to.deep.equal([]);
    });

    it('turns HTTP 200 with a non-zero code into a permanent error (content policy 1301)', async () => {
      klingApi().post(path).reply(200, { code: 1301, message: 'Trigger the content security policy of the platform', request_id: 'req-2' });

      const error = await failure(harness().start(operation, input, model));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`kling: Trigger the content security policy of the platform (code 1301 on POST ${path})`);
      expect(error.details).to.include({ vendorStatus: 200, vendorCode: '1301' });
    });

    it('keeps HTTP 200 with a concurrency code (1303) retryable', async () => {
      klingApi().post(path).reply(200, { code: 1303, message: 'parallel task over resource pack limit', request_id: 'req-3' });

      const error = await failure(harness().start(operation, input, model));

      expect(error.retryable).to.equal(true);
      expect(error.details.vendorCode).to.equal('1303');
    });

    it('retries a 429 after its Retry-After (7 s), then succeeds', async () => {
      const api = klingApi()
        .post(path)
        .reply(429, { code: 1302, message: 'The API request is too fast', request_id: 'req-4' }, { 'Retry-After': '7' })
        .post(path)
        .reply(200, submitted(TASK_ID));

      const result = await harness().start(operation, input, model);

      expect(result).to.have.nested.property('task.taskId', TASK_ID);
      expect(harness().sleeps).to.deep.equal([7000]);
      expect(api.isDone()).to.equal(true);
    });

    it('opens the breaker after a burst of 503s, then fails fast (retryable) without calling Kling', async () => {
      klingApi().post(path).times(6).reply(503, { code: 5001, message: 'Server temporarily unavailable', request_id: 'req-5' });

      for (let call = 0; call < 2; call += 1) {
        const error = await failure(harness().start(operation, input, model));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(harness().breakerState()).to.equal('open');
      nock.cleanAll();
      const untouched = klingApi().post(path).reply(200, submitted(TASK_ID));

      const error = await failure(harness().start(operation, input, model));

      expect(error.retryable).to.equal(true);
      expect(error.message).to.equal('provider kling is unavailable (circuit open)');
      expect(untouched.isDone()).to.equal(false);
    });

    it('fails permanently on a create answer without data.task_id', async () => {
      klingApi().post(path).reply(200, envelope({ task_status: 'submitted' }));

      const error = await failure(harness().start(operation, input, model));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('kling: malformed response: data.task_id is missing or not a string');
    });

    it('fails permanently on a query answer without data.task_status, or with one Kling does not document', async () => {
      klingApi()
        .get(`${path}/${TASK_ID}`)
        .reply(200, envelope({ task_id: TASK_ID }))
        .get(`${path}/${TASK_ID}`)
        .reply(200, envelope({ task_id: TASK_ID, task_status: 'exploded' }));

      const missing = await failure(harness().status(operation, { taskId: TASK_ID, state: taskState(path) }, model));
      const unknown = await failure(harness().status(operation, { taskId: TASK_ID, state: taskState(path) }, model));

      expect([missing.retryable, unknown.retryable]).to.deep.equal([false, false]);
      expect(missing.message).to.equal('kling: malformed response: data.task_status is missing or not a string');
      expect(unknown.message).to.equal('kling: malformed response: unknown data.task_status "exploded"');
    });

    it('fails permanently on a succeeded task without its result URL', async () => {
      klingApi().get(`${path}/${TASK_ID}`).reply(200, envelope({ task_id: TASK_ID, task_status: 'succeed', task_result: {} }));

      const error = await failure(harness().status(operation, { taskId: TASK_ID, state: taskState(path) }, model));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/^kling: malformed response: data\.task_result\.(images|videos\.0\.url) is missing/);
    });
  });
}

/** The state start leaves for the task: video.generate names the endpoint it created the task at. */
function taskState(path: string): JsonObject {
  return { path: path.slice(1) };
}
