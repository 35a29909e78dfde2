/** `/healthz` (dependencies reachable, breaker states) and `/metrics` (Prometheus), for operators. */
import type { Router } from '@koa/router';
import type { Gateway } from '../../kernel/gateway.js';
import { checkHealth } from '../../kernel/observability/health.js';

export function addOperationalRoutes(router: Router, gateway: Gateway, role: string): void {
  router.get('/healthz', async (ctx) => {
    const report = await checkHealth({ role, database: gateway.database, queue: gateway.queue, plugins: gateway.plugins });
    ctx.status = report.ok ? 200 : 503;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = report;
  });
  router.get('/metrics', async (ctx) => {
    ctx.type = gateway.metrics.registry.contentType;
    ctx.body = await gateway.metrics.registry.metrics();
  });
}
