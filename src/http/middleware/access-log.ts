/**
 * The access log: one `info` line per HTTP request, written when its response is over (sent in full, or the client
 * went away), so the duration includes streaming a hosted file and the status is the one the client got (or, for a
 * client that left first, the one it would have got, with `aborted: true`).
 *   {"msg":"http request","httpRequestId":"…","method":"GET","route":"/api/v1/requests/:requestId","status":200,
 *    "durationMs":3.4,"requestId":"req_…"}
 * Only the matched route pattern is logged, never the raw path or the query string, and no header: what a client
 * sends (keys, tokens, prompts, signed file names) cannot reach the log through it. Each response carries the same
 * `X-Request-Id`, always one we generate (a client-chosen value could itself be a secret), so a client reporting a
 * problem can name the line.
 */
import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import { matchedRoute } from './matched-route.js';

export function accessLog(log: Logger) {
  // The line's fields are safe by construction (above), so it skips the root logger's redaction: with its
  // wildcard paths, redacting one line cost about 15x writing it, on every request.
  const lines = log.child({}, { redact: { paths: [] } });
  return async function logAccess(ctx: Context, next: Next): Promise<void> {
    const httpRequestId = randomUUID();
    ctx.set('X-Request-Id', httpRequestId);
    // Below `info` there is no line to write: no clock to read, no listener to add.
    if (!lines.isLevelEnabled('info')) return next();
    const startedAt = process.hrtime.bigint();
    // Written once both are over: the handler (which decides the status, even for a client that already left, e.g.
    // during `Prefer: wait`) and the response (sent, or cut off).
    let handled = false;
    let closed: { aborted: boolean } | undefined;
    const write = () => {
      const durationMs = Math.round(Number(process.hrtime.bigint() - startedAt) / 100_000) / 10;
      const line: Record<string, unknown> = { httpRequestId, method: ctx.method, route: matchedRoute(ctx), status: ctx.status, durationMs };
      const requestId = generationRequestId(ctx);
      if (requestId) line.requestId = requestId;
      if (closed?.aborted) line.aborted = true;
      lines.info(line, 'http request');
    };
    ctx.res.once('close', () => {
      closed = { aborted: !ctx.res.writableFinished };
      if (handled) write();
    });
    try {
      await next();
    } finally {
      handled = true;
      if (closed) write();
    }
  };
}

/**
 * The generation request the call was about, so the line joins the worker's lines for it (they log `requestId`):
 * the route's `:requestId`, or the id of a request a create just answered with.
 */
function generationRequestId(ctx: Context): string | undefined {
  const fromRoute = (ctx.params as Record<string, string> | undefined)?.requestId;
  if (fromRoute && /^req_[0-9a-z]+$/.test(fromRoute)) return fromRoute;
  const body = ctx.body as { id?: unknown } | undefined;
  return body && typeof body === 'object' && typeof body.id === 'string' && /^req_[0-9a-z]+$/.test(body.id) ? body.id : undefined;
}
