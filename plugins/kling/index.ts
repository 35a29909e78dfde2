/**
 * The `kling` provider (Kuaishou Kling, https://app.klingai.com/global/dev): image.generate for model
 * kling-image, smartmotion.generate (image-to-video with camera control) and video.generate for models
 * kling-2.5-turbo and kling-2.6 (text-to-video, or image-to-video from a first and optional last frame).
 * All are asynchronous Kling tasks: `start` creates the task, `status` polls it and hosts the result.
 * Kling documents no cancel endpoint.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { smartmotionGenerate } from './image2video.js';
import { imageGenerate } from './image-generations.js';
import { isKlingEnabled, klingConfigSchema, PROVIDER_ID, type KlingConfig } from './kling-config.js';
import { videoGenerate } from './video-generate.js';

export type { KlingConfig } from './kling-config.js';

export default definePlugin<KlingConfig>({
  id: PROVIDER_ID,
  configSchema: klingConfigSchema,
  isEnabled: isKlingEnabled,
  operations: {
    'image.generate': imageGenerate,
    'smartmotion.generate': smartmotionGenerate,
    'video.generate': videoGenerate,
  },
});
