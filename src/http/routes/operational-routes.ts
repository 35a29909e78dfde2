/** `/healthz` (dependencies reachable, breaker states) and `/metrics` (Prometheus), for operators. */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import { checkHealth } from '../../kernel/observability/health.js';
import { metricsAccess } from '../middleware/metrics-access.js';

export function addHealthRoute(router: Router, gateway: Gateway, role: string): void {
  router.get('/healthz', async (ctx) => {
    const report = await checkHealth({ role, database: gateway.database, queue: gateway.queue, plugins: gateway.plugins, log: gateway.log, metrics: gateway.metrics });
    ctx.status = report.ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });
}

/**
 * `/metrics` behind its guard. `loopbackOnly` holds on ports that also serve other things (the API port, a
 * worker's health port); the dedicated `metrics.port` is opened by the operator for a scraper on purpose.
 */
export function addMetricsRoute(router: Router, gateway: Gateway, options: { loopbackOnly: boolean }): void {
  router.get('/metrics', metricsAccess({ bearerToken: gateway.settings.metrics.bearer_token, loopbackOnly: options.loopbackOnly }), async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.type = gateway.metrics.registry.contentType;
    ctx.body = await gateway.metrics.exposition();
  });
}
