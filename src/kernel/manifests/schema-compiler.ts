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

export interface SchemaOptions {
  /** Fill in the schema's `default`s while validating (default true). */
  useDefaults?: boolean;
}

export function createSchemaCompiler(options: SchemaOptions = {}): SchemaCompiler {
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

/**
 * Compiled once per process for each distinct schema (by its JSON text) and option: a gateway's start compiles every
 * manifest's input and output, each plugin's config and the settings, and a new ajv instance alone costs a compile of
 * ajv-errors' meta-schema. Measured on this project (2026-11-28): a warm in-process gateway start took 0.9 s, a third
 * of it ajv, most of that in ajv instances made per plugin and per manifest pass. A validator holds no state between
 * calls but its last `errors`, which every caller reads synchronously after its own call.
 */
const sharedCompilers = new Map<boolean, SchemaCompiler>();
const compiledSchemas = new Map<string, SchemaValidator>();

export function compileSchema(schema: object, options: SchemaOptions = {}): SchemaValidator {
  const useDefaults = options.useDefaults ?? true;
  const text = JSON.stringify(schema);
  // ajv registers a schema's `$id`s in its instance: two different schemas naming the same id could not share one.
  if (text.includes('"$id"')) return createSchemaCompiler(options).compile(schema);
  const key = `${useDefaults}:${text}`;
  let validate = compiledSchemas.get(key);
  if (!validate) {
    let compiler = sharedCompilers.get(useDefaults);
    if (!compiler) sharedCompilers.set(useDefaults, (compiler = createSchemaCompiler({ useDefaults })));
    validate = compiler.compile(schema);
    compiledSchemas.set(key, validate);
  }
  return validate;
}
