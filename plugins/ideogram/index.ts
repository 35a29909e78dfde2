/**
 * The `ideogram` provider: image generation with Ideogram 3.0 through Ideogram's synchronous generate endpoint.
 * Every `start` returns `{ done }`; there is no task to poll.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { ideogramConfigSchema, PROVIDER_ID, type IdeogramConfig } from './ideogram-api.js';
import { imageGenerate } from './ideogram-v3-generate.js';

export type { IdeogramConfig } from './ideogram-api.js';

export default definePlugin<IdeogramConfig>({
  id: PROVIDER_ID,
  configSchema: ideogramConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'image.generate': imageGenerate,
  },
});
