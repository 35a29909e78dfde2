/**
 * The `bfl` provider (Black Forest Labs, https://docs.bfl.ai): image.generate with FLUX1.1 [pro], FLUX.1 Kontext
 * [pro] and FLUX.2 [pro], and image.edit with FLUX.1 Kontext [pro]. Every call is an asynchronous BFL task:
 * `start` submits it, `status` polls it and hosts the image. BFL's API reference lists no cancel call. Enabled when
 * `providers.bfl.api_key` (or MEDIAGATE_PROVIDER_BFL_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { bflConfigSchema, isBflEnabled, PROVIDER_ID, type BflConfig } from './bfl-vendor.js';
import { imageEdit } from './image-edit.js';
import { imageGenerate } from './image-generate.js';

export type { BflConfig } from './bfl-vendor.js';

export default definePlugin<BflConfig>({
  id: PROVIDER_ID,
  configSchema: bflConfigSchema,
  isEnabled: isBflEnabled,
  operations: {
    'image.generate': imageGenerate,
    'image.edit': imageEdit,
  },
});
