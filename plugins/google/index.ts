/**
 * The `google` provider, on the Gemini API: image generation and editing with Gemini image models ("Nano
 * Banana") through generateContent, synchronous (`start` returns `{ done }`); and video generation with Veo 3.1
 * through predictLongRunning, an operation that `status` polls. Imagen (`imagen-4`) is not served: the Gemini
 * API no longer offers it (see gemini-api.ts).
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { googleConfigSchema, PROVIDER_ID, type GoogleConfig } from './gemini-api.js';
import { imageEdit, imageGenerate } from './generate-content.js';
import { videoGenerate } from './video-generate.js';

export type { GoogleConfig } from './gemini-api.js';

export default definePlugin<GoogleConfig>({
  id: PROVIDER_ID,
  configSchema: googleConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'image.generate': imageGenerate,
    'image.edit': imageEdit,
    'video.generate': videoGenerate,
  },
});
