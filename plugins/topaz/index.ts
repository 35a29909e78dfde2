/**
 * The `topaz` provider (Topaz Labs Video API, https://developer.topazlabs.com): video.upscale for the models
 * topaz-proteus (Proteus, by an upscale factor) and topaz-starlight (Starlight Precise, the hosted enhancer,
 * optionally retimed to a target frame rate). Enabled when `providers.topaz.api_key` (or
 * MEDIAGATE_PROVIDER_TOPAZ_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { isTopazEnabled, PROVIDER_ID, topazConfigSchema, type TopazConfig } from './topaz-vendor.js';
import { videoUpscale } from './video-upscale.js';

export type { TopazConfig } from './topaz-vendor.js';

export default definePlugin<TopazConfig>({
  id: PROVIDER_ID,
  configSchema: topazConfigSchema,
  isEnabled: isTopazEnabled,
  operations: {
    'video.upscale': videoUpscale,
  },
});
