/** The Koa application: a thin adapter from HTTP to the kernel. */
import Koa from 'koa';
import { Router } from '@koa/router';
import type { Gateway } from '../kernel/gateway.js';
import { problemDetails } from './middleware/problem-details.js';
import { addFilesRoute } from './routes/files-route.js';
import { addOpenApiRoute } from './routes/openapi-route.js';
import { addRequestRoutes } from './routes/requests-routes.js';
import { addStatusRoute } from './routes/status-route.js';

export function createHttpApp(gateway: Gateway): Koa {
  const app = new Koa();
  app.proxy = true;
  const router = new Router();
  addStatusRoute(router, gateway);
  addRequestRoutes(router, gateway);
  addOpenApiRoute(router, gateway);
  addFilesRoute(router, gateway);
  router.get('/healthz', (ctx) => {
    ctx.body = { ok: true, providers: gateway.plugins.breakerStates() };
  });
  app.use(problemDetails(gateway.log));
  app.use(router.routes());
  app.use(router.allowedMethods());
  // Koa would log every thrown error to stderr; problemDetails already handled and logged them.
  app.silent = true;
  return app;
}
