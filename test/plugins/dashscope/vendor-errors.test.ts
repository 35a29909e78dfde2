/**
 * DashScope's failure modes, on the Wan submit call and on the poll call (they share the client and the error
 * body `{ code, message, request_id }`), and the plugin's definition.
 */
import { expect } from 'chai';
import nock from 'nock';
import dashScopePlugin from '../../../plugins/dashscope/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { describePluginBasics, describeVendorCallFailures, useNock } from '../../support/vendor-conformance.js';
import { API, CONFIG, created, dashScopeApi, failure, KEY, SUBMIT_PATH, submitApi, TASK_ID, taskAnswer, useDashScopeHarness } from './dashscope-test-kit.js';

const OPERATION = 'video.generate';
const INPUT = { prompt: 'a lighthouse in a storm', model: 'wan-2.7', duration: 5 };
const POLL_PATH = `/api/v1/tasks/${TASK_ID}`;
const HANDLE = { taskId: TASK_ID, state: { model: 'wan2.7-t2v', duration: 5, aspect_ratio: '16:9' } };

/** DashScope's error body, `{ request_id, code, message }`. */
function dashScopeError(code: string, message: string, requestId: string): { body: Record<string, unknown>; message: string } {
  return { body: { request_id: requestId, code, message }, message };
}

const WAN_FAILURES = {
  operation: OPERATION,
  rejections: [
    { status: 400, ...dashScopeError('InvalidParameter', 'The size is not match the allowed size set.', 'b3f1a2c4-0d5e-4f6a-9b7c-8d9e0f1a2b3c'), code: 'InvalidParameter' },
    { status: 401, ...dashScopeError('InvalidApiKey', 'Invalid API-key provided.', 'r-401'), code: 'InvalidApiKey' },
  ],
  rateLimited: dashScopeError('Throttling.RateQuota', 'Requests rate limit exceeded, please try again later.', 'r-429'),
  unavailable: dashScopeError('ServiceUnavailable', 'Service temporarily unavailable.', 'r-503'),
};

describeVendorCallFailures(dashScopePlugin, CONFIG, [
  {
    name: `dashscope plugin: Wan submit (POST ${SUBMIT_PATH})`,
    call: (harness) => harness.start(OPERATION, INPUT, 'wan-2.7'),
    method: 'POST',
    path: SUBMIT_PATH,
    endpoint: () => submitApi().post(SUBMIT_PATH),
    answer: { body: created(), gives: 'task', taskId: TASK_ID },
    internalError: dashScopeError('InternalError', 'An internal error has occured, please try again later.', 'r-500'),
    malformed: { body: { request_id: 'r-1', output: { task_status: 'PENDING' } }, message: 'dashscope: malformed response: output.task_id is missing or not a string' },
    ...WAN_FAILURES,
  },
  {
    name: `dashscope plugin: Wan poll (GET ${POLL_PATH})`,
    call: (harness) => harness.status(OPERATION, HANDLE, 'wan-2.7'),
    method: 'GET',
    path: POLL_PATH,
    endpoint: () => dashScopeApi().get(POLL_PATH),
    answer: { body: taskAnswer('RUNNING'), gives: 'pending' },
    ...WAN_FAILURES,
  },
]);

describe('dashscope plugin: malformed answers (permanent)', () => {
  const harness = useDashScopeHarness();

  it('a poll answer without output.task_status, or with one DashScope does not document', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, { request_id: 'r-2', output: { task_id: TASK_ID } }).get(POLL_PATH).reply(200, taskAnswer('EXPLODED'));

    const missing = await failure(harness().status(OPERATION, HANDLE, 'wan-2.7'));
    const unknown = await failure(harness().status(OPERATION, HANDLE, 'wan-2.7'));

    expect([missing.retryable, unknown.retryable]).to.deep.equal([false, false]);
    expect(missing.message).to.equal('dashscope: malformed response: output.task_status is missing or not a string');
    expect(unknown.message).to.equal('dashscope: malformed response: unknown output.task_status "EXPLODED"');
  });

  it('a succeeded task without output.video_url', async () => {
    dashScopeApi().get(POLL_PATH).reply(200, taskAnswer('SUCCEEDED', {}, { video_count: 1, video_duration: 5 }));

    const error = await failure(harness().status(OPERATION, HANDLE, 'wan-2.7'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('dashscope: malformed response: output.video_url is missing or not a string');
  });
});

describePluginBasics(dashScopePlugin, {
  operations: ['image.generate', 'image.edit'],
  polled: ['video.generate', 'video.extend'],
  // A Wan task can be cancelled while it is queued (video.extend runs as one); the Qwen calls answer at once.
  cancellable: ['video.generate', 'video.extend'],
  defaultBaseUrl: API,
  config: CONFIG,
});

describe('dashscope plugin: with another base URL', () => {
  useNock();

  it('keeps its path prefix (a workspace domain, another region, or a proxy)', async () => {
    const harness = await createPluginHarness(dashScopePlugin, { api_key: KEY, base_url: 'https://wan-proxy.example.com/dashscope' });
    const api = nock('https://wan-proxy.example.com', { reqheaders: { authorization: `Bearer ${KEY}`, 'x-dashscope-async': 'enable' } })
      .post(`/dashscope${SUBMIT_PATH}`)
      .reply(200, created());
    try {
      expect(await harness.start(OPERATION, INPUT, 'wan-2.7')).to.have.nested.property('task.taskId', TASK_ID);
      expect(api.isDone()).to.equal(true);
    } finally {
      await harness.close();
    }
  });
});
