import nock from 'nock';
import recraft from '../../../plugins/recraft/index.js';
import { describePluginBasics, describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';
import { CDN, CONFIG, generationsResponse, GENERATIONS_PATH, IMAGE_PATH, recraftApi } from './recraft-test-kit.js';

describePluginBasics(recraft, {
  operations: ['image.generate'],
  defaultBaseUrl: 'https://external.api.recraft.ai',
  config: CONFIG,
  otherModel: {
    operation: 'image.generate',
    route: { model: 'recraft-v2', vendorModel: 'recraftv2', publicName: 'recraft-v2' },
    message: 'recraft: cannot render with recraftv2: this plugin serves Recraft V3 (recraftv3) only',
  },
});

/**
 * Recraft says some errors are JSON but documents no schema (https://www.recraft.ai/docs/api-reference/error-handling),
 * so this body is only an example: whatever its fields, the client reads it as its text, as Recraft advises.
 */
const JSON_REJECTION = { code: 'invalid_request', message: 'prompt must not be empty' };

describe('recraft plugin: vendor failures', () => {
  describeVendorFailures(recraft, CONFIG, [
    {
      name: 'image.generate',
      operation: 'image.generate',
      model: 'recraft-v3',
      input: { prompt: 'two race cars on a track', model: 'recraft-v3' },
      endpoint: () => recraftApi().post(GENERATIONS_PATH),
      // The image link a success points at; optional, as only the successful calls fetch it.
      inputs: () => void nock(CDN).persist().get(IMAGE_PATH).optionally().reply(200, TINY_PNG, { 'content-type': 'image/png' }),
      success: generationsResponse(),
      malformed: { created: 1698916476, credits: 40, data: [] },
      malformedMessage: 'recraft: malformed response: data.0 is missing or not a object',
      rejection: { status: 400, body: JSON_REJECTION, message: JSON.stringify(JSON_REJECTION) },
    },
  ]);
});
