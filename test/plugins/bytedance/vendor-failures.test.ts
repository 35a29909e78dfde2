/**
 * ModelArk's failure modes on every call the plugin makes: the Seedream generation (image.generate and
 * image.edit, through the shared vendor failure suite), the Seedance create and poll calls, an exhausted quota,
 * and malformed 2xx answers.
 */
import { expect } from 'chai';
import nock from 'nock';
import bytedancePlugin from '../../../plugins/bytedance/index.js';
import { describeVendorCallFailures, describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';
import {
  arkApi,
  AUTHENTICATION_ERROR,
  CONFIG,
  created,
  failure,
  IMAGES_PATH,
  imagesResponse,
  INPUTS,
  TASK_ID,
  TASK_PATH,
  TASKS_PATH,
  taskAnswer,
  TOS,
  useBytedanceHarness,
} from './bytedance-test-kit.js';

const OPERATION = 'video.generate';
const MODEL = 'seedance-1-pro';
const VIDEO_INPUT = { prompt: 'a lighthouse in a storm', model: MODEL, duration: 5, resolution: '1080p' };
const HANDLE = { taskId: TASK_ID, state: { duration: 5, aspect_ratio: '16:9' } };

describe('bytedance plugin: Seedream vendor failures', () => {
  const shared = {
    model: 'seedream-4',
    endpoint: () => arkApi().post(IMAGES_PATH),
    success: imagesResponse([{ url: `${TOS}/seedream-4-0/never-fetched_0.jpeg`, size: '1024x1024' }]),
    // A 2xx with neither images nor an error.
    malformed: { model: 'seedream-4-0-250828', created: 1757469067, usage: { generated_images: 0 } },
    malformedMessage: 'bytedance: malformed response: data is missing or not a array',
    rejection: { status: 401, body: AUTHENTICATION_ERROR, message: AUTHENTICATION_ERROR.error.message },
  };
  // The 429 case finishes with an image to host.
  // Optional, so the suite's "no call left unmade" checks do not wait for it in the tests that never host.
  beforeEach(() => void nock(TOS).persist().get('/seedream-4-0/never-fetched_0.jpeg').optionally().reply(200, TINY_PNG));
  describeVendorFailures(bytedancePlugin, CONFIG, [
    { name: 'image.generate', operation: 'image.generate', input: { prompt: 'a red bicycle', model: 'seedream-4' }, ...shared },
    {
      name: 'image.edit',
      operation: 'image.edit',
      input: { prompt: 'make it blue', image_url: `${INPUTS}/inputs/source.png`, model: 'seedream-4' },
      inputs: () => void nock(INPUTS).persist().get('/inputs/source.png').reply(200, TINY_PNG, { 'content-type': 'image/png' }),
      ...shared,
    },
  ]);
});

/** ModelArk's error body (https://docs.byteplus.com/en/docs/ModelArk/1299023). */
function arkError(code: string, message: string, type: string, param = ''): { body: Record<string, unknown>; message: string } {
  return { body: { error: { code, message, param, type } }, message };
}

const INVALID_DURATION = arkError('InvalidParameter', 'The parameter `duration` specified in the request is not valid. Request id: 0217561918', 'BadRequest', 'duration');
const SEEDANCE_FAILURES = {
  operation: OPERATION,
  rejections: [{ status: 400, ...INVALID_DURATION, code: 'InvalidParameter' }],
  rateLimited: arkError('RateLimitExceeded.EndpointRPMExceeded', 'The Requests Per Minute (RPM) limit of the associated endpoint for your account has been exceeded.', 'TooManyRequests'),
  unavailable: arkError('ServiceUnavailable', 'The service is temporarily unavailable.', 'ServiceUnavailable'),
};

describeVendorCallFailures(bytedancePlugin, CONFIG, [
  {
    name: `bytedance plugin: Seedance create (POST ${TASKS_PATH})`,
    call: (harness) => harness.start(OPERATION, VIDEO_INPUT, MODEL),
    method: 'POST',
    path: TASKS_PATH,
    endpoint: () => arkApi().post(TASKS_PATH),
    answer: { body: created(), gives: 'task', taskId: TASK_ID },
    internalError: arkError('InternalServiceError', 'The service encountered an unexpected internal error.', 'InternalServerError'),
    malformed: { body: {}, message: 'bytedance: malformed response: id is missing or not a string' },
    ...SEEDANCE_FAILURES,
  },
  {
    name: `bytedance plugin: Seedance poll (GET ${TASK_PATH})`,
    call: (harness) => harness.status(OPERATION, HANDLE, MODEL),
    method: 'GET',
    path: TASK_PATH,
    endpoint: () => arkApi().get(TASK_PATH),
    answer: { body: taskAnswer('running'), gives: 'pending' },
    ...SEEDANCE_FAILURES,
  },
]);

describe('bytedance plugin: an exhausted quota', () => {
  const harness = useBytedanceHarness();

  it('treats a 429 ModelQuotaExhausted as permanent, without waiting: no wait revives a suspended model service', async () => {
    const quota = { error: { code: 'ModelQuotaExhausted', message: 'Your account has exhausted its free token quota for this model.', param: '', type: 'TooManyRequests' } };
    arkApi().post(IMAGES_PATH).reply(429, quota, { 'Retry-After': '7' });

    const error = await failure(harness().start('image.generate', { prompt: 'a fox', model: 'seedream-4' }, 'seedream-4'));

    expect(error.retryable).to.equal(false);
    expect(error.details).to.include({ vendorStatus: 429, vendorCode: 'ModelQuotaExhausted' });
    expect(error.message).to.contain(quota.error.message);
    expect(harness().sleeps).to.deep.equal([]);
  });
});

describe('bytedance plugin: malformed Seedance answers (permanent)', () => {
  const harness = useBytedanceHarness();

  it('a poll answer without a status, or with one ModelArk does not document', async () => {
    arkApi().get(TASK_PATH).reply(200, { id: TASK_ID }).get(TASK_PATH).reply(200, taskAnswer('exploded'));

    const missing = await failure(harness().status(OPERATION, HANDLE, MODEL));
    const unknown = await failure(harness().status(OPERATION, HANDLE, MODEL));

    expect([missing.retryable, unknown.retryable]).to.deep.equal([false, false]);
    expect(missing.message).to.equal('bytedance: malformed response: status is missing or not a string');
    expect(unknown.message).to.equal('bytedance: malformed response: unknown status "exploded"');
  });

  it('a succeeded task without content.video_url', async () => {
    arkApi().get(TASK_PATH).reply(200, taskAnswer('succeeded', { content: {} }));

    const error = await failure(harness().status(OPERATION, HANDLE, MODEL));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('bytedance: malformed response: content.video_url is missing or not a string');
  });
});
