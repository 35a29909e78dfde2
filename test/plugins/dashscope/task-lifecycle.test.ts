/**
 * A Wan task after submission: polling (queued, running, finished, failed, cancelled, unknown), hosting the
 * clip, and cancelling a queued task.
 */
import { expect } from 'chai';
import nock from 'nock';
import dashScopePlugin, { type DashScopeConfig } from '../../../plugins/dashscope/index.js';
import { createFakePluginContext, type FakePluginContext } from '../../support/fake-plugin-context.js';
import { expectVideoOutput } from '../../support/vendor-conformance.js';
import { CONFIG, dashScopeApi, failure, MP4, OSS, succeeded, TASK_ID, taskAnswer, useDashScopeHarness, VIDEO_PATH, VIDEO_QUERY } from './dashscope-test-kit.js';

const OPERATION = 'video.generate';
const POLL_PATH = `/api/v1/tasks/${TASK_ID}`;
const HANDLE = { taskId: TASK_ID, state: { model: 'wan2.7-t2v', duration: 8, aspect_ratio: '9:16' } };

describe('dashscope plugin: video.generate task', () => {
  const harness = useDashScopeHarness();

  it('reports a queued task as 0 % and a running one without progress (DashScope reports none) through a long render, then hosts the clip', async () => {
    const statuses = ['PENDING', 'PENDING', 'PENDING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING', 'RUNNING'];
    const api = dashScopeApi();
    for (const status of statuses) api.get(POLL_PATH).reply(200, taskAnswer(status));
    api.get(POLL_PATH).reply(200, succeeded({ video_count: 1, video_duration: 8 }));
    const oss = nock(OSS).get(VIDEO_PATH).query(VIDEO_QUERY).reply(200, MP4, { 'content-type': 'application/octet-stream' });

    const pending = [];
    for (let poll = 0; poll < statuses.length; poll += 1) pending.push(await harness().status(OPERATION, HANDLE, 'wan-2.7'));
    const result = await harness().status(OPERATION, HANDLE, 'wan-2.7');

    expect(pending).to.deep.equal([...Array(3).fill({ pending: { progress: 0 } }), ...Array(7).fill({ pending: {} })]);
    await expectVideoOutput(harness(), OPERATION, result, { taskId: TASK_ID, provider: 'dashscope', model: 'wan-2.7', fields: { duration: 8, aspect_ratio: '9:16' } }, MP4);
    expect(api.isDone() && oss.isDone()).to.equal(true);
  });

  it('states the rendered length of a reference run (usage.output_video_duration, not the billed input + output)', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, succeeded({ duration: 15, input_video_duration: 5, output_video_duration: 10, video_count: 1, audio: true, SR: 720 }));
    nock(OSS).get(VIDEO_PATH).query(VIDEO_QUERY).reply(200, MP4);

    const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { model: 'wan2.7-r2v', duration: 10, aspect_ratio: '16:9' } }, 'wan-2.7');

    expect(result).to.have.nested.property('done.duration', 10);
  });

  it('states the asked length when the finished task has no usage block', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, succeeded(null));
    nock(OSS).get(VIDEO_PATH).query(VIDEO_QUERY).reply(200, MP4);

    const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { model: 'wan2.2-kf2v-flash', duration: 5, aspect_ratio: '16:9' } }, 'wan-2.6');

    expect(result).to.have.nested.property('done.duration', 5);
    expect(result).to.have.nested.property('done.model', 'wan-2.6');
  });

  it('reports a failed task with the vendor\'s message and code', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, taskAnswer('FAILED', { code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' }));

    expect(await harness().status(OPERATION, HANDLE, 'wan-2.7')).to.deep.equal({ failed: 'dashscope: Input data may contain inappropriate content. (DataInspectionFailed)' });
  });

  it('reports a cancelled task, and one DashScope no longer knows, as failed', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, taskAnswer('CANCELED')).get(POLL_PATH).reply(200, taskAnswer('UNKNOWN'));

    expect(await harness().status(OPERATION, HANDLE, 'wan-2.7')).to.deep.equal({ failed: 'dashscope: the task was cancelled' });
    expect(await harness().status(OPERATION, HANDLE, 'wan-2.7')).to.deep.equal({ failed: 'dashscope: DashScope does not know the task (task ids expire 24 hours after creation)' });
  });

  describe('cancel', () => {
    // The harness drives start and status only; cancel needs nothing but the vendor client.
    let ctx: FakePluginContext<DashScopeConfig>;
    const route = { model: 'wan-2.7', vendorModel: 'wan2.7-t2v', publicName: 'wan-2.7' };
    beforeEach(async () => void (ctx = await createFakePluginContext<DashScopeConfig>({ config: CONFIG, operation: OPERATION })));
    afterEach(() => ctx.cleanup());

    it('cancels the task with POST /api/v1/tasks/{task_id}/cancel', async () => {
      const api = dashScopeApi().post(`${POLL_PATH}/cancel`).reply(200, { request_id: '6e8f4a2b-1c3d-4e5f-8a9b-0c1d2e3f4a5b' });

      await dashScopePlugin.operations[OPERATION].cancel!(HANDLE, ctx, route);

      expect(api.isDone()).to.equal(true);
    });

    it('passes on the vendor\'s refusal (only queued tasks can be cancelled) as a permanent error', async () => {
      dashScopeApi().post(`${POLL_PATH}/cancel`).reply(400, { request_id: 'r-1', code: 'UnsupportedOperation', message: 'Failed to cancel the task, please confirm if the task is in PENDING status.' });

      const error = await failure(dashScopePlugin.operations[OPERATION].cancel!(HANDLE, ctx, route));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`dashscope: Failed to cancel the task, please confirm if the task is in PENDING status. (HTTP 400 on POST ${POLL_PATH}/cancel)`);
      expect(error.details.vendorCode).to.equal('UnsupportedOperation');
    });
  });
});
