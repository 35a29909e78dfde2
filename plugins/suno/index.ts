/**
 * The `suno` provider: music.generate through sunoapi.org (provider A of the music manifest). Generation is
 * asynchronous: `start` submits, `status` polls record-info and hosts the first track. sunoapi.org
 * documents no cancel endpoint.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { musicGenerate } from './generate-music.js';
import { isSunoEnabled, PROVIDER_ID, sunoConfigSchema, type SunoConfig } from './suno-config.js';

export type { SunoConfig } from './suno-config.js';

export default definePlugin<SunoConfig>({
  id: PROVIDER_ID,
  configSchema: sunoConfigSchema,
  isEnabled: isSunoEnabled,
  operations: {
    'music.generate': musicGenerate,
  },
});
