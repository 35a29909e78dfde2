/**
 * The `syncso` provider (sync. / Sync Labs, https://sync.so/docs): lipsync.generate on POST /v2/generate with
 * the lipsync-2 model. Enabled when `providers.syncso.api_key` (or MEDIAGATE_PROVIDER_SYNCSO_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { lipsyncGenerate } from './lipsync-generate.js';
import { isSyncsoEnabled, PROVIDER_ID, syncsoConfigSchema, type SyncsoConfig } from './syncso-vendor.js';

export type { SyncsoConfig } from './syncso-vendor.js';

export default definePlugin<SyncsoConfig>({
  id: PROVIDER_ID,
  configSchema: syncsoConfigSchema,
  isEnabled: isSyncsoEnabled,
  operations: {
    'lipsync.generate': lipsyncGenerate,
  },
});
