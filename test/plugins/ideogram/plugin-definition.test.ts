import nock from 'nock';
import ideogram from '../../../plugins/ideogram/index.js';
import { describePluginBasics, describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';
import { CDN, CONFIG, generateResponse, GENERATE_PATH, IMAGE_PATH, ideogramApi, SAFETY_ERROR } from './ideogram-test-kit.js';

describePluginBasics(ideogram, {
  operations: ['image.generate'],
  defaultBaseUrl: 'https://api.ideogram.ai',
  defaultTimeoutMs: 120_000,
  config: CONFIG,
  otherModel: {
    operation: 'image.generate',
    route: { model: 'ideogram-v2', vendorModel: 'V_2', publicName: 'ideogram-v2' },
    message: 'ideogram: cannot render with V_2: this plugin serves Ideogram 3.0 (V_3) only',
  },
});

describe('ideogram plugin: vendor failures', () => {
  describeVendorFailures(ideogram, CONFIG, [
    {
      name: 'image.generate',
      operation: 'image.generate',
      model: 'ideogram-v3',
      input: { prompt: 'a photo of a cat sleeping on a couch', model: 'ideogram-v3' },
      endpoint: () => ideogramApi().post(GENERATE_PATH),
      // The image link a success points at; optional, as only the successful calls fetch it.
      inputs: () => void nock(CDN).persist().get(IMAGE_PATH).query(true).optionally().reply(200, TINY_PNG, { 'content-type': 'image/png' }),
      success: generateResponse(),
      malformed: { created: '2000-01-23T04:56:07+00:00', data: [] },
      malformedMessage: 'ideogram: malformed response: data.0 is missing or not a object',
      rejection: { status: 422, body: SAFETY_ERROR, message: SAFETY_ERROR.error },
    },
  ]);
});
