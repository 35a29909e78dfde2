/**
 * The client's committed types (clients/typescript/src/schema.d.ts) are what the current OpenAPI document generates:
 * a manifest or document change that was not followed by `npm run client:generate` fails here. The generator runs
 * through npx, so this test needs the npm registry (or an npx cache that holds the pinned versions), as CI has.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { generateClientSchema, generatorPackages, schemaFile } from '../../clients/typescript/scripts/generate-schema.js';

describe('TypeScript client types (clients/typescript/src/schema.d.ts)', function () {
  this.timeout(300_000);
  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'mediagate-client-schema-test-'));
  });
  after(async () => rm(folder, { recursive: true, force: true }));

  it('are current: regenerating them from the document changes nothing', async () => {
    const fresh = join(folder, 'schema.d.ts');
    try {
      await generateClientSchema(fresh);
    } catch (error) {
      throw new Error(`could not run ${generatorPackages.join(' and ')} through npx (is the npm registry reachable?): ${(error as Error).message}`);
    }
    const [committed, regenerated] = await Promise.all([readFile(schemaFile, 'utf8'), readFile(fresh, 'utf8')]);
    if (committed !== regenerated) {
      const committedLines = committed.split('\n');
      const regeneratedLines = regenerated.split('\n');
      const line = committedLines.findIndex((text, index) => text !== regeneratedLines[index]);
      const at = line === -1 ? committedLines.length : line;
      expect.fail(
        `clients/typescript/src/schema.d.ts is out of date with the OpenAPI document: run \`npm run client:generate\` and commit the result.\n` +
          `First difference at line ${at + 1}:\n  committed:   ${committedLines[at] ?? '(end of file)'}\n  regenerated: ${regeneratedLines[at] ?? '(end of file)'}`,
      );
    }
  });
});
