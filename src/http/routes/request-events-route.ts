/**
 * `GET /api/v1/requests/{id}/events`: a server-sent event stream of one request's states (WHATWG HTML, "Server-sent
 * events"). Each event's data is the request as the poll answers it, and its `id:` is the state tag (the poll's
 * ETag without `W/"..."`). The stream opens with the current state, sends each later one, and ends after the terminal
 * state. A client reconnecting with `Last-Event-ID` is sent only states other than the one it names, so nothing is
 * repeated, and one that already holds the terminal state gets 204, which tells an EventSource to stop reconnecting.
 * Same authentication, scope, ownership and read rate limit as the poll; the waiting is a kernel RequestWatch, as
 * a long poll's is. Comment lines keep an idle stream alive through proxies; a stream also ends after
 * `watches.max_stream_ms` and at shutdown, and the client resumes where it was.
 */
import type { ServerResponse } from 'node:http';
import type { Router } from '@koa/router';
import type { Middleware } from 'koa';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';
import { requestStateTag, toRequestDetail, type PollHints, type RequestWatch } from '../../kernel/lifecycle/index.js';
import { terminalStatuses, type RequestViewRecord } from '../../kernel/store/index.js';
import { apiKeyOf, authenticate } from '../middleware/authenticate.js';
import { clientGone } from './request-waits.js';

/** Reconnect delay the stream asks for, spread so that streams ended together (a shutdown) do not come back together. */
const retryMs = () => 1_000 + Math.floor(Math.random() * 2_000);

export function addRequestEventsRoute(router: Router, gateway: Gateway, shared: { pollHints: PollHints; limitReads: Middleware }): void {
  const { apiKeys, requests, watches, settings } = gateway;
  router.get('/api/v1/requests/:requestId/events', authenticate(apiKeys, 'requests:read'), shared.limitReads, async (ctx) => {
    const key = apiKeyOf(ctx);
    // Opened before the first read, so a change between that read and the wait is not missed.
    const watch = watches.open(ctx.params.requestId);
    if (!watch) {
      throw new ApiError('MG_UNAVAILABLE', `this server holds as many long polls and event streams as it allows (${settings.watches.max_per_process}); retry after Retry-After, or poll`, { headers: { 'Retry-After': '5' } });
    }
    let streaming = false;
    try {
      const record = await requests.viewForKey(ctx.params.requestId, key.apiKeyId);
      if (!record) throw new ApiError('MG_REQUEST_NOT_FOUND', `no request ${ctx.params.requestId} for this API key`);
      const lastEventId = ctx.get('last-event-id') || undefined;
      if (terminalStatuses.has(record.status) && requestStateTag(record) === lastEventId) {
        ctx.status = 204;
        return;
      }
      ctx.status = 200;
      ctx.type = 'text/event-stream';
      ctx.set('Cache-Control', 'no-store');
      // Proxies that buffer responses (nginx) would hold events back.
      ctx.set('X-Accel-Buffering', 'no');
      // Events are written to the response itself and Koa steps aside: no body stream to pipe, less held per stream.
      ctx.respond = false;
      const response = ctx.res;
      response.flushHeaders();
      streaming = true;
      const clientLeft = (): void => watch.end();
      response.once('close', clientLeft);
      if (clientGone(ctx)) watch.end();
      const socket = ctx.req.socket;
      void sendEvents(response, watch, record, lastEventId, gateway, shared.pollHints)
        .catch((error: unknown) => gateway.log.warn({ err: error, requestId: record.id }, 'request event stream failed; the client will resume'))
        .finally(() => {
          response.off('close', clientLeft);
          // At shutdown the connection goes with the stream: left idle, it would hold the server's close.
          if (watches.closing) response.once('finish', () => socket.end());
          watch.close();
          if (!response.writableEnded) response.end();
        });
    } finally {
      if (!streaming) watch.close();
    }
  });
}

/** The stream itself: the current state, each later one, until the terminal state, the client leaving, the stream's time limit or shutdown. */
async function sendEvents(response: ServerResponse, watch: RequestWatch, first: RequestViewRecord, lastEventId: string | undefined, gateway: Gateway, pollHints: PollHints): Promise<void> {
  const { settings, ledgers } = gateway;
  const write = (text: string) => {
    if (!response.destroyed && !response.writableEnded) response.write(text);
  };
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), settings.watches.keepalive_interval_ms);
  const deadline = performance.now() + settings.watches.max_stream_ms;
  try {
    write(`retry: ${retryMs()}\n\n`);
    let sent = lastEventId;
    let record = first;
    for (;;) {
      const tag = requestStateTag(record);
      if (tag !== sent) {
        const detail = toRequestDetail(record, await ledgers.of(record), settings.server.public_url, pollHints.forRecord(record));
        write(`id: ${tag}\ndata: ${JSON.stringify(detail)}\n\n`);
        sent = tag;
      }
      if (terminalStatuses.has(record.status)) return;
      const next = await watch.next(tag, deadline);
      if (!next) return;
      record = next;
    }
  } finally {
    clearInterval(keepAlive);
  }
}
