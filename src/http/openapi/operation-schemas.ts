/** One create schema and one output schema per manifest, named `Create_<operation>` and `Output_<operation>`. */
import type { OperationDefinition, OperationManifest } from '../../kernel/manifests/index.js';
import { schemaName, type Schema } from './schema-refs.js';

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

function createSchema(manifest: OperationManifest): Schema {
  return {
    type: 'object',
    title: manifest.operation,
    description: `${manifest.summary}\n\nModels: ${describeModels(manifest).join(', ')}.`,
    required: ['operation', 'input'],
    additionalProperties: false,
    ...(manifest.deprecated ? { deprecated: true } : {}),
    properties: {
      operation: { const: manifest.operation },
      input: manifest.input,
      webhook_url: { type: 'string', format: 'uri', description: 'Receives a delivery when the request reaches a terminal state.' },
    },
    ...(manifest.examples?.length ? { examples: manifest.examples.map((input) => ({ operation: manifest.operation, input })) } : {}),
  };
}

export function buildOperationSchemas(definitions: OperationDefinition[]): Record<string, Schema> {
  const schemas: Record<string, Schema> = {};
  for (const { manifest } of definitions) {
    schemas[schemaName(manifest.operation, 'Create')] = createSchema(manifest);
    schemas[schemaName(manifest.operation, 'Output')] = { title: `${manifest.operation} output`, ...manifest.output };
  }
  return schemas;
}
