/**
 * MiniMax's failure modes on the create, query and file calls: HTTP errors, refusals inside a 200 envelope
 * (`base_resp.status_code`, https://platform.minimax.io/docs/api-reference/errorcode), Retry-After, the breaker,
 * the send-once rule for the create, and 2xx answers that lack what they promise.
 */
import { expect } from 'chai';
import minimaxPlugin from '../../../plugins/minimax/index.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { describeVendorCallFailures, failure } from '../../support/vendor-conformance.js';
import { baseResp, CONFIG, created, FILE_ID, minimaxApi, MODEL, OPERATION, queried, succeeded, TASK_ID, useMinimaxHarness } from './minimax-test-kit.js';

const INPUT = { prompt: 'a lighthouse in a storm', model: MODEL, duration: 6, resolution: '768p' };
const TASK = { taskId: TASK_ID, state: { duration: 6, aspect_ratio: '16:9' } };
const LOGIN_FAIL = 'login fail: Please carry the API secret key in the Authorization field';

describeVendorCallFailures(minimaxPlugin, CONFIG, [
  {
    name: 'minimax plugin: create (POST /v1/video_generation)',
    operation: OPERATION,
    call: (harness) => harness.start(OPERATION, INPUT, MODEL),
    method: 'POST',
    path: '/v1/video_generation',
    endpoint: () => minimaxApi().post('/v1/video_generation'),
    answer: { body: created(), gives: 'task', taskId: TASK_ID },
    rejections: [{ status: 401, body: baseResp(1004, LOGIN_FAIL), message: LOGIN_FAIL, code: '1004' }],
    rateLimited: { body: baseResp(1002, 'rate limit') },
    // A gateway in front of MiniMax answers without base_resp: its own error body is read instead.
    unavailable: { body: { error: { message: 'The service is currently unavailable.' } }, message: 'The service is currently unavailable.' },
    internalError: { body: baseResp(1000, 'unknown error'), message: 'unknown error' },
  },
  {
    name: 'minimax plugin: query (GET /v1/query/video_generation)',
    operation: OPERATION,
    call: (harness) => harness.status(OPERATION, TASK, MODEL),
    method: 'GET',
    path: '/v1/query/video_generation',
    endpoint: () => minimaxApi().get('/v1/query/video_generation').query({ task_id: TASK_ID }),
    answer: { body: queried('Processing'), gives: 'pending' },
    rejections: [{ status: 401, body: baseResp(1004, LOGIN_FAIL), message: LOGIN_FAIL, code: '1004' }],
    rateLimited: { body: baseResp(1002, 'rate limit') },
    unavailable: { body: baseResp(1001, 'request timeout'), message: 'request timeout' },
  },
]);

describe('minimax plugin: refusals inside a 200 envelope, and malformed create answers', () => {
  const harness = useMinimaxHarness();

  it('turns HTTP 200 with a non-zero base_resp into a permanent refusal (insufficient balance 1008)', async () => {
    minimaxApi().post('/v1/video_generation').reply(200, { task_id: '', ...baseResp(1008, 'insufficient balance') });

    const error = await failure(harness().start(OPERATION, INPUT, MODEL));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('minimax: insufficient balance (code 1008 on POST /v1/video_generation)');
    expect(error.details).to.include({ vendorStatus: 200, vendorCode: '1008', refused: true });
  });

  it('keeps HTTP 200 with the rate-limit code (1002) retryable, as a refusal (no job was made)', async () => {
    minimaxApi().post('/v1/video_generation').reply(200, baseResp(1002, 'rate limit'));

    const error = await failure(harness().start(OPERATION, INPUT, MODEL));

    expect(error.retryable).to.equal(true);
    expect(ProviderError.isOutcomeUnknown(error)).to.equal(false);
    expect(error.details).to.include({ vendorCode: '1002', refused: true });
  });

  it('fails permanently on a create answer without task_id, or without base_resp', async () => {
    minimaxApi().post('/v1/video_generation').reply(200, baseResp()).post('/v1/video_generation').reply(200, { task_id: TASK_ID });

    const missingTask = await failure(harness().start(OPERATION, INPUT, MODEL));
    const missingEnvelope = await failure(harness().start(OPERATION, INPUT, MODEL));

    expect([missingTask.retryable, missingEnvelope.retryable]).to.deep.equal([false, false]);
    expect(missingTask.message).to.equal('minimax: malformed response: task_id is missing or not a string');
    expect(missingEnvelope.message).to.equal('minimax: malformed response: base_resp.status_code is missing or not a number');
  });
});

describe('minimax plugin: refusals and malformed answers while polling', () => {
  const harness = useMinimaxHarness();

  it('turns a query refused in the envelope into an error by its code (auth 1004 permanent, system error 1033 retryable)', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, { task_id: TASK_ID, ...baseResp(1004, 'invalid api key') })
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, { ...baseResp(1033, 'system error') });

    const auth = await failure(harness().status(OPERATION, TASK, MODEL));
    const system = await failure(harness().status(OPERATION, TASK, MODEL));

    expect(auth.retryable).to.equal(false);
    expect(auth.message).to.equal('minimax: invalid api key (code 1004 on GET /v1/query/video_generation)');
    expect(system.retryable).to.equal(true);
  });

  it('fails permanently on a query without status, or with one MiniMax does not document', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, { task_id: TASK_ID, ...baseResp() })
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Exploded'));

    const missing = await failure(harness().status(OPERATION, TASK, MODEL));
    const unknown = await failure(harness().status(OPERATION, TASK, MODEL));

    expect([missing.retryable, unknown.retryable]).to.deep.equal([false, false]);
    expect(missing.message).to.equal('minimax: malformed response: status is missing or not a string');
    expect(unknown.message).to.equal('minimax: malformed response: status is missing or not a known status (got "Exploded")');
  });

  it('fails permanently on a succeeded task without file_id, and on a file answer without download_url', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Success'))
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, succeeded())
      .get('/v1/files/retrieve')
      .query({ file_id: FILE_ID })
      .reply(200, { file: { file_id: FILE_ID, purpose: 'video_generation' }, ...baseResp() });

    const noFile = await failure(harness().status(OPERATION, TASK, MODEL));
    const noLink = await failure(harness().status(OPERATION, TASK, MODEL));

    expect([noFile.retryable, noLink.retryable]).to.deep.equal([false, false]);
    expect(noFile.message).to.equal('minimax: malformed response: file_id is missing or not a string');
    expect(noLink.message).to.equal('minimax: malformed response: file.download_url is missing or not a string');
  });
});
