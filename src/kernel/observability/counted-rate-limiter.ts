/**
 * Counts the refusals (`mediagate_rate_limit_rejections_total`) of whichever limiter the gateway uses, at the
 * one place every door asks it — REST and MCP share the buckets — so a new door cannot forget to count.
 */
import type { RateLimiter } from '../rate-limits/rate-limiter.js';
import type { GatewayMetrics } from './metrics.js';

export function countingRejections(limiter: RateLimiter, metrics: GatewayMetrics): RateLimiter {
  return {
    async take(apiKeyId, bucket, limit, nowMs) {
      const decision = await limiter.take(apiKeyId, bucket, limit, nowMs);
      if (!decision.allowed) metrics.rateLimited(bucket);
      return decision;
    },
  };
}
