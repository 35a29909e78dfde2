/** The console's stylesheet at `/console/assets/console.css`, read once at start and served with a validator. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Router } from '@koa/router';

const stylesheet = readFileSync(new URL('./assets/console.css', import.meta.url));
const etag = `"${createHash('sha256').update(stylesheet).digest('base64url').slice(0, 22)}"`;

export function addConsoleAssetRoutes(router: Router): void {
  router.get('/console/assets/console.css', (ctx) => {
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', etag);
    if (ctx.get('If-None-Match') === etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/css; charset=utf-8';
    ctx.body = stylesheet;
  });
}
