/**
 * The Node HTTP server under a Koa app, with the slow-client bounds: a client gets `headers_timeout_ms` to send
 * its headers and a little more than headers + body time for the whole request, then it is answered 408 and
 * disconnected. The body reader's own timeout (json-body.ts, `body_timeout_ms`) fires first and answers with
 * the full problem document; Node's `requestTimeout` is the backstop for routes that never read their body.
 */
import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type Koa from 'koa';
import { errorCatalogue, errorTypeUri } from '../kernel/errors/index.js';

export interface ServerTimeouts {
  headers_timeout_ms: number;
  body_timeout_ms: number;
}

/** Time between the body timeout and Node's own cut-off, so that ours answers first. */
const backstopMarginMs = 1000;

export function createHttpServer(app: Koa, timeouts: ServerTimeouts): Server {
  const server = createServer(
    {
      headersTimeout: timeouts.headers_timeout_ms,
      requestTimeout: timeouts.headers_timeout_ms + timeouts.body_timeout_ms + backstopMarginMs,
      // Node checks both timeouts on this interval (30 s by default): a bound is only as sharp as the check.
      connectionsCheckingInterval: Math.max(100, Math.min(1000, Math.floor(timeouts.headers_timeout_ms / 4))),
    },
    app.callback(),
  );
  server.on('clientError', answerClientError);
  return server;
}

/**
 * Node's own answers to a request it cannot hand to the app, as problem documents where we still can write
 * (nothing of a response sent yet). Listening replaces Node's default, so every case is answered here.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.write(problemResponse(408, 'Request Timeout', 'the request did not arrive in time'));
    else if (error.code === 'HPE_HEADER_OVERFLOW') socket.write('HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n');
    else socket.write('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
  }
  socket.destroy(error);
}

function problemResponse(status: 408, reason: string, detail: string): string {
  const code = 'MG_REQUEST_TIMEOUT';
  const body = JSON.stringify({ type: errorTypeUri(code), title: errorCatalogue[code].title, status, detail, code });
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
