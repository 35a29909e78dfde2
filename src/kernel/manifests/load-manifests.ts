/**
 * Reads every `*.yaml` in the manifest folders and checks each against the meta-schema and against
 * itself (default model exists, examples validate, input schema compiles). Fails on the first fault.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ManifestError } from './manifest-error.js';
import { manifestMetaSchema } from './manifest-meta-schema.js';
import type { OperationManifest } from './manifest-types.js';
import { createSchemaCompiler } from './schema-compiler.js';

export interface LoadedManifest {
  manifest: OperationManifest;
  file: string;
}

export async function loadManifests(folders: string[]): Promise<LoadedManifest[]> {
  const checker = createSchemaCompiler({ useDefaults: false });
  const checkShape = checker.compile(manifestMetaSchema);
  const loaded: LoadedManifest[] = [];
  const seen = new Map<string, string>();
  for (const folder of folders) {
    const names = (await readdir(folder)).filter((name) => name.endsWith('.yaml') || name.endsWith('.yml')).sort();
    for (const name of names) {
      const file = join(folder, name);
      let data: unknown;
      try {
        data = parse(await readFile(file, 'utf8'));
      } catch (error) {
        throw new ManifestError(file, '', `is not valid YAML: ${(error as Error).message}`);
      }
      if (!checkShape(data)) {
        const first = checkShape.errors![0];
        throw new ManifestError(file, first.instancePath, first.message ?? 'is invalid');
      }
      const manifest = data as unknown as OperationManifest;
      checkConsistency(manifest, file, checker);
      const previous = seen.get(manifest.operation);
      if (previous) throw new ManifestError(file, '/operation', `duplicates ${manifest.operation} from ${previous}`);
      seen.set(manifest.operation, file);
      loaded.push({ manifest, file });
    }
  }
  return loaded;
}

function checkConsistency(manifest: OperationManifest, file: string, checker: ReturnType<typeof createSchemaCompiler>): void {
  const { routing } = manifest;
  if (!(routing.default_model in routing.models)) {
    throw new ManifestError(file, '/routing/default_model', `names ${routing.default_model}, which is not in routing.models`);
  }
  if (routing.model_field && !(routing.model_field in (manifest.input.properties as object))) {
    throw new ManifestError(file, '/routing/model_field', `names ${routing.model_field}, which is not an input property`);
  }
  for (const [index, term] of [...(manifest.credits.per ?? []), ...(manifest.credits.multiply ?? [])].entries()) {
    const top = term.field.split('.')[0];
    if (!(top in (manifest.input.properties as object))) {
      throw new ManifestError(file, `/credits`, `term ${index} prices ${term.field}, which is not an input property`);
    }
  }
  let validateInput;
  try {
    validateInput = checker.compile(manifest.input);
    checker.compile(manifest.output);
  } catch (error) {
    throw new ManifestError(file, '/input', `is not a valid JSON Schema: ${(error as Error).message}`);
  }
  for (const [index, example] of (manifest.examples ?? []).entries()) {
    if (!validateInput(structuredClone(example))) {
      const first = validateInput.errors![0];
      throw new ManifestError(file, `/examples/${index}${first.instancePath}`, first.message ?? 'does not validate');
    }
  }
}
