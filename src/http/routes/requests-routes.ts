/**
 * The request endpoints: create (idempotent with `x-idempotency-key`, optionally waiting with
 * `Prefer: wait=N`), poll (conditional with `If-None-Match`, and a long poll with `Prefer: wait=N`), the event
 * stream (request-events-route.ts), list (cursor pages) and cancel, plus cost estimates on the create envelope.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ApiError, type FieldError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { PollHints, requestStateTag, toRequestDetail, toRequestObject } from '../../kernel/lifecycle/index.js';
import { requestStatuses, terminalStatuses, type RequestStatus, type RequestViewRecord } from '../../kernel/store/index.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';
import { jsonBody } from '../middleware/json-body.js';
import { rateLimit } from '../middleware/rate-limit.js';
import { ifNoneMatchNames, weakEntityTag } from './entity-tags.js';
import { addRequestEventsRoute } from './request-events-route.js';
import { closeAfterAnswerAtShutdown, preferredWait, waitOn } from './request-waits.js';

const isTerminal = (record: RequestViewRecord) => terminalStatuses.has(record.status);

export function addRequestRoutes(router: Router, gateway: Gateway): void {
  const { apiKeys, creator, requests, settings, accounts, ledgers, rateLimiter } = gateway;
  const publicUrl = settings.server.public_url;
  const pollHints = new PollHints(gateway.registry, gateway.plugins);
  const limitCreates = rateLimit(rateLimiter, 'create', settings.rate_limits.creates_per_minute);
  const limitReads = rateLimit(rateLimiter, 'read', settings.rate_limits.reads_per_minute);

  router.post('/api/v1/requests', authenticate(apiKeys, 'requests:write'), limitCreates, jsonBody(settings.server), async (ctx) => {
    const key = apiKeyOf(ctx);
    const waitSeconds = preferredWait(ctx);
    const outcome = await creator.create(key, ctx.state.body, ctx.headers['x-idempotency-key'] === undefined ? undefined : ctx.get('x-idempotency-key'));
    for (const [name, value] of Object.entries(outcome.headers)) ctx.set(name, value);
    if (outcome.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.set('Location', outcome.body.urls.get);
    // Opened before the first read of the new request, so its finish cannot slip between that read and the wait.
    const watch = waitSeconds === undefined ? undefined : gateway.watches.open(outcome.body.id);
    if (watch) {
      try {
        ctx.set('Preference-Applied', `wait=${waitSeconds}`);
        const start = await requests.viewForKey(outcome.body.id, key.apiKeyId);
        const waited = start && (await waitOn(ctx, watch, start, isTerminal, waitSeconds! * 1000));
        closeAfterAnswerAtShutdown(ctx, gateway.watches);
        if (waited && waited.reached) {
          ctx.status = 200;
          ctx.body = toRequestDetail(waited.record, await ledgers.of(waited.record), publicUrl, pollHints.forRecord(waited.record));
          return;
        }
        // Answered 202 below, after a wait of at least a second: slow by the client's choice, which the
        // create-latency SLI leaves out (docs/operations.md).
        if (waitSeconds! >= 1) gateway.metrics.createWaitRanOut();
      } finally {
        watch.close();
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
      data: page.map((record) => toRequestObject(record, publicUrl, pollHints.forRecord(record))),
      has_more: hasMore,
      next_cursor: hasMore ? page.at(-1)!.id : null,
    };
  });

  router.get('/api/v1/requests/:requestId', authenticate(apiKeys, 'requests:read'), limitReads, async (ctx) => {
    const key = apiKeyOf(ctx);
    const waitSeconds = preferredWait(ctx);
    const held = ctx.get('if-none-match') || undefined;
    // Opened before the first read, so a change between that read and the wait is not missed.
    const watch = waitSeconds ? gateway.watches.open(ctx.params.requestId) : undefined;
    try {
      let record = await requests.viewForKey(ctx.params.requestId, key.apiKeyId);
      if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
      if (watch) {
        ctx.set('Preference-Applied', `wait=${waitSeconds}`);
        // Without If-None-Match the wait is for the result; with it, for any state but the one the client holds.
        const wanted = held === undefined ? isTerminal : (candidate: RequestViewRecord) => !ifNoneMatchNames(held, requestStateTag(candidate));
        const waited = await waitOn(ctx, watch, record, wanted, waitSeconds! * 1000);
        closeAfterAnswerAtShutdown(ctx, gateway.watches);
        // Out of time: the state as it is now, in case the notice of a change was lost.
        record = waited.reached ? waited.record : ((await requests.viewForKey(record.id, key.apiKeyId)) ?? waited.record);
      }
      // The tag comes from the row just read: a conditional poll costs no extra query, and a 304 skips the ledger read.
      const tag = requestStateTag(record);
      ctx.set('ETag', weakEntityTag(tag));
      // Any cache may keep the answer but must revalidate it (If-None-Match) before using it; a shared one must not keep it.
      ctx.set('Cache-Control', 'private, no-cache');
      // A held answer and an immediate one differ for the same URL (RFC 7240 §2).
      ctx.vary('Prefer');
      if (held !== undefined && ifNoneMatchNames(held, tag)) {
        ctx.status = 304;
        return;
      }
      // Read after the row: the finish writes the status and its ledger entries in one transaction, so the entries
      // are never behind the status shown.
      ctx.body = toRequestDetail(record, await ledgers.of(record), publicUrl, pollHints.forRecord(record));
    } finally {
      watch?.close();
    }
  });

  addRequestEventsRoute(router, gateway, { pollHints, limitReads });

  router.post('/api/v1/requests/:requestId/cancel', authenticate(apiKeys, 'requests:write'), limitCreates, async (ctx) => {
    const key = apiKeyOf(ctx);
    const record = await requests.getForKey(ctx.params.requestId, key.apiKeyId);
    if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
    await gateway.canceller.cancel(record);
    const cancelled = (await requests.get(record.id))!;
    ctx.body = toRequestDetail(cancelled, await ledgers.of(cancelled), publicUrl, pollHints.forRecord(cancelled));
  });
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
