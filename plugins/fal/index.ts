/**
 * The `fal` provider (fal.ai model APIs through its queue, https://fal.ai/docs/documentation/model-apis/inference/queue):
 * subtitles.generate on fal-ai/auto-caption, soundfx.generate (video_context) on mirelo-ai/sfx-v1.5/video-to-video
 * and video.upscale on fal-ai/bytedance-upscaler/upscale/video. Every model runs through the same queue client
 * (`fal-queue.ts`): `start` submits, `status` polls and hosts the result, `cancel` cancels.
 * Enabled when `providers.fal.api_key` (or MEDIAGATE_PROVIDER_FAL_API_KEY; fal calls it FAL_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { subtitlesGenerate } from './auto-caption.js';
import { videoUpscale } from './bytedance-upscaler.js';
import { falConfigSchema, isFalEnabled, PROVIDER_ID, type FalConfig } from './fal-vendor.js';
import { soundfxVideoContext } from './mirelo-sfx-video-to-video.js';

export type { FalConfig } from './fal-vendor.js';

export default definePlugin<FalConfig>({
  id: PROVIDER_ID,
  configSchema: falConfigSchema,
  isEnabled: isFalEnabled,
  operations: {
    'subtitles.generate': subtitlesGenerate,
    'soundfx.generate': soundfxVideoContext,
    'video.upscale': videoUpscale,
  },
});
