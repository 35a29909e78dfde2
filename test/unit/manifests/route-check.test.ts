/**
 * The start check between manifests and plugins: every plugin a model route names must exist and serve the
 * route's operation, or the gateway does not start and says which file, model and plugin are wrong. Models
 * whose plugin is still to be written are marked `planned:` and exempt (for that plugin only).
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { loadSettings } from '../../../src/kernel/config/index.js';
import { createGateway } from '../../../src/kernel/gateway.js';
import { loadManifests, ManifestError, type LoadedManifest } from '../../../src/kernel/manifests/index.js';
import { checkRoutes, PluginRegistry } from '../../../src/kernel/plugins/index.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const BROKEN = `${ROOT}test/fixtures/manifests/broken-routes/`;
const BREAKER = { timeout_ms: 1000, error_threshold_percentage: 50, reset_timeout_ms: 1000, volume_threshold: 5, rolling_count_timeout_ms: 1000 };

/** Starts the real gateway with one extra manifest folder and returns the error that stopped it. */
async function startError(manifestDir: string): Promise<ManifestError> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-route-check-'));
  try {
    const settings = loadSettings({ env: {}, overrides: { manifest_dirs: [manifestDir], data_dir: dataDir, log: { level: 'silent' } } });
    const gateway = await createGateway(settings).catch((error: unknown) => error);
    if (!(gateway instanceof ManifestError)) {
      if (gateway && typeof gateway === 'object' && 'close' in gateway) await (gateway as { close(): Promise<void> }).close();
      throw new Error(`the gateway started (or failed otherwise: ${String(gateway)})`);
    }
    return gateway;
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

describe('the route start check', () => {
  describe('over the real manifests and plugins', () => {
    let manifests: LoadedManifest[];
    let plugins: PluginRegistry;
    before(async () => {
      manifests = await loadManifests([`${ROOT}manifests/operations`]);
      plugins = new PluginRegistry(BREAKER);
      await plugins.loadFolders([`${ROOT}plugins`], {});
    });
    after(() => plugins.shutdown());

    it('passes: every route names plugins that exist and serve its operation', () => {
      expect(() => checkRoutes(manifests, plugins)).to.not.throw();
    });

    it('has no planned model left: every route of the product is served by a real vendor plugin', () => {
      const planned: string[] = [];
      for (const { manifest } of manifests) {
        for (const [model, route] of Object.entries(manifest.routing.models)) {
          if (route.planned !== undefined) planned.push(`${manifest.operation} ${model} -> ${route.planned}`);
          // Every vendor route has a real plugin first; `local` only ever stands in as a fallback.
          else expect(route.plugin, `${manifest.operation} ${model}`).to.not.equal('local');
        }
      }
      expect(planned).to.deep.equal([]);
    });
  });

  describe('stops the gateway start, naming file, model and plugin', () => {
    it('for a route whose plugin does not exist', async () => {
      const error = await startError(`${BROKEN}missing-plugin`);
      const file = `${BROKEN}missing-plugin/test.missing.yaml`;
      expect(error.file).to.equal(file);
      expect(error.pointer).to.equal('/routing/models/ghost-1/plugin');
      expect(error.message).to.equal(
        `${file}: /routing/models/ghost-1/plugin model ghost-1 names plugin ghostvendor, which does not exist in any plugin folder (mark the model \`planned: ghostvendor\` until it does)`,
      );
    });

    it('for a route whose plugin exists but does not serve the operation', async () => {
      const error = await startError(`${BROKEN}wrong-operation`);
      const file = `${BROKEN}wrong-operation/test.unserved.yaml`;
      expect(error.message).to.equal(
        `${file}: /routing/models/first/plugin model first names plugin openai, which does not serve test.unserved (mark the model \`planned: openai\` until it does)`,
      );
    });

    it('for a planned route whose fallback does not exist', async () => {
      const error = await startError(`${BROKEN}missing-fallback`);
      const file = `${BROKEN}missing-fallback/test.planned.yaml`;
      expect(error.message).to.equal(`${file}: /routing/models/later/fallbacks/0 model later names plugin nofallback, which does not exist in any plugin folder`);
    });
  });

  describe('the meta-schema', () => {
    let folder: string;
    beforeEach(async () => {
      folder = await mkdtemp(join(tmpdir(), 'mediagate-route-schema-'));
    });
    afterEach(async () => rm(folder, { recursive: true, force: true }));

    async function loadRoute(route: string): Promise<unknown> {
      await writeFile(
        join(folder, 'test.route.yaml'),
        `operation: test.route
summary: s
family: test
input: { type: object, additionalProperties: false, properties: { prompt: { type: string } } }
output: { type: object }
credits: { base: 1 }
routing: { default_model: m, models: { m: ${route} } }
polling: { first_after_ms: 1, every_ms: 1, backoff: 1, max_every_ms: 1, give_up_after_ms: 1 }
`,
      );
      return loadManifests([folder]).then(
        (loaded) => loaded[0].manifest.routing.models.m,
        (error: unknown) => error,
      );
    }

    it('accepts a route with either plugin or planned', async () => {
      expect(await loadRoute('{ vendor_model: v, plugin: local }')).to.deep.equal({ vendor_model: 'v', plugin: 'local' });
      expect(await loadRoute('{ vendor_model: v, planned: bfl, fallbacks: [local] }')).to.deep.equal({ vendor_model: 'v', planned: 'bfl', fallbacks: ['local'] });
    });

    it('refuses a route with both, or with neither', async () => {
      for (const route of ['{ vendor_model: v, plugin: local, planned: bfl }', '{ vendor_model: v, fallbacks: [local] }']) {
        const error = await loadRoute(route);
        expect(error, route).to.be.instanceOf(ManifestError);
        expect((error as ManifestError).pointer, route).to.equal('/routing/models/m');
      }
    });
  });
});
