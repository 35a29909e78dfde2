/**
 * Per manifest: the create body `Create_<operation>`, the finished output `Output_<operation>`, the request
 * object `RequestObject_<operation>` whose `output` is typed by that operation, and `RequestDetail_<operation>`, the
 * same with the request's `credits`.
 */
import { renderExamples, type OperationDefinition, type OperationManifest } from '../../kernel/manifests/index.js';
import { ref, schemaName, type Schema } from './schema-refs.js';
import { requestObjectFields } from './shared-schemas.js';
import { withoutValidatorKeywords } from './validator-keywords.js';

function describeModels(manifest: OperationManifest): string[] {
  return Object.entries(manifest.routing.models).map(([value, route]) => {
    const notes = [
      route.label ?? route.vendor_model,
      route.disabled ? `disabled: ${route.disabled}` : '',
      // No vendor plugin yet: offline it is served by `local`, in production it answers 503.
      route.planned ? `planned: ${route.planned} plugin not available yet` : '',
      route.deprecated ? `deprecated: ${route.deprecated.message}` : '',
    ];
    return `\`${value}\` (${notes.filter(Boolean).join('; ')})`;
  });
}

function createSchema(manifest: OperationManifest, publicUrl: string): Schema {
  return {
    type: 'object',
    title: manifest.operation,
    description: `${manifest.summary}\n\nModels: ${describeModels(manifest).join(', ')}.`,
    required: ['operation', 'input'],
    additionalProperties: false,
    ...(manifest.deprecated ? { deprecated: true } : {}),
    properties: {
      operation: { type: 'string', const: manifest.operation },
      input: withoutValidatorKeywords(manifest.input),
      webhook_url: { type: 'string', format: 'uri', description: 'Receives a delivery when the request reaches a terminal state.' },
    },
    ...(manifest.examples?.length ? { examples: renderExamples(manifest, publicUrl).map((input) => ({ operation: manifest.operation, input })) } : {}),
  };
}

/**
 * The request object of one operation, with `output` typed by it. `RequestObject` is the `oneOf` of these, told apart
 * by `operation`, since `output` carries nothing to discriminate on. Each variant is a whole object rather than an
 * `allOf` of shared fields plus `output`: every generator reads a flat object the same way, while `allOf` merging
 * differs between them (openapi-generator in particular).
 */
function requestObjectSchema(manifest: OperationManifest): Schema {
  const { required, properties: { id, ...fields } } = requestObjectFields();
  return {
    type: 'object',
    title: `${manifest.operation} request`,
    required: ['id', 'operation', ...required.filter((name) => name !== 'id'), 'output'],
    properties: {
      id,
      operation: { type: 'string', const: manifest.operation },
      ...fields,
      output: {
        description: `The ${manifest.operation} output once the request succeeded (until retention removes it); otherwise the pending output.`,
        // anyOf, not oneOf: nothing obliges an output schema to exclude the pending shape (one without a `status`
        // const would match both), and generators make the same union of either.
        anyOf: [ref(schemaName(manifest.operation, 'Output')), ref('PendingOutput')],
      },
    },
  };
}

/**
 * One variant of `RequestDetail` (a single request's answer): the operation's request object plus `credits`, flat
 * like the object itself rather than an `allOf` of the object union and the credits (generators merge an `allOf` over
 * a `oneOf` differently, when at all).
 */
function requestDetailSchema(manifest: OperationManifest): Schema {
  const object = requestObjectSchema(manifest) as { required: string[]; properties: Record<string, unknown> };
  return {
    ...object,
    title: `${manifest.operation} request detail`,
    required: [...object.required, 'credits'],
    properties: { ...object.properties, credits: ref('RequestCredits') },
  };
}

/** `publicUrl` renders the examples' sample media URLs (manifest-examples.ts). */
export function buildOperationSchemas(definitions: OperationDefinition[], publicUrl: string): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const { manifest } of definitions) {
    schemas[schemaName(manifest.operation, 'Create')] = createSchema(manifest, publicUrl);
    schemas[schemaName(manifest.operation, 'Output')] = { title: `${manifest.operation} output`, ...withoutValidatorKeywords(manifest.output) };
    schemas[schemaName(manifest.operation, 'RequestObject')] = requestObjectSchema(manifest);
    schemas[schemaName(manifest.operation, 'RequestDetail')] = requestDetailSchema(manifest);
  }
  return schemas;
}
