/**
 * DashScope's failure modes, on the submit call and on the poll call (they share the client and the error
 * body `{ code, message, request_id }`), and the plugin's definition.
 */
import { expect } from 'chai';
import nock from 'nock';
import dashScopePlugin from '../../../plugins/dashscope/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { API, created, dashScopeApi, failure, KEY, SUBMIT_PATH, submitApi, TASK_ID, taskAnswer, useDashScopeHarness } from './dashscope-test-kit.js';

const OPERATION = 'video.generate';
const INPUT = { prompt: 'a lighthouse in a storm', model: 'wan-2.7', duration: 5 };
const POLL_PATH = `/api/v1/tasks/${TASK_ID}`;
const HANDLE = { taskId: TASK_ID, state: { model: 'wan2.7-t2v', duration: 5, aspect_ratio: '16:9' } };

/** The two calls of a task, each as the harness makes it and as nock expects it. */
const CALLS = [
  { name: 'submit', call: (h: ReturnType<ReturnType<typeof useDashScopeHarness>>) => h.start(OPERATION, INPUT, 'wan-2.7'), endpoint: () => submitApi().post(SUBMIT_PATH), ok: created(), method: 'POST', path: SUBMIT_PATH },
  { name: 'poll', call: (h: ReturnType<ReturnType<typeof useDashScopeHarness>>) => h.status(OPERATION, HANDLE, 'wan-2.7'), endpoint: () => dashScopeApi().get(POLL_PATH), ok: taskAnswer('RUNNING'), method: 'GET', path: POLL_PATH },
];

for (const { name, call, endpoint, ok, method, path } of CALLS) {
  describe(`dashscope plugin: vendor errors on ${name} (${method} ${path})`, () => {
    const harness = useDashScopeHarness({ volume_threshold: 2 });

    it('turns a 400 into a permanent error carrying DashScope\'s message and code', async () => {
      endpoint().reply(400, { request_id: 'b3f1a2c4-0d5e-4f6a-9b7c-8d9e0f1a2b3c', code: 'InvalidParameter', message: 'The size is not match the allowed size set.' });

      const error = await failure(call(harness()));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`dashscope: The size is not match the allowed size set. (HTTP 400 on ${method} ${path})`);
      expect(error.details).to.include({ vendorStatus: 400, vendorCode: 'InvalidParameter' });
      expect(harness().sleeps).to.deep.equal([]);
    });

    it('turns a 401 (bad key) into a permanent error', async () => {
      endpoint().reply(401, { request_id: 'r-401', code: 'InvalidApiKey', message: 'Invalid API-key provided.' });

      const error = await failure(call(harness()));

      expect(error.retryable).to.equal(false);
      expect(error.details).to.include({ vendorStatus: 401, vendorCode: 'InvalidApiKey' });
    });

    it('retries a 429 after its Retry-After (7 s), then succeeds', async () => {
      const api = endpoint().reply(429, { request_id: 'r-429', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' }, { 'Retry-After': '7' });
      endpoint().reply(200, ok);

      const result = await call(harness());

      expect(result).to.satisfy((value: object) => 'task' in value || 'pending' in value);
      expect(harness().sleeps).to.deep.equal([7000]);
      expect(api.isDone() && nock.pendingMocks().length === 0).to.equal(true);
    });

    it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling DashScope', async () => {
      endpoint().times(6).reply(503, { request_id: 'r-503', code: 'ServiceUnavailable', message: 'Service temporarily unavailable.' });

      for (let attempt = 0; attempt < 2; attempt += 1) {
        const error = await failure(call(harness()));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(harness().breakerState()).to.equal('open');
      nock.cleanAll();
      const untouched = endpoint().reply(200, ok);

      const error = await failure(call(harness()));

      expect(error.retryable).to.equal(true);
      expect(error.message).to.equal('provider dashscope is unavailable (circuit open)');
      expect(untouched.isDone()).to.equal(false);
    });
  });
}

describe('dashscope plugin: malformed answers (permanent)', () => {
  const harness = useDashScopeHarness();

  it('a submit answer without output.task_id', async () => {
    submitApi().post(SUBMIT_PATH).reply(200, { request_id: 'r-1', output: { task_status: 'PENDING' } });

    const error = await failure(harness().start(OPERATION, INPUT, 'wan-2.7'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('dashscope: malformed response: output.task_id is missing or not a string');
  });

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

describe('dashscope plugin: definition', () => {
  it('serves video.generate as a polled, cancellable task', () => {
    expect(Object.keys(dashScopePlugin.operations)).to.deep.equal([OPERATION]);
    expect(dashScopePlugin.operations[OPERATION].status).to.be.a('function');
    expect(dashScopePlugin.operations[OPERATION].cancel).to.be.a('function');
  });

  it('is enabled only with an API key', () => {
    expect(dashScopePlugin.isEnabled({})).to.equal(false);
    expect(dashScopePlugin.isEnabled({ api_key: '' })).to.equal(false);
    expect(dashScopePlugin.isEnabled({ api_key: KEY })).to.equal(true);
  });

  it('has snake_case settings with the Singapore endpoint as default base URL', () => {
    const properties = dashScopePlugin.configSchema.properties as Record<string, { default?: unknown }>;
    expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
    expect(properties.base_url.default).to.equal(API);
    expect(dashScopePlugin.configSchema).to.deep.include({ additionalProperties: false });
  });

  describe('with another base URL', () => {
    before(() => nock.disableNetConnect());
    after(() => nock.enableNetConnect());
    afterEach(() => nock.cleanAll());

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
});
