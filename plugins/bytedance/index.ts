/**
 * The `bytedance` provider: ByteDance's models on BytePlus ModelArk (https://docs.byteplus.com/en/docs/ModelArk):
 * image.generate and image.edit with Seedream 4.0 (synchronous: `start` returns the output) and video.generate
 * with Seedance 1.0 Pro (an asynchronous task, polled and cancellable). Enabled when
 * `providers.bytedance.api_key` (or MEDIAGATE_PROVIDER_BYTEDANCE_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { arkConfigSchema, isArkEnabled, PROVIDER_ID, type ArkConfig } from './ark-vendor.js';
import { imageEdit } from './image-edit.js';
import { imageGenerate } from './image-generate.js';
import { videoGenerate } from './video-generate.js';

export type { ArkConfig } from './ark-vendor.js';

export default definePlugin<ArkConfig>({
  id: PROVIDER_ID,
  configSchema: arkConfigSchema,
  isEnabled: isArkEnabled,
  operations: {
    'image.generate': imageGenerate,
    'image.edit': imageEdit,
    'video.generate': videoGenerate,
  },
});
