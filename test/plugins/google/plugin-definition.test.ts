import nock from 'nock';
import google from '../../../plugins/google/index.js';
import { describePluginBasics, describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';
import { API_KEY_INVALID, CONFIG, geminiApi, generateContentResponse, inlineImage, INPUTS, PRO_PATH } from './google-test-kit.js';

// No cancel or reconcile: the Gemini API documents no cancel for Veo operations, and no client id or idempotency key.
describePluginBasics(google, {
  operations: ['image.generate', 'image.edit'],
  polled: ['video.generate'],
  defaultBaseUrl: 'https://generativelanguage.googleapis.com',
  defaultTimeoutMs: 180_000,
  config: CONFIG,
});

describe('google plugin: vendor failures', () => {
  const shared = {
    model: 'nano-banana-pro',
    endpoint: () => geminiApi().post(PRO_PATH),
    success: generateContentResponse([inlineImage(TINY_PNG)]),
    // A 2xx with neither candidates nor a block reason.
    malformed: { usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 }, modelVersion: 'gemini-3-pro-image-preview' },
    malformedMessage: 'google: malformed response: candidates.0 is missing or not a object',
    rejection: { status: 400, body: API_KEY_INVALID, message: 'API key not valid. Please pass a valid API key.' },
  };
  describeVendorFailures(google, CONFIG, [
    { name: 'image.generate', operation: 'image.generate', input: { prompt: 'a red bicycle', model: 'nano-banana-pro' }, ...shared },
    {
      name: 'image.edit',
      operation: 'image.edit',
      input: { prompt: 'make it blue', image_url: `${INPUTS}/inputs/source.png`, model: 'nano-banana-pro', resolution: '2K' },
      inputs: () => void nock(INPUTS).persist().get('/inputs/source.png').reply(200, TINY_PNG, { 'content-type': 'image/png' }),
      ...shared,
    },
  ]);
});
