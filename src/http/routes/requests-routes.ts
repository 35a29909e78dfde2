/**
 * The request endpoints: create (idempotent with `x-idempotency-key`, optionally waiting with
 * `Prefer: wait=N`), poll, list (cursor pages) and cancel, plus cost estimates on the create envelope.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ApiError, type FieldError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { toRequestObject } from '../../kernel/lifecycle/index.js';
import { requestStatuses, terminalStatuses, type RequestStatus } from '../../kernel/store/index.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { rateLimit } from '../middleware/rate-limit.js';

/** Longest `Prefer: wait` honoured, in seconds (RFC 7240). */
const maxWaitSeconds = 60;

export function addRequestRoutes(router: Router, gateway: Gateway): void {
  const { apiKeys, creator, requests, settings, accounts, rateLimiter } = gateway;
  const publicUrl = settings.server.public_url;
  const limitCreates = rateLimit(rateLimiter, 'create', settings.rate_limits.creates_per_minute);
  const limitReads = rateLimit(rateLimiter, 'read', settings.rate_limits.reads_per_minute);

  router.post('/api/v1/requests', authenticate(apiKeys, 'requests:write'), limitCreates, jsonBody(settings.server), async (ctx) => {
    const key = apiKeyOf(ctx);
    const waitSeconds = preferredWait(ctx);
    const outcome = await creator.create(key, ctx.state.body, ctx.headers['x-idempotency-key'] === undefined ? undefined : ctx.get('x-idempotency-key'));
    for (const [name, value] of Object.entries(outcome.headers)) ctx.set(name, value);
    if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.set('Location', outcome.body.urls.get);
    if (waitSeconds !== undefined) {
      ctx.set('Preference-Applied', `wait=${waitSeconds}`);
      const finished = await waitForTerminal(gateway, outcome.body.id, waitSeconds * 1000);
      if (finished) {
        ctx.status = 200;
        ctx.body = toRequestObject(finished, publicUrl);
        return;
      }
    }
    ctx.status = outcome.status;
    ctx.body = outcome.body;
  });

  // Estimates validate exactly as create does and write nothing; any valid key may ask.
  router.post('/api/v1/estimates', authenticate(apiKeys), limitCreates, jsonBody(settings.server), async (ctx) => {
    const key = apiKeyOf(ctx);
    const { prepared } = creator.prepare(ctx.state.body);
    const account = await accounts.getAccount(key.accountId);
    const remaining = account?.creditsBalance ?? 0;
    ctx.body = {
      operation: prepared.operation.name,
      model: prepared.model,
      billableCredits: prepared.credits,
      creditsRemaining: remaining,
      affordable: remaining >= prepared.credits,
    };
  });

  router.get('/api/v1/requests', authenticate(apiKeys, 'requests:read'), limitReads, async (ctx) => {
    const key = apiKeyOf(ctx);
    const filter = parseListQuery(ctx, gateway);
    const rows = await requests.listForKey(key.apiKeyId, { ...filter, limit: filter.limit + 1 });
    const page = rows.slice(0, filter.limit);
    const hasMore = rows.length > filter.limit;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      object: 'list',
      data: page.map((record) => toRequestObject(record, publicUrl)),
      has_more: hasMore,
      next_cursor: hasMore ? page.at(-1)!.id : null,
    };
  });

  router.get('/api/v1/requests/:requestId', authenticate(apiKeys, 'requests:read'), limitReads, async (ctx) => {
    const key = apiKeyOf(ctx);
    const record = await requests.viewForKey(ctx.params.requestId, key.apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = toRequestObject(record, publicUrl);
  });

  router.post('/api/v1/requests/:requestId/cancel', authenticate(apiKeys, 'requests:write'), limitCreates, async (ctx) => {
    const key = apiKeyOf(ctx);
    const record = await requests.getForKey(ctx.params.requestId, key.apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    await gateway.canceller.cancel(record);
    ctx.body = toRequestObject((await requests.get(record.id))!, publicUrl);
  });
}

/** `Prefer: wait=N` (RFC 7240): seconds to hold the create open for the result, capped at 60. */
function preferredWait(ctx: Context): number | undefined {
  const match = /(?:^|[,;\s])wait=(\d+)/i.exec(ctx.get('prefer'));
  if (!match) return undefined;
  return Math.min(maxWaitSeconds, Number(match[1]));
}

/** Re-reads the request at growing intervals until it is terminal or the time is up; the store is the truth. */
async function waitForTerminal(gateway: Gateway, id: string, budgetMs: number) {
  const until = Date.now() + budgetMs;
  for (let delay = 10; Date.now() < until; delay = Math.min(250, delay * 2)) {
    await new Promise((resolve) => setTimeout(resolve, Math.min(delay, Math.max(0, until - Date.now()))));
    const record = await gateway.requests.get(id);
    if (record && terminalStatuses.has(record.status)) return record;
  }
  return undefined;
}

function parseListQuery(ctx: Context, gateway: Gateway) {
  const errors: FieldError[] = [];
  const query = ctx.query as Record<string, string | string[] | undefined>;
  const one = (name: string) => (Array.isArray(query[name]) ? query[name]![0] : (query[name] as string | undefined));
  const integer = (name: string, min: number, max: number) => {
    const raw = one(name);
    if (raw === undefined) return undefined;
    const value = /^\d+$/.test(raw) ? Number(raw) : NaN;
    if (!(value >= min && value <= max)) errors.push({ path: `query:${name}`, message: `must be an integer from ${min} to ${max}` });
    return value;
  };
  const status = one('status');
  if (status !== undefined && !requestStatuses.includes(status as RequestStatus)) errors.push({ path: 'query:status', message: `must be one of ${requestStatuses.join(', ')}` });
  const operation = one('operation');
  if (operation !== undefined && !gateway.registry.get(operation)) errors.push({ path: 'query:operation', message: 'unknown operation' });
  const limit = integer('limit', 1, 100) ?? 20;
  const createdFromMs = integer('created_after', 0, Number.MAX_SAFE_INTEGER);
  const createdToMs = integer('created_before', 0, Number.MAX_SAFE_INTEGER);
  const startingAfter = one('starting_after');
  if (startingAfter !== undefined && !/^req_[0-9a-z]+$/.test(startingAfter)) errors.push({ path: 'query:starting_after', message: 'must be a request id' });
  if (errors.length > 0) throw new ApiError('MG_VALIDATION_FAILED', 'the list query does not validate', { errors });
  return { status: status as RequestStatus | undefined, operation, limit, createdFromMs, createdToMs, startingAfter };
}
