/** `GET /api/v1/openapi`: the OpenAPI 3.1 document, built once from the manifests. */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import { buildOpenApiDocument } from '../openapi/build-openapi.js';

export function addOpenApiRoute(router: Router, gateway: Gateway): void {
  const document = buildOpenApiDocument(gateway.registry, gateway.settings.server.public_url);
  const body = JSON.stringify(document);
  router.get('/api/v1/openapi', (ctx) => {
    ctx.type = 'application/json';
    ctx.body = body;
  });
}
