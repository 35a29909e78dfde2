/**
 * Writes the client's types, `src/schema.d.ts`, from the gateway's OpenAPI document: the document is built from the
 * manifests exactly as `GET /api/v1/openapi` builds it, then openapi-typescript turns it into types.
 *
 * openapi-typescript 7 takes TypeScript 5 as its peer while the project is on TypeScript 7, so it runs through npx
 * with a TypeScript of its own. Both are pinned: the same document always gives the same file, which is what lets a
 * test compare the committed file with a fresh one (test/e2e/typescript-client-schema.test.ts).
 *
 * `npm run client:generate` from the project root; `--out <file>` writes somewhere else.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '../../../src/http/openapi/build-openapi.js';
import { projectRoot } from '../../../src/kernel/config/index.js';
import { loadManifests, OperationRegistry } from '../../../src/kernel/manifests/index.js';

export const schemaFile = join(projectRoot, 'clients/typescript/src/schema.d.ts');

/** The generator and the TypeScript it runs on, as npx packages. */
export const generatorPackages = ['openapi-typescript@7.13.0', 'typescript@5.9'];

// The default public URL: the examples the document renders (sample media URLs) then read as in the README.
const documentPublicUrl = 'http://127.0.0.1:8080';

export async function generateClientSchema(outFile: string): Promise<void> {
  const registry = new OperationRegistry(await loadManifests([join(projectRoot, 'manifests/operations')]));
  const document = buildOpenApiDocument(registry, documentPublicUrl);
  const folder = await mkdtemp(join(tmpdir(), 'mediagate-client-schema-'));
  try {
    const documentFile = join(folder, 'openapi.json');
    await writeFile(documentFile, JSON.stringify(document));
    const packages = generatorPackages.flatMap((name) => ['-p', name]);
    // `--default-non-nullable false`: an input field with a default (e.g. `model`) stays optional, as the API has it.
    const args = ['-y', ...packages, 'openapi-typescript', documentFile, '-o', resolve(outFile), '--default-non-nullable', 'false'];
    // Run outside the project, so npx never considers the project's own TypeScript 7 for the `typescript` peer.
    await promisify(execFile)('npx', args, { cwd: folder, maxBuffer: 16 * 1024 * 1024 });
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outIndex = process.argv.indexOf('--out');
  const outFile = outIndex === -1 ? schemaFile : process.argv[outIndex + 1];
  if (!outFile) throw new Error('--out needs a file name');
  await generateClientSchema(outFile);
  process.stdout.write(`wrote ${outFile}\n`);
}
