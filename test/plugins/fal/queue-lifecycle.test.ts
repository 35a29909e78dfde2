/**
 * The queue life cycle of every operation the fal plugin serves, through the harness (breaker, real context):
 * the exact submit, a long wait in the queue and in progress, the result, cancel, and each failure mode on the
 * submit and on the poll.
 */
import { expect } from 'chai';
import nock from 'nock';
import falPlugin from '../../../plugins/fal/index.js';
import type { FalConfig } from '../../../plugins/fal/index.js';
import type { ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { createFakePluginContext } from '../../support/fake-plugin-context.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { failure } from '../../support/vendor-conformance.js';
import { CASES, completed, CONFIG, doneOutput, falQueue, inProgress, inQueue, KEY, queueUrls, REQUEST_ID, submitted, useFalHarness } from './fal-test-kit.js';

for (const call of CASES) {
  describe(`fal plugin: ${call.name}`, () => {
    const harness = useFalHarness();
    const task = (): ProviderTask => ({ taskId: REQUEST_ID, state: { model_id: call.modelId, ...queueUrls(call.appId) } });
    const statusPath = `/${call.appId}/requests/${REQUEST_ID}/status`;
    const resultPath = `/${call.appId}/requests/${REQUEST_ID}`;

    it('submits the input, mapped to the model\'s fields, to the full model id with the Key header', async () => {
      const api = falQueue().post(`/${call.modelId}`, call.body).matchHeader('content-type', 'application/json').reply(200, submitted(call.appId));

      const result = await harness().start(call.operation, call.input, call.model);

      expect(api.isDone()).to.equal(true);
      if (!('task' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
      expect(result.task.taskId).to.equal(REQUEST_ID);
      expect(result.task.state).to.deep.include({ model_id: call.modelId, ...queueUrls(call.appId) });
    });

    it('waits through a long queue and run (progress 0 while queued, none while running), then finishes', async () => {
      const positions = [5, 4, 3, 2, 1, 0];
      const api = falQueue();
      for (const position of positions) api.get(statusPath).reply(202, inQueue(call.appId, position));
      for (let step = 0; step < 4; step += 1) api.get(statusPath).reply(202, inProgress(call.appId, `step ${step}`));
      api.get(statusPath).reply(200, completed(call.appId)).get(resultPath).reply(200, call.result());
      await call.serveFiles();

      const progress: (number | undefined)[] = [];
      for (let poll = 0; poll < 10; poll += 1) {
        const result = await harness().status(call.operation, task(), call.model);
        if (!('pending' in result)) throw new Error(`poll ${poll}: expected pending, got ${JSON.stringify(result)}`);
        progress.push(result.pending.progress);
      }
      const output = doneOutput(await harness().status(call.operation, task(), call.model));

      expect(progress).to.deep.equal([0, 0, 0, 0, 0, 0, undefined, undefined, undefined, undefined]);
      expect(harness().checkOutput(call.operation, output)).to.deep.equal([]);
      expect(output).to.include({ task_id: REQUEST_ID, status: 'succeeded', provider: 'fal' });
      expect(api.isDone()).to.equal(true);
    });

    it('reports a request fal completed with an error as failed, with fal\'s message', async () => {
      falQueue().get(statusPath).reply(200, completed(call.appId, { error: 'Internal server error', error_type: 'runner_disconnected' }));

      expect(await harness().status(call.operation, task(), call.model)).to.deep.equal({ failed: 'fal: Internal server error (runner_disconnected)' });
    });

    it('cancels at the cancel URL fal named', async () => {
      const ctx = await createFakePluginContext<FalConfig>({ config: CONFIG });
      try {
        const api = falQueue().put(`/${call.appId}/requests/${REQUEST_ID}/cancel`).reply(202, { status: 'CANCELLATION_REQUESTED' });

        await falPlugin.operations[call.operation].cancel!(task(), ctx, harness().route(call.operation, call.model));

        expect(api.isDone()).to.equal(true);
      } finally {
        await ctx.cleanup();
      }
    });

    describe('failures', () => {
      it('fails permanently with the model\'s validation message on a 422 at submit', async () => {
        falQueue()
          .post(`/${call.modelId}`)
          .reply(422, { detail: [{ loc: ['body', 'video_url'], msg: 'Failed to download the file. Please check the URL.', type: 'file_download_error', input: 'x' }] });

        const error = await failure(harness().start(call.operation, call.input, call.model));

        expect(error.retryable).to.equal(false);
        expect(error.details).to.include({ vendorStatus: 422, vendorCode: 'file_download_error' });
        expect(error.message).to.equal(`fal: video_url: Failed to download the file. Please check the URL. (HTTP 422 on POST /${call.modelId})`);
        expect(error.message).not.to.contain(KEY);
        expect(harness().sleeps).to.deep.equal([]);
      });

      it('fails permanently with fal\'s message when the key is refused (401)', async () => {
        falQueue().post(`/${call.modelId}`).reply(401, { detail: 'Invalid Key Authorization header format' });

        const error = await failure(harness().start(call.operation, call.input, call.model));

        expect(error.retryable).to.equal(false);
        expect(error.message).to.contain('Invalid Key Authorization header format');
      });

      it('fails permanently when the result is the model\'s own error', async () => {
        falQueue()
          .get(statusPath).reply(200, completed(call.appId))
          .get(resultPath).reply(422, { detail: [{ loc: ['body', 'video_url'], msg: 'The video has no audio stream', type: 'value_error' }] });

        const error = await failure(harness().status(call.operation, task(), call.model));

        expect(error.retryable).to.equal(false);
        expect(error.message).to.contain('video_url: The video has no audio stream');
      });

      it('waits for Retry-After on a 429 at submit, then succeeds', async () => {
        const api = falQueue()
          .post(`/${call.modelId}`).reply(429, { detail: 'Too many requests' }, { 'Retry-After': '7' })
          .post(`/${call.modelId}`, call.body).reply(200, submitted(call.appId));

        const result = await harness().start(call.operation, call.input, call.model);

        expect(result).to.have.nested.property('task.taskId', REQUEST_ID);
        expect(harness().sleeps).to.deep.equal([7000]);
        expect(api.isDone()).to.equal(true);
      });

      it('waits for Retry-After on a 429 while polling, then reads the status', async () => {
        falQueue()
          .get(statusPath).reply(429, { detail: 'Too many requests' }, { 'Retry-After': '7' })
          .get(statusPath).reply(202, inQueue(call.appId, 2));

        expect(await harness().status(call.operation, task(), call.model)).to.deep.equal({ pending: { progress: 0 } });
        expect(harness().sleeps).to.deep.equal([7000]);
      });

      it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling fal', async () => {
        const fresh = await createPluginHarness(falPlugin, CONFIG, { volume_threshold: 2 });
        try {
          // Three attempts per call (the SDK's retries), two calls.
          const outage = falQueue().post(`/${call.modelId}`).times(6).reply(503, { detail: 'No runner could be allocated', error_type: 'runner_scheduling_failure' });
          for (let attempt = 0; attempt < 2; attempt += 1) {
            const error = await failure(fresh.start(call.operation, call.input, call.model));
            expect(error.retryable).to.equal(true);
            expect(error.details).to.include({ vendorStatus: 503, vendorCode: 'runner_scheduling_failure' });
          }
          expect(outage.isDone()).to.equal(true);
          expect(fresh.breakerState()).to.equal('open');

          const untouched = falQueue().post(`/${call.modelId}`).reply(200, submitted(call.appId));
          const fast = await failure(fresh.start(call.operation, call.input, call.model));
          expect(fast.retryable).to.equal(true);
          expect(fast.message).to.equal('provider fal is unavailable (circuit open)');
          expect(untouched.isDone()).to.equal(false);
        } finally {
          await fresh.close();
        }
      });

      it('fails permanently when a 2xx submit answer has no request id', async () => {
        falQueue().post(`/${call.modelId}`).reply(200, { status: 'IN_QUEUE', queue_position: 0 });

        const error = await failure(harness().start(call.operation, call.input, call.model));

        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal('fal: malformed response: request_id is missing or not a string');
      });

      it('fails permanently when a completed result lacks the output file', async () => {
        falQueue().get(statusPath).reply(200, completed(call.appId)).get(resultPath).reply(200, { seed: 42 });

        const error = await failure(harness().status(call.operation, task(), call.model));

        expect(error.retryable).to.equal(false);
        expect(error.message).to.match(/^fal: malformed response: (video_url|video\.0\.url|video\.url) is missing or not a string$/);
      });
    });
  });
}

describe('fal plugin: the queue protocol', () => {
  const harness = useFalHarness();
  const upscale = CASES.find((entry) => entry.operation === 'video.upscale')!;

  it('polls under the app id when a task carries no queue URLs', async () => {
    const api = falQueue().get(`/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}/status`).reply(202, inProgress(upscale.appId));

    expect(await harness().status('video.upscale', { taskId: REQUEST_ID, state: { model_id: upscale.modelId } })).to.deep.equal({ pending: {} });
    expect(api.isDone()).to.equal(true);
  });

  it('never sends the key to a queue URL on another host; it builds the documented path instead', async () => {
    const elsewhere = nock('https://attacker.example').get(/.*/).reply(200, {});
    const api = falQueue().get(`/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}/status`).reply(202, inQueue(upscale.appId, 1));
    const task = { taskId: REQUEST_ID, state: { model_id: upscale.modelId, status_url: `https://attacker.example/requests/${REQUEST_ID}/status` } };

    expect(await harness().status('video.upscale', task)).to.deep.equal({ pending: { progress: 0 } });
    expect(api.isDone()).to.equal(true);
    expect(elsewhere.isDone()).to.equal(false);
  });

  it('fails permanently on a queue status fal does not document', async () => {
    falQueue().get(`/fal-ai/bytedance-upscaler/requests/${REQUEST_ID}/status`).reply(200, { status: 'PAUSED', request_id: REQUEST_ID });

    const error = await failure(harness().status('video.upscale', { taskId: REQUEST_ID, state: { model_id: upscale.modelId } }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('fal: malformed response: unknown queue status "PAUSED"');
  });

  describe('cancel', () => {
    const route = { model: 'bytedance-upscaler', vendorModel: upscale.modelId, publicName: 'bytedance-upscaler' };
    const task = { taskId: REQUEST_ID, state: { model_id: upscale.modelId, ...queueUrls(upscale.appId) } };

    for (const [status, body] of [
      [400, { status: 'ALREADY_COMPLETED' }],
      [404, { status: 'NOT_FOUND' }],
    ] as const) {
      it(`takes ${body.status} (${status}) as nothing left to cancel`, async () => {
        const ctx = await createFakePluginContext<FalConfig>({ config: CONFIG });
        try {
          falQueue().put(`/${upscale.appId}/requests/${REQUEST_ID}/cancel`).reply(status, body);
          await falPlugin.operations['video.upscale'].cancel!(task, ctx, route);
        } finally {
          await ctx.cleanup();
        }
      });
    }

    it('passes any other refusal on', async () => {
      const ctx = await createFakePluginContext<FalConfig>({ config: CONFIG });
      try {
        falQueue().put(`/${upscale.appId}/requests/${REQUEST_ID}/cancel`).reply(403, { detail: 'Not authorized to cancel this request' });
        const error = await failure(falPlugin.operations['video.upscale'].cancel!(task, ctx, route));
        expect(error.retryable).to.equal(false);
        expect(error.message).to.contain('Not authorized to cancel this request');
      } finally {
        await ctx.cleanup();
      }
    });
  });
});
