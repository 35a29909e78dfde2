/**
 * LTX's failure modes on the submit and the poll: documented error bodies (`{type: "error", error: {type,
 * message}}`), Retry-After, the breaker, the send-once rule for the submit, and 2xx answers that lack what they
 * promise. The submit's documented errors are 400, 401, 402, 422, 429, 500 and 503
 * (https://docs.ltx.video/api-documentation/api-reference/async-video-generation/submit-text-to-video).
 */
import { expect } from 'chai';
import lightricksPlugin from '../../../plugins/lightricks/index.js';
import { describeVendorCallFailures, failure } from '../../support/vendor-conformance.js';
import { CONFIG, job, JOB_ID, ltxApi, ltxError, OPERATION, submitted, useLightricksHarness } from './lightricks-test-kit.js';

const MODEL = 'ltx-2-fast';
const INPUT = { prompt: 'a lighthouse in a storm', model: MODEL, duration: 6, resolution: '1080p' };
const TASK = { taskId: JOB_ID, state: { endpoint: 'text-to-video', duration: 6 } };

const SUBMIT_PATH = '/v2/text-to-video';
const JOB_PATH = `/v2/text-to-video/${JOB_ID}`;
const RATE_LIMITED = { body: ltxError('rate_limit_error', 'Rate limit exceeded') };
const OVERLOADED = { body: ltxError('overloaded_error', 'Service temporarily unavailable'), message: 'Service temporarily unavailable' };

describeVendorCallFailures(lightricksPlugin, CONFIG, [
  {
    name: `lightricks plugin: submit (POST ${SUBMIT_PATH})`,
    operation: OPERATION,
    call: (harness) => harness.start(OPERATION, INPUT, MODEL),
    method: 'POST',
    path: SUBMIT_PATH,
    endpoint: () => ltxApi().post(SUBMIT_PATH),
    answer: { status: 202, body: submitted(), gives: 'task', taskId: JOB_ID },
    rejections: [
      { status: 401, body: ltxError('authentication_error', 'Invalid API key'), message: 'Invalid API key', code: 'authentication_error' },
      { status: 402, body: ltxError('insufficient_funds_error', 'Insufficient funds. Required: 36 cents'), message: 'Insufficient funds. Required: 36 cents', code: 'insufficient_funds_error' },
      { status: 422, body: ltxError('content_filtered_error', 'The prompt was blocked by the content filter'), message: 'The prompt was blocked by the content filter', code: 'content_filtered_error' },
    ],
    rateLimited: RATE_LIMITED,
    unavailable: OVERLOADED,
    internalError: { body: ltxError('api_error', 'Internal server error'), message: 'Internal server error' },
    malformed: { status: 202, body: { created_at: '2026-01-15T10:00:00.000Z' }, message: 'lightricks: malformed response: id is missing or not a string' },
  },
  {
    name: `lightricks plugin: poll (GET ${JOB_PATH})`,
    operation: OPERATION,
    call: (harness) => harness.status(OPERATION, TASK, MODEL),
    method: 'GET',
    path: JOB_PATH,
    endpoint: () => ltxApi().get(JOB_PATH),
    answer: { body: job('processing'), gives: 'pending' },
    // A job LTX no longer knows: jobs expire 24 h after they end.
    rejections: [{ status: 404, body: ltxError('not_found_error', 'Job not found'), message: 'Job not found', code: 'not_found_error' }],
    rateLimited: RATE_LIMITED,
    unavailable: OVERLOADED,
  },
]);

describe('lightricks plugin: malformed poll answers', () => {
  const harness = useLightricksHarness();

  it('fails permanently on a poll without status, with one LTX does not document, or completed without result.video_url', async () => {
    ltxApi()
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, { id: JOB_ID })
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('exploded'))
      .get(`/v2/text-to-video/${JOB_ID}`)
      .reply(200, job('completed', { result: {} }));

    const missing = await failure(harness().status(OPERATION, TASK, MODEL));
    const unknown = await failure(harness().status(OPERATION, TASK, MODEL));
    const noVideo = await failure(harness().status(OPERATION, TASK, MODEL));

    expect([missing.retryable, unknown.retryable, noVideo.retryable]).to.deep.equal([false, false, false]);
    expect(missing.message).to.equal('lightricks: malformed response: status is missing or not a string');
    expect(unknown.message).to.equal('lightricks: malformed response: status is missing or not a known status (got "exploded")');
    expect(noVideo.message).to.equal('lightricks: malformed response: result.video_url is missing or not a string');
  });
});
