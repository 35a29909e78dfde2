/** `POST /api/v1/requests` (create, idempotent with `x-idempotency-key`) and `GET /api/v1/requests/{id}`. */
import type { Router } from '@koa/router';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { toRequestObject } from '../../kernel/lifecycle/index.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';

export function addRequestRoutes(router: Router, gateway: Gateway): void {
  const { apiKeys, creator, requests, settings } = gateway;

  router.post('/api/v1/requests', authenticate(apiKeys, 'requests:write'), jsonBody(settings.server.body_limit_bytes), async (ctx) => {
    const key = apiKeyOf(ctx);
    const idempotencyKey = ctx.get('x-idempotency-key');
    const outcome = await creator.create(key, ctx.state.body, ctx.headers['x-idempotency-key'] === undefined ? undefined : idempotencyKey);
    for (const [name, value] of Object.entries(outcome.headers)) ctx.set(name, value);
    if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.set('Location', outcome.body.urls.get);
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  });

  router.get('/api/v1/requests/:requestId', authenticate(apiKeys, 'requests:read'), async (ctx) => {
    const key = apiKeyOf(ctx);
    const record = await requests.getForKey(ctx.params.requestId, key.apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toRequestObject(record, settings.server.public_url);
  });
}
