/**
 * The `lightricks` provider (Lightricks' LTX API, https://docs.ltx.video): video.generate for models ltx-2-fast
 * and ltx-2-pro, from a prompt or a first frame. Jobs run on LTX's async API: `start` submits, `status` polls
 * and hosts the MP4. Enabled when `providers.lightricks.api_key` (or MEDIAGATE_PROVIDER_LIGHTRICKS_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { isLightricksEnabled, lightricksConfigSchema, PROVIDER_ID, type LightricksConfig } from './lightricks-vendor.js';
import { videoGenerate } from './video-generate.js';

export type { LightricksConfig } from './lightricks-vendor.js';

export default definePlugin<LightricksConfig>({
  id: PROVIDER_ID,
  configSchema: lightricksConfigSchema,
  isEnabled: isLightricksEnabled,
  operations: {
    'video.generate': videoGenerate,
  },
});
