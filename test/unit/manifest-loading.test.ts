/** A broken manifest stops start-up with its file name and the JSON pointer of the fault. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadManifests, ManifestError } from '../../src/kernel/manifests/index.js';
import { fixtureManifestDir } from '../support/fixtures.js';

const valid = `
operation: test.broken
summary: s
family: test
input: { type: object, additionalProperties: false, properties: { prompt: { type: string } } }
output: { type: object }
credits: { base: 1 }
routing: { default_model: m, models: { m: { vendor_model: v, plugin: local } } }
polling: { first_after_ms: 1, every_ms: 1, backoff: 1, max_every_ms: 1, give_up_after_ms: 1 }
`;

describe('manifest loading', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-manifests-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  async function loadError(text: string): Promise<ManifestError> {
    await writeFile(join(folder, 'test.broken.yaml'), text);
    try {
      await loadManifests([folder]);
    } catch (error) {
      expect(error).to.be.instanceOf(ManifestError);
      return error as ManifestError;
    }
    throw new Error('the manifest loaded');
  }

  it('loads a valid manifest from an extra folder', async () => {
    const loaded = await loadManifests([fixtureManifestDir]);
    expect(loaded.map((item) => item.manifest.operation)).to.deep.equal(['test.echo', 'test.slow']);
  });

  it('names the file and pointer of a shape fault', async () => {
    const error = await loadError(valid.replace('backoff: 1,', 'backoff: 0.5,'));
    expect(error.file).to.equal(join(folder, 'test.broken.yaml'));
    expect(error.pointer).to.equal('/polling/backoff');
    expect(error.message).to.equal(`${join(folder, 'test.broken.yaml')}: /polling/backoff must be >= 1`);
  });

  it('refuses an input schema that accepts unknown fields', async () => {
    const error = await loadError(valid.replace('additionalProperties: false', 'additionalProperties: true'));
    expect(error.pointer).to.equal('/input/additionalProperties');
  });

  it('refuses a default model missing from the routing table', async () => {
    const error = await loadError(valid.replace('default_model: m', 'default_model: nope'));
    expect(error.pointer).to.equal('/routing/default_model');
  });

  it('refuses a credit term on a field the input does not have', async () => {
    const error = await loadError(valid.replace('credits: { base: 1 }', 'credits: { base: 1, per: [{ field: seconds, rate: 1 }] }'));
    expect(error.pointer).to.equal('/credits');
    expect(error.message).to.contain('seconds');
  });

  it('refuses workspace links on a field the input does not have, or to an unknown kind of object', async () => {
    const missing = await loadError(`${valid}workspace_links: { character_id: 'asset:character' }\n`);
    expect(missing.pointer).to.equal('/workspace_links/character_id');
    const unknownKind = await loadError(`${valid}workspace_links: { prompt: 'asset:spaceship' }\n`);
    expect(unknownKind.pointer).to.equal('/workspace_links/prompt');
  });

  it('refuses an example that does not validate, pointing into it', async () => {
    const error = await loadError(`${valid}examples:\n  - { prompt: 5 }\n`);
    expect(error.pointer).to.equal('/examples/0/prompt');
  });

  it('refuses invalid YAML', async () => {
    const error = await loadError('operation: [unclosed');
    expect(error.message).to.contain('is not valid YAML');
  });
});
