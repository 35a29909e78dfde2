/**
 * Builds the OpenAPI 3.1 document from the manifests: one create schema per operation, discriminated by
 * `operation`, one output schema per operation, and the shared request/accepted/status/problem shapes.
 */
import { errorCatalogue } from '../../kernel/errors/index.js';
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { apiDecisions } from './decisions.js';

type Schema = Record<string, unknown>;

const schemaName = (operation: string, kind: 'Create' | 'Output') => `${kind}_${operation.replace(/\./g, '_')}`;
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export function buildOpenApiDocument(registry: OperationRegistry, publicUrl: string): Schema {
  const definitions = registry.all();
  const schemas: Record<string, Schema> = {};
  for (const definition of definitions) {
    const { manifest } = definition;
    const models = Object.entries(manifest.routing.models).map(([value, route]) => {
      const notes = [
        route.label ?? route.vendor_model,
        route.disabled ? `disabled: ${route.disabled}` : '',
        // No vendor plugin yet: offline it is served by `local`, in production it answers 503.
        route.planned ? `planned: ${route.planned} plugin not available yet` : '',
        route.deprecated ? `deprecated: ${route.deprecated.message}` : '',
      ];
      return `\`${value}\` (${notes.filter(Boolean).join('; ')})`;
    });
    schemas[schemaName(manifest.operation, 'Create')] = {
      type: 'object',
      title: manifest.operation,
      description: `${manifest.summary}\n\nModels: ${models.join(', ')}.`,
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
    schemas[schemaName(manifest.operation, 'Output')] = { title: `${manifest.operation} output`, ...manifest.output };
  }

  Object.assign(schemas, {
    CreateRequest: {
      oneOf: definitions.map((definition) => ref(schemaName(definition.name, 'Create'))),
      discriminator: {
        propertyName: 'operation',
        mapping: Object.fromEntries(definitions.map((definition) => [definition.name, `#/components/schemas/${schemaName(definition.name, 'Create')}`])),
      },
    },
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
    RequestObject: {
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
          anyOf: [{ type: 'object' }, ...definitions.map((definition) => ref(schemaName(definition.name, 'Output')))],
        },
        input: { type: ['object', 'null'], description: 'The submitted input (after defaults), kept for the retention period.' },
        dataRemovedAtMs: { type: ['integer', 'null'], description: 'When retention removed input, output and hosted files (7 days after creation by default).' },
        urls: { type: 'object', properties: { get: { type: 'string', format: 'uri' } } },
      },
    },
    StatusResponse: {
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
    },
    Problem: {
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
    },
  });

  const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });
  const unavailable = {
    ...problem('MG_UNAVAILABLE: the database is down; retry after Retry-After'),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
  };

  return {
    openapi: '3.1.0',
    info: {
      title: 'mediagate',
      version: '1.0.0',
      description: `Asynchronous media generation: submit an operation, poll the request until it succeeds or fails.\n${apiDecisions}`,
    },
    servers: [{ url: publicUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas,
    },
    paths: {
      '/api/v1/status': {
        get: {
          operationId: 'getStatus',
          summary: 'Validate the API key and show the credit balance',
          responses: { '200': { description: 'The key is valid', content: { 'application/json': { schema: ref('StatusResponse') } } }, '401': problem('Key missing, invalid or revoked'), '503': unavailable },
        },
      },
      '/api/v1/requests': {
        get: {
          operationId: 'listRequests',
          summary: "List this key's requests, newest first, in cursor pages",
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
            { name: 'starting_after', in: 'query', schema: { type: 'string' }, description: '`next_cursor` of the previous page' },
            { name: 'status', in: 'query', schema: { enum: ['queued', 'processing', 'succeeded', 'failed'] } },
            { name: 'operation', in: 'query', schema: { type: 'string', enum: registry.names() } },
            { name: 'created_after', in: 'query', schema: { type: 'integer' }, description: 'epoch ms, inclusive' },
            { name: 'created_before', in: 'query', schema: { type: 'integer' }, description: 'epoch ms, exclusive' },
          ],
          responses: {
            '200': {
              description: 'One page',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['object', 'data', 'has_more', 'next_cursor'],
                    properties: { object: { const: 'list' }, data: { type: 'array', items: ref('RequestObject') }, has_more: { type: 'boolean' }, next_cursor: { type: ['string', 'null'] } },
                  },
                },
              },
            },
            '401': problem('Key missing, invalid or revoked'),
            '403': problem('Key lacks requests:read'),
            '422': problem('Invalid query (errors name `query:<parameter>`)'),
          },
        },
        post: {
          operationId: 'createRequest',
          summary: 'Submit an operation',
          parameters: [
            { name: 'x-idempotency-key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 }, description: 'Makes the create safe to retry (Stripe semantics).' },
            { name: 'Prefer', in: 'header', required: false, schema: { type: 'string', example: 'wait=10' }, description: 'RFC 7240 `wait=N` (N <= 60 s): answer 200 with the finished request object if it completes in time, else the usual 202.' },
          ],
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateRequest') } } },
          responses: {
            '200': { description: 'Finished within `Prefer: wait`', content: { 'application/json': { schema: ref('RequestObject') } } },
            '202': {
              description: 'Accepted; poll `urls.get`',
              headers: {
                'Idempotent-Replayed': { schema: { const: 'true' }, description: 'Present when this is a replay of an earlier response.' },
                Deprecation: { schema: { type: 'string' }, description: 'Present for legacy operations and model values (RFC 9745).' },
              },
              content: { 'application/json': { schema: ref('AcceptedResponse') } },
            },
            '400': problem('Malformed JSON'),
            '401': problem('Key missing, invalid or revoked'),
            '402': problem('Insufficient credits'),
            '403': problem('Key lacks requests:write'),
            '409': problem('Same idempotency key still in flight'),
            '413': problem('Body too large'),
            '415': problem('Body is not application/json'),
            '422': problem('Validation failed, unknown operation, disabled model, or idempotency key reused with another body'),
            '503': problem('No provider configured for the model (MG_PROVIDER_UNAVAILABLE), or the database is down (MG_UNAVAILABLE, with Retry-After; nothing charged)'),
          },
        },
      },
      '/api/v1/estimates': {
        post: {
          operationId: 'estimateRequest',
          summary: 'Price a create without spending anything (validated exactly as create)',
          requestBody: { required: true, content: { 'application/json': { schema: ref('CreateRequest') } } },
          responses: {
            '200': {
              description: 'What the create would charge',
              content: {
                'application/json': {
                  schema: {
                    type: 'object',
                    required: ['operation', 'model', 'billableCredits', 'creditsRemaining', 'affordable'],
                    properties: { operation: { type: 'string' }, model: { type: 'string' }, billableCredits: { type: 'integer' }, creditsRemaining: { type: 'integer' }, affordable: { type: 'boolean' } },
                  },
                },
              },
            },
            '401': problem('Key missing, invalid or revoked'),
            '422': problem('Validation failed'),
            '503': problem('No provider configured for the model'),
          },
        },
      },
      '/api/v1/requests/{requestId}/cancel': {
        post: {
          operationId: 'cancelRequest',
          summary: 'Cancel a queued or processing request: the vendor task is cancelled where the vendor allows it, the request fails and is refunded',
          parameters: [{ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The cancelled (failed) request', content: { 'application/json': { schema: ref('RequestObject') } } },
            '401': problem('Key missing, invalid or revoked'),
            '403': problem('Key lacks requests:write'),
            '404': problem('No such request for this key'),
            '409': problem('Already finished (MG_REQUEST_ALREADY_FINISHED), or held by a worker this instant (MG_REQUEST_BUSY, retry after Retry-After)'),
          },
        },
      },
      '/api/v1/requests/{requestId}': {
        get: {
          operationId: 'getRequest',
          summary: 'Poll a request',
          parameters: [{ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: {
            '200': { description: 'The request object', content: { 'application/json': { schema: ref('RequestObject') } } },
            '401': problem('Key missing, invalid or revoked'),
            '403': problem('Key lacks requests:read'),
            '404': problem('No such request for this key'),
            '503': unavailable,
          },
        },
      },
      '/api/v1/webhooks/secret': {
        get: {
          operationId: 'getWebhookSecret',
          summary: "The account's Standard Webhooks signing secret (created on first read)",
          responses: { '200': { description: 'The secret', content: { 'application/json': { schema: { type: 'object', required: ['key'], properties: { key: { type: 'string', pattern: '^whsec_' } } } } } }, '401': problem('Key missing, invalid or revoked'), '403': problem('Key lacks requests:write') },
        },
      },
      '/api/v1/webhooks/secret/rotate': {
        post: {
          operationId: 'rotateWebhookSecret',
          summary: 'Rotate the signing secret; the previous one keeps signing beside it during the grace window',
          responses: { '200': { description: 'The new secret', content: { 'application/json': { schema: { type: 'object', required: ['key'], properties: { key: { type: 'string' }, previousKeyValidForMs: { type: 'integer' } } } } } }, '401': problem('Key missing, invalid or revoked') },
        },
      },
      '/api/v1/webhooks/test': {
        post: {
          operationId: 'testWebhook',
          summary: 'Send one signed `webhook.test` event to a URL now (same guard and signing as real deliveries)',
          requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['url'], properties: { url: { type: 'string', format: 'uri' } } } } } },
          responses: {
            '200': {
              description: 'Whether the receiver answered 2xx, and its status where a public target answered; nothing about why an address was not reached',
              content: { 'application/json': { schema: { type: 'object', required: ['id', 'delivered', 'statusCode'], properties: { id: { type: 'string' }, delivered: { type: 'boolean' }, statusCode: { type: ['integer', 'null'] } } } } },
            },
            '422': problem('Not an http(s) URL'),
            '429': problem('Too many test sends for this key (`webhooks.test_sends_per_minute`); see Retry-After'),
          },
        },
      },
      '/api/v1/requests/{requestId}/deliveries': {
        get: {
          operationId: 'listWebhookDeliveries',
          summary: "The request's webhook deliveries and every attempt (status code, error, duration)",
          parameters: [{ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } }],
          responses: { '200': { description: 'Deliveries', content: { 'application/json': { schema: { type: 'object' } } } }, '404': problem('No such request for this key') },
        },
      },
      '/api/v1/requests/{requestId}/deliveries/{deliveryId}/redeliver': {
        post: {
          operationId: 'redeliverWebhook',
          summary: 'Send a delivery again (same webhook-id, so receivers can deduplicate)',
          parameters: [
            { name: 'requestId', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'deliveryId', in: 'path', required: true, schema: { type: 'string' } },
          ],
          responses: { '202': { description: 'Queued for delivery', content: { 'application/json': { schema: { type: 'object' } } } }, '404': problem('No such request or delivery') },
        },
      },
      '/api/v1/openapi': {
        get: { operationId: 'getOpenApi', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
    },
  };
}
