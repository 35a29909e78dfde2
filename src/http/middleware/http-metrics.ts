import type { Context, Next } from 'koa';
import type { GatewayMetrics } from '../../kernel/observability/metrics.js';

/** Latency per route template (never per raw path: request ids would explode the label set). */
export function httpMetrics(metrics: GatewayMetrics) {
  return async function observeLatency(ctx: Context, next: Next): Promise<void> {
    const end = metrics.httpDuration.startTimer();
    try {
      await next();
    } finally {
      end({ method: ctx.method, route: (ctx as Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched', status: String(ctx.status) });
    }
  };
}
