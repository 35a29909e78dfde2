/**
 * Builds the OpenAPI 3.1 document from the manifests: one create schema per operation, discriminated by
 * `operation`, one output schema per operation, and the shared request/accepted/status/problem shapes.
 */
import type { OperationRegistry } from '../../kernel/manifests/index.js';
import { apiDecisions } from './decisions.js';
import { buildOperationSchemas } from './operation-schemas.js';
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
    },
    servers: [{ url: publicUrl }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      schemas: { ...buildOperationSchemas(registry.all()), ...buildSharedSchemas(registry) },
    },
    paths: {
      ...buildRequestPaths(registry),
      ...buildWebhookPaths(),
      '/api/v1/openapi': {
        get: { operationId: 'getOpenApi', summary: 'This document', security: [], responses: { '200': { description: 'OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } } },
      },
    },
  };
}
