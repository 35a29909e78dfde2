/**
 * The `recraft` provider: image generation with Recraft V3 through Recraft's synchronous, OpenAI-like images
 * endpoint. Every `start` returns `{ done }`; there is no task to poll.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { imageGenerate } from './images-generations.js';
import { PROVIDER_ID, recraftConfigSchema, type RecraftConfig } from './recraft-api.js';

export type { RecraftConfig } from './recraft-api.js';

export default definePlugin<RecraftConfig>({
  id: PROVIDER_ID,
  configSchema: recraftConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'image.generate': imageGenerate,
  },
});
