/**
 * The `meshy` provider (https://docs.meshy.ai): three_d.model.generate on Meshy's image-to-3D API.
 * Enabled when `providers.meshy.api_key` (or MEDIAGATE_PROVIDER_MESHY_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { meshyConfigSchema, PROVIDER_ID, type MeshyConfig } from './meshy-vendor.js';
import { threeDModelGenerate } from './three-d-model-generate.js';

export type { MeshyConfig } from './meshy-vendor.js';

export default definePlugin<MeshyConfig>({
  id: PROVIDER_ID,
  configSchema: meshyConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'three_d.model.generate': threeDModelGenerate,
  },
});
