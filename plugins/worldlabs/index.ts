/**
 * The `worldlabs` provider (https://docs.worldlabs.ai/api): three_d.location.generate on World Labs
 * Marble. Enabled when `providers.worldlabs.api_key` (or MEDIAGATE_PROVIDER_WORLDLABS_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { threeDLocationGenerate } from './three-d-location-generate.js';
import { PROVIDER_ID, worldLabsConfigSchema, type WorldLabsConfig } from './worldlabs-vendor.js';

export type { WorldLabsConfig } from './worldlabs-vendor.js';

export default definePlugin<WorldLabsConfig>({
  id: PROVIDER_ID,
  configSchema: worldLabsConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'three_d.location.generate': threeDLocationGenerate,
  },
});
