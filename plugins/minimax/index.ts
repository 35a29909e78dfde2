/**
 * The `minimax` provider (MiniMax, https://platform.minimax.io): video.generate for model hailuo-02
 * (MiniMax-Hailuo-02) from a prompt, a first frame, or a first and a last frame. An asynchronous task:
 * `start` creates it, `status` polls it and hosts the MP4. Enabled when `providers.minimax.api_key`
 * (or MEDIAGATE_PROVIDER_MINIMAX_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { isMinimaxEnabled, minimaxConfigSchema, PROVIDER_ID, type MinimaxConfig } from './minimax-vendor.js';
import { videoGenerate } from './video-generate.js';

export type { MinimaxConfig } from './minimax-vendor.js';

export default definePlugin<MinimaxConfig>({
  id: PROVIDER_ID,
  configSchema: minimaxConfigSchema,
  isEnabled: isMinimaxEnabled,
  operations: {
    'video.generate': videoGenerate,
  },
});
