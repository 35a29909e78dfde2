/**
 * Who may read `/metrics`. With `metrics.bearer_token` set: whoever sends `Authorization: Bearer <token>`
 * (compared in constant time), 401 with a Bearer challenge otherwise. Without a token: only a loopback peer
 * (the socket's own address: `X-Forwarded-For` is the client's to write), and everyone else gets the same 404
 * as any unknown path, so the endpoint's existence is not advertised.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Context, Next } from 'koa';
import { ApiError } from '../../kernel/errors/index.js';
import { isLoopbackAddress } from '../loopback.js';

export function metricsAccess(options: { bearerToken: string; loopbackOnly: boolean }) {
  const expected = options.bearerToken ? digest(options.bearerToken) : undefined;
  return async function guardMetrics(ctx: Context, next: Next): Promise<void> {
    if (expected) {
      const presented = /^Bearer\s+(\S+)\s*$/i.exec(ctx.get('authorization'))?.[1];
      // Hashing first gives both sides one length, so the comparison's time says nothing about the token.
      if (!presented || !timingSafeEqual(digest(presented), expected)) {
        throw new ApiError('MG_UNAUTHENTICATED', 'send the metrics token as Authorization: Bearer <token>', { headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' } });
      }
    } else if (options.loopbackOnly && !isLoopbackAddress(ctx.request.socket.remoteAddress)) {
      throw new ApiError('MG_NOT_FOUND', `no route for ${ctx.method} ${ctx.path}`);
    }
    await next();
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
