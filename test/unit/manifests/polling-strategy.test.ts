/** Polling per provider is manifest data: laid over the operation's strategy, and checked at load like the rest. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadManifests, ManifestError, pollingFor, type PollingStrategy } from '../../../src/kernel/manifests/index.js';

const manifest = (polling: string) => `
operation: test.polled
summary: s
family: test
input: { type: object, additionalProperties: false, properties: { model: { enum: [fast, slow] } } }
output: { type: object }
credits: { base: 1 }
routing: { model_field: model, default_model: fast, models: { fast: { vendor_model: f, plugin: acme, fallbacks: [local] }, slow: { vendor_model: s, planned: turtle } } }
polling: ${polling}
`;

describe('polling per provider', () => {
  const strategy: PollingStrategy = {
    first_after_ms: 10_000,
    every_ms: 5_000,
    backoff: 1.5,
    max_every_ms: 30_000,
    give_up_after_ms: 600_000,
    providers: { local: { first_after_ms: 500 }, acme: { every_ms: 2_000, max_every_ms: 4_000 } },
  };

  it('lays a provider entry over the operation strategy, and leaves every other provider on the strategy', () => {
    const operation = { first_after_ms: 10_000, every_ms: 5_000, backoff: 1.5, max_every_ms: 30_000, give_up_after_ms: 600_000 };
    expect(pollingFor(strategy, 'local')).to.deep.equal({ ...operation, first_after_ms: 500 });
    expect(pollingFor(strategy, 'acme')).to.deep.equal({ ...operation, every_ms: 2_000, max_every_ms: 4_000 });
    expect(pollingFor(strategy, 'other')).to.deep.equal(operation);
    expect(pollingFor(strategy, undefined)).to.deep.equal(operation);
  });

  describe('in a manifest', () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'mediagate-polling-'));
    });
    afterEach(async () => rm(folder, { recursive: true, force: true }));

    const base = 'first_after_ms: 10000, every_ms: 5000, backoff: 1.5, max_every_ms: 30000, give_up_after_ms: 600000';
    async function load(polling: string) {
      await writeFile(join(folder, 'test.polled.yaml'), manifest(polling));
      return loadManifests([folder]);
    }
    async function loadError(polling: string): Promise<ManifestError> {
      const error = await load(polling).then(() => undefined, (reason: unknown) => reason);
      expect(error).to.be.instanceOf(ManifestError);
      return error as ManifestError;
    }

    it('loads entries for a route plugin, a fallback and a planned plugin', async () => {
      const [loaded] = await load(`{ ${base}, providers: { acme: { every_ms: 2000 }, local: { first_after_ms: 500 }, turtle: { first_after_ms: 60000 } } }`);
      expect(loaded!.manifest.polling.providers).to.deep.equal({ acme: { every_ms: 2000 }, local: { first_after_ms: 500 }, turtle: { first_after_ms: 60000 } });
    });

    it('refuses an entry for a plugin no route names (a typo would never apply)', async () => {
      const error = await loadError(`{ ${base}, providers: { lcoal: { first_after_ms: 500 } } }`);
      expect(error.pointer).to.equal('/polling/providers/lcoal');
      expect(error.message).to.include('names lcoal, which no route of test.polled names');
    });

    it('refuses a per-provider give-up time (that promise is the operation\'s) and an empty entry', async () => {
      expect((await loadError(`{ ${base}, providers: { local: { give_up_after_ms: 1 } } }`)).pointer).to.equal('/polling/providers/local');
      expect((await loadError(`{ ${base}, providers: { local: {} } }`)).pointer).to.equal('/polling/providers/local');
    });

    it('refuses a value the strategy itself would refuse', async () => {
      expect((await loadError(`{ ${base}, providers: { local: { backoff: 0.5 } } }`)).pointer).to.equal('/polling/providers/local/backoff');
    });
  });
});
