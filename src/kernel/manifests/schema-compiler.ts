/**
 * One ajv setup for every schema the gateway compiles (manifests, configuration, plugin configs).
 * Schemas are compiled once at start, never per request. `allErrors` so a 422 names every failing field;
 * `useDefaults` so documented defaults (e.g. three_d.location `quality: standard`) land in the stored input;
 * ajv-errors so a manifest can give a rule its own message ("expanded world sizing is not available").
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import ajvErrorsModule from 'ajv-errors';

// CommonJS packages whose function is the `default` export; under NodeNext the import is the module object.
type Plugin = (ajv: Ajv2020, options?: unknown) => Ajv2020;
const unwrap = (module: unknown): Plugin => ((module as { default?: Plugin }).default ?? module) as Plugin;
const addFormats = unwrap(addFormatsModule);
const addErrorMessages = unwrap(ajvErrorsModule);

export type SchemaValidator = ValidateFunction;
export type SchemaCompiler = Ajv2020;

export function createSchemaCompiler(options: { useDefaults?: boolean } = {}): SchemaCompiler {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    useDefaults: options.useDefaults ?? true,
    coerceTypes: false,
  });
  addFormats(ajv);
  addErrorMessages(ajv);
  return ajv;
}
