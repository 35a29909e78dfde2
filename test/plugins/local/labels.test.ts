/**
 * When `local` serves a request its output says so: `output.model` names the local renderer, never a vendor's
 * model, for every operation it serves; and every manifest's output schema accepts that name (the kernel
 * validates outputs against it before storing them).
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import localPlugin from '../../../plugins/local/index.js';
import { RENDERERS } from '../../../plugins/local/renderers.js';
import { loadManifests, type OperationManifest } from '../../../src/kernel/manifests/index.js';
import { createSchemaCompiler } from '../../../src/kernel/manifests/schema-compiler.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';

const MANIFEST_DIR = fileURLToPath(new URL('../../../manifests/operations', import.meta.url));

describe('local plugin: honest labels', () => {
  let manifests: Map<string, OperationManifest>;
  before(async () => {
    manifests = new Map((await loadManifests([MANIFEST_DIR])).map(({ manifest }) => [manifest.operation, manifest]));
  });

  it('has a renderer name for exactly the operations it serves', () => {
    expect(Object.keys(RENDERERS).sort()).to.deep.equal(Object.keys(localPlugin.operations).sort());
  });

  it('names renderers `local-…`, never one of the models, vendor models or labels the manifest routes', () => {
    for (const [operation, renderer] of Object.entries(RENDERERS)) {
      expect(renderer, operation).to.match(/^local-[a-z0-9-]+$/);
      const manifest = manifests.get(operation);
      expect(manifest, `manifest of ${operation}`).to.not.equal(undefined);
      const claims = Object.entries(manifest!.routing.models).flatMap(([model, route]) => [model, route.vendor_model, route.label ?? '']);
      expect(claims, operation).to.not.include(renderer);
    }
  });

  it("passes every manifest's output schema for `model`, so the kernel stores the output rather than failing it", () => {
    const compiler = createSchemaCompiler();
    for (const [operation, renderer] of Object.entries(RENDERERS)) {
      const output = manifests.get(operation)!.output as { properties?: { model?: object }; required?: string[] };
      expect(output.required ?? [], `${operation} requires output.model`).to.include('model');
      const validate = compiler.compile(output.properties?.model ?? {});
      expect(validate(renderer), `${operation}: ${JSON.stringify(validate.errors)}`).to.equal(true);
    }
  });

  describe('on a route to a vendor model', () => {
    let harness: LocalHarness;
    before(async () => {
      harness = await createLocalHarness();
    });
    after(() => harness.cleanup());

    it('answers video.upscale with its renderer as `model` and the client’s choice as `requested_model`', async () => {
      const output = await harness.run('video.upscale', { video_url: harness.urls.video, upscale_factor: 1 }, {
        model: 'topaz-proteus',
        vendorModel: 'proteus',
        publicName: 'topaz-proteus',
      });
      expect(output).to.include({ provider: 'local', model: 'local-upscale', requested_model: 'topaz-proteus' });
    });

    it('answers partner2.character.create with the local character maker, not sora-2', async () => {
      const output = await harness.run('partner2.character.create', { source_video_url: harness.urls.video, name: 'Ada' }, {
        model: 'partner-2',
        vendorModel: 'sora-2',
        publicName: 'sora-2',
      });
      expect(output).to.include({ provider: 'local', model: 'local-character' });
    });
  });
});
