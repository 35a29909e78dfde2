/**
 * The plugins' own price settings are gone; a configuration that still sets one stops the start, naming the
 * setting and where prices live now — through the plugin registry, from a config file or the environment alike.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { pino } from 'pino';
import falPlugin from '../../../plugins/fal/index.js';
import syncsoPlugin from '../../../plugins/syncso/index.js';
import topazPlugin from '../../../plugins/topaz/index.js';
import { startService } from '../../../src/cli/serve.js';
import { loadSettings } from '../../../src/kernel/config/index.js';
import type { ProviderPlugin } from '../../../src/kernel/plugin-sdk/index.js';
import { PluginRegistry } from '../../../src/kernel/plugins/index.js';
import { freePort } from '../../support/free-port.js';

const BREAKER = { timeout_ms: 1000, error_threshold_percentage: 50, reset_timeout_ms: 1000, volume_threshold: 3, rolling_count_timeout_ms: 1000 };
const WHERE = 'is not a setting: plugins have no prices; a request is priced only by its operation manifest (`credits` in manifests/operations/<operation>.yaml, whose `settle` rule re-prices it from the usage the vendor measured; docs/pricing.md). Remove it.';

function registrationError(plugin: ProviderPlugin<any>, config: Record<string, unknown>): string {
  try {
    new PluginRegistry(BREAKER).register(plugin, config);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${plugin.id} accepted ${JSON.stringify(config)}`);
}

describe('retired price settings', () => {
  it('names each retired setting of topaz, syncso and fal and says where prices live', () => {
    expect(registrationError(topazPlugin, { api_key: 'k', credits_per_topaz_credit: 8, minimum_credits: 2 })).to.equal(
      `invalid configuration for plugin topaz:\n  providers.topaz.credits_per_topaz_credit ${WHERE}\n  providers.topaz.minimum_credits ${WHERE}`,
    );
    expect(registrationError(syncsoPlugin, { api_key: 'k', credits_per_second: 1.5 })).to.equal(`invalid configuration for plugin syncso:\n  providers.syncso.credits_per_second ${WHERE}`);
    expect(registrationError(falPlugin, { upscale_credits_per_second: 1 })).to.equal(`invalid configuration for plugin fal:\n  providers.fal.upscale_credits_per_second ${WHERE}`);
  });

  it('still names any other unknown setting by its key', () => {
    expect(registrationError(topazPlugin, { api_key: 'k', max_input_byte: 5 })).to.equal('invalid configuration for plugin topaz:\n  providers.topaz must NOT have additional properties (max_input_byte)');
  });

  it('stops the start when a config file or the environment sets one', async () => {
    const configDir = await mkdtemp(join(tmpdir(), 'mediagate-config-'));
    const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-data-'));
    try {
      await writeFile(join(configDir, 'default.yaml'), await readFile(new URL('../../../config/default.yaml', import.meta.url), 'utf8'));
      await writeFile(join(configDir, 'legacy.yaml'), 'providers:\n  syncso:\n    credits_per_second: 1.5\n');
      const port = await freePort();
      const overrides = { server: { host: '127.0.0.1', port, public_url: '' }, data_dir: dataDir, log: { level: 'silent' as const } };
      for (const env of [{ MEDIAGATE_ENV: 'legacy' }, { MEDIAGATE_PROVIDER_SYNCSO_CREDITS_PER_SECOND: '1.5' }]) {
        const settings = loadSettings({ env, configDir, overrides });
        const error = await startService(settings, { log: pino({ level: 'silent' }) }).then(
          async (service) => {
            await service.stop();
            throw new Error(`the service started with ${JSON.stringify(env)}`);
          },
          (reason: unknown) => reason as Error,
        );
        expect(error.message, JSON.stringify(env)).to.include(`providers.syncso.credits_per_second ${WHERE}`);
      }
    } finally {
      await rm(configDir, { recursive: true, force: true });
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
