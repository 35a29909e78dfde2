import nock from 'nock';
import openai from '../../../plugins/openai/index.js';
import { chatCompletion, CONFIG, imagesResponse, INPUTS, INVALID_API_KEY, MODERATION_BLOCKED, openAIApi } from './openai-test-kit.js';
import { describePluginBasics, describeVendorFailures, TINY_PNG } from '../../support/vendor-conformance.js';

describePluginBasics(openai, {
  operations: ['prompt.enhance.image', 'prompt.enhance.video', 'image.generate', 'image.edit', 'prompt.enhance.location', 'prompt.enhance.variant'],
  defaultBaseUrl: 'https://api.openai.com',
  defaultTimeoutMs: 180_000,
  config: CONFIG,
});

describe('openai plugin: vendor failures', () => {
  const chat = {
    endpoint: () => openAIApi().post('/v1/chat/completions'),
    success: chatCompletion('A rewritten prompt.'),
    malformed: { ...chatCompletion('x'), choices: [] },
    malformedMessage: 'openai: malformed response: choices.0.message is missing or not a object',
    rejection: { status: 401, body: INVALID_API_KEY, message: INVALID_API_KEY.error.message },
  };
  const gptImage = {
    model: 'gpt-image-1',
    success: imagesResponse([TINY_PNG]),
    malformed: { created: 1713833628, data: [] },
    malformedMessage: 'openai: malformed response: data.0 is missing or not a object',
    rejection: { status: 400, body: MODERATION_BLOCKED, message: MODERATION_BLOCKED.error.message },
  };
  describeVendorFailures(openai, CONFIG, [
    { name: 'prompt.enhance.image', operation: 'prompt.enhance.image', input: { prompt: 'a lighthouse on a cliff' }, ...chat },
    { name: 'prompt.enhance.video', operation: 'prompt.enhance.video', input: { prompt: 'a fox running through snow', duration: 4 }, ...chat },
    { name: 'image.generate', operation: 'image.generate', input: { prompt: 'a ceramic mug', model: 'gpt-image-1' }, endpoint: () => openAIApi().post('/v1/images/generations'), ...gptImage },
    {
      name: 'image.edit',
      operation: 'image.edit',
      input: { prompt: 'make it blue', image_url: `${INPUTS}/inputs/source.png`, model: 'gpt-image-1' },
      inputs: () => void nock(INPUTS).persist().get('/inputs/source.png').reply(200, TINY_PNG, { 'content-type': 'image/png' }),
      endpoint: () => openAIApi().post('/v1/images/edits'),
      ...gptImage,
    },
  ]);
});
