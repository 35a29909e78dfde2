/**
 * The component schemas every operation shares: the discriminated create body, the accepted/request/status
 * bodies and the problem shape. Operation names come from the registry, so a new manifest appears here unchanged.
 */
import { errorCatalogue } from '../../kernel/errors/index.js';
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { ref, schemaName, type Schema } from './schema-refs.js';

function createRequestSchema(registry: OperationRegistry): Schema {
  const definitions = registry.all();
  return {
    oneOf: definitions.map((definition) => ref(schemaName(definition.name, 'Create'))),
    discriminator: {
      propertyName: 'operation',
      mapping: Object.fromEntries(definitions.map((definition) => [definition.name, `#/components/schemas/${schemaName(definition.name, 'Create')}`])),
    },
  };
}

function requestObjectSchema(registry: OperationRegistry): Schema {
  return {
    type: 'object',
    required: ['id', 'operation', 'status', 'billableCredits', 'createdAtMs', 'startedAtMs', 'completedAtMs', 'errorMessage', 'output'],
    properties: {
      id: { type: 'string', pattern: '^req_' },
      operation: { type: 'string', enum: registry.names() },
      status: { enum: ['queued', 'processing', 'succeeded', 'failed'] },
      billableCredits: { type: 'integer' },
      createdAtMs: { type: 'integer' },
      startedAtMs: { type: ['integer', 'null'] },
      completedAtMs: { type: ['integer', 'null'] },
      errorMessage: { type: ['string', 'null'] },
      output: {
        description: 'Empty while queued; task metadata (task_id, status, provider, model) while processing; the operation output on success.',
        anyOf: [{ type: 'object' }, ...registry.all().map((definition) => ref(schemaName(definition.name, 'Output')))],
      },
      input: { type: ['object', 'null'], description: 'The submitted input (after defaults), kept for the retention period.' },
      dataRemovedAtMs: { type: ['integer', 'null'], description: 'When retention removed input, output and hosted files (7 days after creation by default).' },
      urls: { type: 'object', properties: { get: { type: 'string', format: 'uri' } } },
    },
  };
}

function statusResponseSchema(): Schema {
  return {
    type: 'object',
    required: ['ok', 'status', 'message', 'creditsRemaining', 'credits', 'account', 'apiKey', 'serverTime'],
    properties: {
      ok: { type: 'boolean' },
      status: { const: 'ok' },
      message: { type: 'string' },
      creditsRemaining: { type: 'integer' },
      credits: { type: 'object', required: ['remaining'], properties: { remaining: { type: 'integer' } } },
      account: { type: 'object', properties: { email: { type: 'string', format: 'email' }, plan: { type: 'string' } } },
      apiKey: { type: 'object', properties: { name: { type: 'string' }, scopes: { type: 'array', items: { enum: ['requests:read', 'requests:write'] } } } },
      serverTime: { type: 'string', format: 'date-time' },
    },
  };
}

function problemSchema(): Schema {
  return {
    type: 'object',
    description: 'RFC 9457 problem details. `code` is stable; see docs/errors.md.',
    required: ['type', 'title', 'status', 'detail', 'code'],
    properties: {
      type: { type: 'string', format: 'uri' },
      title: { type: 'string' },
      status: { type: 'integer' },
      detail: { type: 'string' },
      code: { enum: Object.keys(errorCatalogue) },
      instance: { type: 'string' },
      errors: {
        type: 'array',
        items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string', description: 'JSON pointer into the request body' }, message: { type: 'string' } } },
      },
    },
  };
}

export function buildSharedSchemas(registry: OperationRegistry): Record<string, Schema> {
  return {
    CreateRequest: createRequestSchema(registry),
    AcceptedResponse: {
      type: 'object',
      required: ['id', 'status', 'operation', 'poll_after_ms', 'urls'],
      properties: {
        id: { type: 'string', pattern: '^req_' },
        status: { const: 'queued' },
        operation: { type: 'string', enum: registry.names() },
        poll_after_ms: { type: 'integer', minimum: 0 },
        urls: { type: 'object', required: ['get'], properties: { get: { type: 'string', format: 'uri' } } },
      },
    },
    RequestObject: requestObjectSchema(registry),
    StatusResponse: statusResponseSchema(),
    Problem: problemSchema(),
  };
}
