import type { Context, Next } from 'koa';
import type { GatewayMetrics } from '../../kernel/observability/metrics.js';
import { matchedRoute } from './matched-route.js';

/**
 * Requests and latency per route template (never per raw path: request ids would explode the label set). It sits
 * outside problemDetails (app.ts), so an error is counted with the status the client was answered.
 */
export function httpMetrics(metrics: GatewayMetrics) {
  return async function observeLatency(ctx: Context, next: Next): Promise<void> {
    const startedAt = performance.now();
    try {
      await next();
    } finally {
      metrics.httpAnswered(ctx.method, matchedRoute(ctx), String(ctx.status), (performance.now() - startedAt) / 1000);
    }
  };
}
