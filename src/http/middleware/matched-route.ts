import type { Context } from 'koa';

/**
 * The route pattern @koa/router matched (`/api/v1/requests/:requestId`), or `unmatched`. Metrics label and log by
 * it, never by the raw path: ids would explode a label set, and raw paths and queries carry ids, file names and
 * whatever a client put in them.
 */
export function matchedRoute(ctx: Context): string {
  const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
  return route === undefined ? 'unmatched' : String(route);
}
