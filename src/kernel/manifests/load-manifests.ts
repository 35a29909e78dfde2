/**
 * Reads every `*.yaml` in the manifest folders and checks each against the meta-schema and against
 * itself (default model exists, examples validate, input schema compiles). Fails on the first fault.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { ManifestError } from './manifest-error.js';
import { manifestMetaSchema } from './manifest-meta-schema.js';
import { renderExamples } from './manifest-examples.js';
import type { OperationManifest } from './manifest-types.js';
import { compileSchema } from './schema-compiler.js';

export interface LoadedManifest {
  manifest: OperationManifest;
  file: string;
}

export async function loadManifests(folders: string[]): Promise<LoadedManifest[]> {
  // Without defaults: the check must not add to the manifest what its author left out.
  const checkShape = compileSchema(manifestMetaSchema, { useDefaults: false });
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
      checkConsistency(manifest, file);
      const previous = seen.get(manifest.operation);
      if (previous) throw new ManifestError(file, '/operation', `duplicates ${manifest.operation} from ${previous}`);
      seen.set(manifest.operation, file);
      loaded.push({ manifest, file });
    }
  }
  return loaded;
}

function checkConsistency(manifest: OperationManifest, file: string): void {
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
  checkSettleRule(manifest, file);
  checkPollingProviders(manifest, file);
  for (const field of Object.keys(manifest.workspace_links ?? {})) {
    if (!(field in (manifest.input.properties as object))) {
      throw new ManifestError(file, `/workspace_links/${field}`, 'links a field that is not an input property');
    }
  }
  let validateInput;
  try {
    // The registry's own validators (compiled once): an example is checked as a create's input would be.
    validateInput = compileSchema(manifest.input);
    compileSchema(manifest.output);
  } catch (error) {
    throw new ManifestError(file, '/input', `is not a valid JSON Schema: ${(error as Error).message}`);
  }
  // Rendered as clients are shown them: any absolute base stands for public_url, which the settings require to be one.
  for (const [index, example] of renderExamples(manifest, 'http://127.0.0.1:8080').entries()) {
    if (!validateInput(example)) {
      const first = validateInput.errors![0];
      throw new ManifestError(file, `/examples/${index}${first.instancePath}`, first.message ?? 'does not validate');
    }
  }
}

/**
 * A settle rule may only replace what the credit rule prices by a number: a `per` term by value or a numeric
 * `multiply` term. A measured number in place of an array length or a map key would price nothing it says.
 */
function checkSettleRule(manifest: OperationManifest, file: string): void {
  const { credits } = manifest;
  const byValue = new Set([
    ...(credits.per ?? []).filter((term) => term.measure !== 'length').map((term) => term.field),
    ...(credits.multiply ?? []).filter((term) => term.numeric).map((term) => term.field),
  ]);
  for (const field of Object.keys(credits.settle?.replace ?? {})) {
    if (!byValue.has(field)) {
      throw new ManifestError(file, `/credits/settle/replace/${field}`, 'replaces a field that no per term (by value) or numeric multiply term of the rule prices');
    }
  }
}

/** A polling entry for a plugin that no route of the operation names would never apply: most likely a typo. */
function checkPollingProviders(manifest: OperationManifest, file: string): void {
  const named = new Set(Object.values(manifest.routing.models).flatMap((route) => [route.plugin ?? route.planned, ...(route.fallbacks ?? [])]));
  for (const provider of Object.keys(manifest.polling.providers ?? {})) {
    if (!named.has(provider)) throw new ManifestError(file, `/polling/providers/${provider}`, `names ${provider}, which no route of ${manifest.operation} names`);
  }
}
