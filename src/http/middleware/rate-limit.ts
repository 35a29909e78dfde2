/** Applies the key's limit for a bucket: RateLimit-* headers on every answer, 429 with Retry-After past it. */
import type { Context, Next } from 'koa';
import { ApiError } from '../../kernel/errors/index.js';
import type { RateBucket, RateLimiter } from '../../kernel/rate-limits/rate-limiter.js';
import { apiKeyOf } from './authenticate.js';

export function rateLimit(limiter: RateLimiter, bucket: RateBucket, limitPerMinute: number) {
  return async function limitRate(ctx: Context, next: Next): Promise<void> {
    if (limitPerMinute <= 0) return next();
    const decision = await limiter.take(apiKeyOf(ctx).apiKeyId, bucket, limitPerMinute, Date.now());
    // draft-ietf-httpapi-ratelimit-headers: limit, remaining, seconds to reset.
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      throw new ApiError('MG_RATE_LIMITED', `this key may make ${decision.limit} ${bucket} calls a minute; retry in ${decision.resetSeconds} s`, {
        headers: { 'Retry-After': String(decision.resetSeconds), 'RateLimit-Limit': String(decision.limit), 'RateLimit-Remaining': '0', 'RateLimit-Reset': String(decision.resetSeconds) },
      });
    }
    await next();
  };
}
