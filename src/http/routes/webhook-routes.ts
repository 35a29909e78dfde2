/**
 * Webhook endpoints: the account's signing secret (read, rotate), the deliveries and attempts of a request,
 * redelivery, and a test send to any URL (through the same guard and signing as real deliveries). The test
 * send makes the gateway call a URL of the client's choosing, so it is rate-limited and answers no more than
 * "delivered or not" and a public receiver's status: never a network error that would map internal hosts.
 */
import type { Router } from '@koa/router';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { newId } from '../../kernel/store/index.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { rateLimit } from '../middleware/rate-limit.js';

export function addWebhookRoutes(router: Router, gateway: Gateway): void {
  const { apiKeys, webhookSecrets, webhookStore, requests, settings, clock, rateLimiter } = gateway;
  const limitTestSends = rateLimit(rateLimiter, 'webhook_test', settings.webhooks.test_sends_per_minute);

  router.get('/api/v1/webhooks/secret', authenticate(apiKeys, 'requests:write'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { key: await webhookSecrets.current(apiKeyOf(ctx).accountId) };
  });

  router.post('/api/v1/webhooks/secret/rotate', authenticate(apiKeys, 'requests:write'), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { key: await webhookSecrets.rotate(apiKeyOf(ctx).accountId), previousKeyValidForMs: settings.webhooks.rotation_grace_ms };
  });

  router.post('/api/v1/webhooks/test', authenticate(apiKeys, 'requests:write'), limitTestSends, jsonBody(settings.server), async (ctx) => {
    const url = (ctx.state.body as { url?: unknown } | undefined)?.url;
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url) || url.length > 2048) {
      throw new ApiError('MG_VALIDATION_FAILED', 'send {"url": "https://..."}', { errors: [{ path: '/url', message: 'must be an http(s) URL' }] });
    }
    const problem = gateway.webhookUrlRules.problem(url);
    if (problem) throw new ApiError('MG_VALIDATION_FAILED', `url ${problem}`, { errors: [{ path: '/url', message: problem }] });
    const id = newId('msg', clock.now());
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date(clock.now()).toISOString(), data: { message: 'mediagate test delivery' } });
    const result = await gateway.webhooks.send(apiKeyOf(ctx).accountId, id, url, body);
    // statusCode is only ever a public receiver's (the guarded fetch refuses the rest before connecting).
    ctx.body = { id, delivered: result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300, statusCode: result.statusCode };
  });

  router.get('/api/v1/requests/:requestId/deliveries', authenticate(apiKeys, 'requests:read'), async (ctx) => {
    const record = await requests.getForKey(ctx.params.requestId, apiKeyOf(ctx).apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    const deliveries = await webhookStore.forRequest(record.id);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      object: 'list',
      data: deliveries.map((delivery) => ({
        id: delivery.id,
        url: delivery.url,
        type: delivery.eventType,
        state: delivery.state,
        attempts: delivery.attemptLog,
        nextAttemptAtMs: delivery.state === 'pending' ? delivery.nextAttemptAtMs : null,
        createdAtMs: delivery.createdAtMs,
        deliveredAtMs: delivery.deliveredAtMs,
      })),
    };
  });

  router.post('/api/v1/requests/:requestId/deliveries/:deliveryId/redeliver', authenticate(apiKeys, 'requests:write'), async (ctx) => {
    const record = await requests.getForKey(ctx.params.requestId, apiKeyOf(ctx).apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    const delivery = (await webhookStore.forRequest(record.id)).find((item) => item.id === ctx.params.deliveryId);
    if (!delivery) throw new ApiError('MG_NOT_FOUND', `no delivery ${ctx.params.deliveryId} for this request`);
    await webhookStore.redeliver(delivery.id, clock.now());
    ctx.status = 202;
    ctx.body = { id: delivery.id, state: 'pending' };
  });
}
