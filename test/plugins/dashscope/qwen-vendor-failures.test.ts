/**
 * DashScope's failure modes on the synchronous Qwen image call, for image.generate and image.edit alike (they
 * share the endpoint, the client and the error body `{ code, message, request_id }`); malformed answers; and
 * the render's timeout. The plugin's definition is in vendor-errors.test.ts.
 */
import { expect } from 'chai';
import dashScopePlugin from '../../../plugins/dashscope/index.js';
import { ProviderError, type JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { describeVendorCallFailures, TINY_PNG, useNock, type VendorCallCase } from '../../support/vendor-conformance.js';
import { CONFIG, failure } from './dashscope-test-kit.js';
import { generationApi, GENERATION_PATH, rendered, serveImage } from './qwen-test-kit.js';

const CASES: Array<{ operation: string; model: string; input: JsonObject }> = [
  { operation: 'image.generate', model: 'qwen-image', input: { prompt: 'a lighthouse in a storm', model: 'qwen-image' } },
  { operation: 'image.edit', model: 'qwen-image-edit', input: { prompt: 'make it night', image_url: 'https://example.com/inputs/source.png', model: 'qwen-image-edit' } },
];

describeVendorCallFailures(
  dashScopePlugin,
  CONFIG,
  CASES.map(({ operation, model, input }): VendorCallCase => ({
    name: `dashscope plugin: ${operation} (POST ${GENERATION_PATH})`,
    operation,
    call: (harness) => harness.start(operation, input, model),
    method: 'POST',
    path: GENERATION_PATH,
    endpoint: () => generationApi().post(GENERATION_PATH),
    answer: { body: rendered(), gives: 'done', follow: () => void serveImage(TINY_PNG) },
    rejections: [
      {
        status: 400,
        body: { request_id: 'b3f1a2c4-0d5e-4f6a-9b7c-8d9e0f1a2b3c', code: 'DataInspectionFailed', message: 'Input data may contain inappropriate content.' },
        message: 'Input data may contain inappropriate content.',
        code: 'DataInspectionFailed',
      },
    ],
    rateLimited: { body: { request_id: 'r-429', code: 'Throttling.RateQuota', message: 'Requests rate limit exceeded, please try again later.' } },
    unavailable: { body: { request_id: 'r-503', code: 'ServiceUnavailable', message: 'Service temporarily unavailable.' }, message: 'Service temporarily unavailable.' },
    // The render may have run before the 500, so the call is never sent again.
    internalError: { body: { request_id: 'r-500', code: 'InternalError', message: 'An internal error has occured, please try again later.' } },
    malformed: {
      body: { output: { choices: [{ finish_reason: 'stop', message: { role: 'assistant', content: [{ text: 'no image' }] } }] }, request_id: 'r-2' },
      message: 'dashscope: malformed response: output.choices.0.message.content[].image is missing or not a string',
    },
  })),
);

describe('dashscope plugin: the Qwen render\'s timeout', () => {
  useNock();

  it('gives the synchronous render a configured timeout_ms: an answer later than that is an unknown outcome, not resent', async () => {
    const harness = await createPluginHarness(dashScopePlugin, { ...CONFIG, timeout_ms: 1000 });
    try {
      const slow = generationApi().post(GENERATION_PATH).delay(1500).reply(200, rendered());

      const error = await failure(harness.start('image.generate', { prompt: 'p', model: 'qwen-image' }, 'qwen-image'));

      expect(ProviderError.isOutcomeUnknown(error)).to.equal(true);
      expect(error.message).to.equal(`dashscope: timed out on POST ${GENERATION_PATH} after it may have reached the vendor`);
      expect(slow.isDone()).to.equal(true);
    } finally {
      await harness.close();
    }
  });
});
