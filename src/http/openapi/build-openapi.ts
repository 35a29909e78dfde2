/**
 * Builds the OpenAPI 3.1 document from the manifests: per operation a create schema and a request object variant,
 * each discriminated by `operation`, and its output schema; then the shared accepted/status/problem shapes. It must
 * lint clean with Redocly's recommended rules (redocly.yaml, test/e2e/openapi-lint.test.ts).
 */
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { apiDecisions } from './decisions.js';
import { buildOperationSchemas } from './operation-schemas.js';
import { problem } from './problem-responses.js';
import { buildRequestPaths } from './request-paths.js';
import type { Schema } from './schema-refs.js';
import { buildSharedSchemas } from './shared-schemas.js';
import { buildWebhookPaths } from './webhook-paths.js';

export function buildOpenApiDocument(registry: OperationRegistry, publicUrl: string): Schema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'mediagate',
      version: '1.0.0',
      description: `Asynchronous media generation: submit an operation, poll the request until it succeeds or fails.\n${apiDecisions}`,
      // The project's licence (package.json) and home, the domain its error `type` URIs already use.
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      contact: { name: 'mediagate', url: 'https://mediagate.dev' },
    },
    servers: [{ url: publicUrl, description: 'This gateway (`server.public_url`)' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Requests', description: 'Submit an operation, price it, poll, list and cancel requests.' },
      { name: 'Account', description: 'Check an API key and its credit balance.' },
      { name: 'Webhooks', description: "The webhook signing secret, test sends, and a request's deliveries." },
      { name: 'Document', description: 'This OpenAPI document.' },
    ],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'An API key (`mg_...`, from `mediagate keys create`) with the scopes the operation names.' },
      },
      schemas: { ...buildOperationSchemas(registry.all(), publicUrl), ...buildSharedSchemas(registry) },
    },
    paths: {
      ...buildRequestPaths(registry),
      ...buildWebhookPaths(),
      '/api/v1/openapi': {
        get: {
          operationId: 'getOpenApi',
          summary: 'This document',
          tags: ['Document'],
          security: [],
          responses: {
            '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } },
            '408': problem('The request did not arrive within `server.headers_timeout_ms` (MG_REQUEST_TIMEOUT); the connection is closed'),
          },
        },
      },
    },
  };
}
