/** The Koa application: a thin adapter from HTTP to the kernel. */
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Gateway } from '../kernel/gateway.js';
import { addMcpRoutes } from '../mcp/mcp-routes.js';
import { addConsoleRoutes } from './console/console-routes.js';
import { addOAuthRoutes } from './oauth/oauth-routes.js';
import { accessLog } from './middleware/access-log.js';
import { httpMetrics } from './middleware/http-metrics.js';
import { problemDetails } from './middleware/problem-details.js';
import { addApiDocsRoute } from './routes/api-docs-route.js';
import { addDocsRoute } from './routes/docs-route.js';
import { addFilesRoute } from './routes/files-route.js';
import { addOpenApiRoute } from './routes/openapi-route.js';
import { addHealthRoute, addMetricsRoute } from './routes/operational-routes.js';
import { addRequestRoutes } from './routes/requests-routes.js';
import { addSamplesRoute } from './routes/samples-route.js';
import { addStatusRoute } from './routes/status-route.js';
import { addWebhookRoutes } from './routes/webhook-routes.js';

/** The public API (`api` and `all` roles), with the MCP server beside it at `/mcp`. */
export function createHttpApp(gateway: Gateway, role = 'all'): Koa {
  // The request endpoints (creates and polls: nearly all of the traffic) have a router of their own, tried first:
  // a router tests every one of its routes against each path, and the other router holds some seventy.
  const requestRouter = new Router();
  addRequestRoutes(requestRouter, gateway);
  const router = new Router();
  addStatusRoute(router, gateway);
  addOpenApiRoute(router, gateway);
  addFilesRoute(router, gateway);
  addSamplesRoute(router, gateway);
  addWebhookRoutes(router, gateway);
  // Before the knowledge pages: `/docs/:kind/*slug` would otherwise take `/docs/api/<asset>`.
  addApiDocsRoute(router);
  addDocsRoute(router, gateway);
  addMcpRoutes(router, gateway);
  addConsoleRoutes(router, gateway);
  addOAuthRoutes(router, gateway);
  addOperationalRoutes(router, gateway, role);
  return assemble(gateway, router, requestRouter);
}

/** A worker's optional health and metrics port: nothing else is served there. */
export function createWorkerHealthApp(gateway: Gateway): Koa {
  const router = new Router();
  addOperationalRoutes(router, gateway, 'worker');
  return assemble(gateway, router);
}

/** `metrics.port`: `/metrics` alone, for a scraper (the token still applies when one is set). */
export function createMetricsApp(gateway: Gateway): Koa {
  const router = new Router();
  addMetricsRoute(router, gateway, { loopbackOnly: false });
  return assemble(gateway, router);
}

/** `/healthz` everywhere; `/metrics` beside it unless it has a port of its own (then it is served only there). */
function addOperationalRoutes(router: Router, gateway: Gateway, role: string): void {
  addHealthRoute(router, gateway, role);
  if (gateway.settings.metrics.port === 0) addMetricsRoute(router, gateway, { loopbackOnly: true });
}

/**
 * `first` routes ahead of `router`. A path `first` knows but not for the method falls through to `router`, whose
 * allowedMethods answers 405 with both routers' methods in `Allow` (@koa/router gathers every router's matches in
 * `ctx.matched`).
 */
function assemble(gateway: Gateway, router: Router, first?: Router): Koa {
  const app = new Koa();
  app.proxy = true;
  app.use(accessLog(gateway.log));
  app.use(httpMetrics(gateway.metrics));
  app.use(problemDetails(gateway.log));
  if (first) app.use(first.routes());
  app.use(router.routes());
  app.use(router.allowedMethods());
  // Koa would log every thrown error to stderr; problemDetails already handled and logged them.
  app.silent = true;
  return app;
}
