/**
 * Veo's failure modes on each call of a run (the predictLongRunning submit, the operation poll, the video
 * download), which share the Gemini API client and Google's error body, and malformed answers. The plugin's
 * definition, with its polled operation beside the synchronous image operations, is in plugin-definition.test.ts.
 */
import { expect } from 'chai';
import google from '../../../plugins/google/index.js';
import type { ProviderError, ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { describeVendorCallFailures, failure, useHarnessPerTest } from '../../support/vendor-conformance.js';
import { API_KEY_INVALID, CONFIG, geminiApi } from './google-test-kit.js';
import { DOWNLOAD_PATH, finished, MP4, OPERATION, OPERATION_NAME, POLL_PATH, running, SUBMIT_PATH, submitted } from './veo-test-kit.js';

const INPUT = { prompt: 'a lighthouse in a storm', model: 'veo-3.1' };
const HANDLE: ProviderTask = { taskId: OPERATION_NAME, state: { duration: 8, aspect_ratio: '16:9' } };

/** Google's error body for `status` (google.rpc.Status). */
function googleError(code: number, message: string, status: string): { body: Record<string, unknown>; message: string } {
  return { body: { error: { code, message, status } }, message };
}

const GOOGLE_FAILURES = {
  operation: OPERATION,
  rejections: [{ status: 400, body: API_KEY_INVALID, message: API_KEY_INVALID.error.message, code: 'INVALID_ARGUMENT' }],
  rateLimited: googleError(429, 'Resource has been exhausted (e.g. check quota).', 'RESOURCE_EXHAUSTED'),
  unavailable: googleError(503, 'The service is currently unavailable.', 'UNAVAILABLE'),
};

describeVendorCallFailures(google, CONFIG, [
  {
    name: `google plugin: Veo submit (POST ${SUBMIT_PATH})`,
    call: (harness) => harness.start(OPERATION, INPUT, 'veo-3.1'),
    method: 'POST',
    path: SUBMIT_PATH,
    endpoint: () => geminiApi().post(SUBMIT_PATH),
    answer: { body: submitted(), gives: 'task', taskId: OPERATION_NAME },
    internalError: googleError(500, 'Internal error encountered.', 'INTERNAL'),
    malformed: { body: { metadata: {} }, message: 'google: malformed response: name is missing or not a string' },
    ...GOOGLE_FAILURES,
  },
  {
    name: `google plugin: Veo poll (GET ${POLL_PATH})`,
    call: (harness) => harness.status(OPERATION, HANDLE, 'veo-3.1'),
    method: 'GET',
    path: POLL_PATH,
    endpoint: () => geminiApi().get(POLL_PATH),
    answer: { body: running(), gives: 'pending' },
    ...GOOGLE_FAILURES,
  },
  {
    name: `google plugin: Veo download (GET ${DOWNLOAD_PATH})`,
    call: (harness) => harness.status(OPERATION, HANDLE, 'veo-3.1'),
    method: 'GET',
    path: DOWNLOAD_PATH,
    endpoint: () => geminiApi().get(DOWNLOAD_PATH).query({ alt: 'media' }),
    // The poll that finds the operation done comes first in every run.
    earlier: () => void geminiApi().get(POLL_PATH).reply(200, finished()),
    answer: { body: MP4, gives: 'done' },
    ...GOOGLE_FAILURES,
  },
]);

describe('google plugin: Veo malformed answers (permanent)', () => {
  const harness = useHarnessPerTest(google, CONFIG);

  async function statusFailure(answer: Record<string, unknown>): Promise<ProviderError> {
    geminiApi().get(POLL_PATH).reply(200, answer);
    return failure(harness().status(OPERATION, HANDLE, 'veo-3.1'));
  }

  it('a poll answer that is not an operation', async () => {
    const error = await statusFailure({ done: true });

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('google: malformed response: name is missing or not a string');
  });

  it('a done operation with neither a video nor a filter report', async () => {
    const error = await statusFailure({ name: OPERATION_NAME, done: true, response: { generateVideoResponse: { generatedSamples: [] } } });

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('google: malformed response: response.generateVideoResponse.generatedSamples.0.video.uri is missing or not a string');
  });

  it('a video URI that names no file', async () => {
    const error = await statusFailure(finished('https://generativelanguage.googleapis.com/v1beta/videos/abc'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('google: malformed response: response.generateVideoResponse.generatedSamples.0.video.uri (a files/{id} URI) is missing or not a string');
  });

  it('an empty download', async () => {
    geminiApi().get(POLL_PATH).reply(200, finished()).get(DOWNLOAD_PATH).query({ alt: 'media' }).reply(200, Buffer.alloc(0));

    const error = await failure(harness().status(OPERATION, HANDLE, 'veo-3.1'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('google: malformed response: video download is missing or not a non-empty video');
  });
});
