/** A settle rule is data the start checks: a manifest whose rule could not settle anything it says does not load. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { loadManifests, ManifestError } from '../../../src/kernel/manifests/index.js';

const manifest = (credits: string) => `
operation: test.metered
summary: s
family: test
input:
  type: object
  additionalProperties: false
  properties: { seconds: { type: number }, clips: { type: array }, tier: { type: string }, count: { type: integer } }
output: { type: object }
credits: ${credits}
routing: { default_model: m, models: { m: { vendor_model: v, plugin: local } } }
polling: { first_after_ms: 1, every_ms: 1, backoff: 1, max_every_ms: 1, give_up_after_ms: 1 }
`;

describe('settle rules in manifests', () => {
  let folder: string;
  beforeEach(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-settle-'));
  });
  afterEach(async () => rm(folder, { recursive: true, force: true }));

  async function load(credits: string) {
    await writeFile(join(folder, 'test.metered.yaml'), manifest(credits));
    return loadManifests([folder]);
  }

  async function loadError(credits: string): Promise<ManifestError> {
    const error = await load(credits).then(() => undefined, (reason: unknown) => reason);
    expect(error).to.be.instanceOf(ManifestError);
    return error as ManifestError;
  }

  it('loads a rule that replaces a per term by value and a numeric multiplier', async () => {
    const [loaded] = await load(`{ base: 1, per: [{ field: seconds, rate: 1 }], multiply: [{ field: count, numeric: true, default: 1 }], settle: { replace: { seconds: output_seconds, count: output_seconds } } }`);
    expect(loaded.manifest.credits.settle).to.deep.equal({ replace: { seconds: 'output_seconds', count: 'output_seconds' } });
  });

  it('refuses a measure no plugin can report', async () => {
    const error = await loadError(`{ base: 1, per: [{ field: seconds, rate: 1 }], settle: { replace: { seconds: billed_minutes } } }`);
    expect(error.pointer).to.equal('/credits/settle/replace/seconds');
    expect(error.message).to.include('must be equal to one of the allowed values');
  });

  it('refuses a field the rule does not price by value', async () => {
    const unpriced = await loadError(`{ base: 1, per: [{ field: seconds, rate: 1 }], settle: { replace: { count: output_seconds } } }`);
    expect(unpriced.pointer).to.equal('/credits/settle/replace/count');
    expect(unpriced.message).to.include('replaces a field that no per term (by value) or numeric multiply term of the rule prices');
    // An array priced by its length, and a lookup by value, cannot take a measured number.
    expect((await loadError(`{ base: 1, per: [{ field: clips, rate: 1, measure: length }], settle: { replace: { clips: output_seconds } } }`)).pointer).to.equal('/credits/settle/replace/clips');
    expect((await loadError(`{ base: 1, multiply: [{ field: tier, map: { hd: 2 }, default: 1 }], settle: { replace: { tier: output_seconds } } }`)).pointer).to.equal('/credits/settle/replace/tier');
  });

  it('refuses a nested field: a settle rule replaces top-level input fields', async () => {
    const error = await loadError(`{ base: 1, per: [{ field: clip.seconds, rate: 1 }], settle: { replace: { clip.seconds: output_seconds } } }`);
    expect(error.pointer).to.equal('/credits/settle/replace');
  });

  it('refuses an empty or misspelt settle block', async () => {
    expect((await loadError(`{ base: 1, per: [{ field: seconds, rate: 1 }], settle: { replace: {} } }`)).pointer).to.equal('/credits/settle/replace');
    expect((await loadError(`{ base: 1, per: [{ field: seconds, rate: 1 }], settle: { seconds: output_seconds } }`)).pointer).to.equal('/credits/settle');
  });
});
