/**
 * Prices an example input with the kernel's own path (`OperationDefinition.prepare`: conditional and schema
 * defaults, validation, the manifest's credit rule), so an estimate here is what a create would charge. Fields
 * the caller leaves out but the schema requires get self-describing placeholders (`<prompt>`,
 * `https://example.com/image_url`): they never change a price, which depends on counts, durations and choices.
 */
import { ApiError, type FieldError } from '../../kernel/errors/index.js';
import type { JsonSchema, OperationDefinition } from '../../kernel/manifests/index.js';

export interface PricedExample {
  credits: number | null;
  /** The input as the kernel prepared it (defaults applied), or as given when it did not validate. */
  input: Record<string, unknown>;
  model: string;
  /** Why it could not be priced: the validation errors a create would get. */
  errors?: FieldError[];
}

/** `mediaFields`: media inputs bound by a plan, filled with placeholder URLs when not given. */
export function priceExample(definition: OperationDefinition, given: Record<string, unknown>, mediaFields: readonly string[] = []): PricedExample {
  const properties = (definition.manifest.input.properties ?? {}) as Record<string, JsonSchema>;
  const required = (definition.manifest.input.required as string[] | undefined) ?? [];
  const input: Record<string, unknown> = {};
  for (const field of [...required, ...mediaFields]) {
    if (given[field] === undefined && properties[field]) input[field] = placeholder(field, properties[field]);
  }
  Object.assign(input, given);
  const routing = definition.manifest.routing;
  const selected = routing.model_field ? input[routing.model_field] : undefined;
  try {
    const prepared = definition.prepare(input);
    return { credits: prepared.credits, input: prepared.input, model: prepared.model };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { credits: null, input, model: typeof selected === 'string' ? selected : routing.default_model, errors: error.extras.errors ?? [{ path: '/input', message: error.message }] };
  }
}

function placeholder(field: string, schema: JsonSchema): unknown {
  if (schema.type === 'array') return [placeholder(field, (schema.items as JsonSchema | undefined) ?? {})];
  if (schema.type === 'string' && Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'string') return schema.format === 'uri' || /_urls?$/.test(field) ? `https://example.com/${field}` : `<${field}>`;
  if (schema.type === 'integer' || schema.type === 'number') return schema.minimum ?? 1;
  if (schema.type === 'boolean') return false;
  return {};
}
