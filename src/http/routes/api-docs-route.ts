/**
 * `GET /docs/api`: the interactive API reference, Redoc rendering the document `GET /api/v1/openapi` serves. Redoc's
 * standalone bundle comes from our own node_modules through `/docs/api/redoc.standalone.js`, so the page works
 * offline and nothing it loads leaves the gateway's origin.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { Router } from '@koa/router';
import type { Context } from 'koa';

const require = createRequire(import.meta.url);
const redocBundle = require.resolve('redoc/bundles/redoc.standalone.js');
const redocVersion = (require('redoc/package.json') as { version: string }).version;

const apiReferencePath = '/docs/api';
const bundlePath = `${apiReferencePath}/redoc.standalone.js`;

/**
 * What Redoc needs and no more, found by rendering the page in Chromium under `default-src 'none'`:
 * - `style-src 'unsafe-inline'`: styled-components writes `<style>` elements, and takes its nonce only from the
 *   bundle's private webpack runtime (`__webpack_nonce__`), so a nonce is not an option;
 * - `worker-src blob:`: the search index runs in a web worker built from a `blob:` URL;
 * - `connect-src 'self'`: the document is fetched from `/api/v1/openapi`;
 * - `img-src data:`: Redoc's icons are data: URIs, and so is the page's empty favicon. The sidebar's "API docs by
 *   Redocly" logo comes from cdn.redoc.ly: it stays blocked (Redoc hides the image when it fails), so the page makes
 *   no third-party request (test/browser/api-reference.test.ts).
 */
const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'unsafe-inline'",
  'worker-src blob:',
  "connect-src 'self'",
  'img-src data:',
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

// The standalone bundle starts itself on the `<redoc spec-url>` element, so the page needs no inline script.
const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mediagate API reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; padding: 0; }</style>
</head>
<body>
<redoc spec-url="/api/v1/openapi" expand-responses="200,202" required-props-first="true"></redoc>
<script src="${bundlePath}?v=${encodeURIComponent(redocVersion)}"></script>
</body>
</html>
`;

export function addApiDocsRoute(router: Router): void {
  router.get(apiReferencePath, (ctx) => {
    ctx.set('Content-Security-Policy', contentSecurityPolicy);
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', 'no-cache');
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page;
  });

  // The page asks for the bundle with Redoc's version in the query, so an upgrade changes the URL and a year-long,
  // immutable cache is safe.
  router.get(bundlePath, sendBundle);
}

async function sendBundle(ctx: Context): Promise<void> {
  const { size } = await stat(redocBundle);
  ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  ctx.set('X-Content-Type-Options', 'nosniff');
  // HEAD gets the headers only: a stream opened for it would never be read or closed. Koa answers an emptied body
  // with 204 and clears type and length, so all three are set after it.
  ctx.body = ctx.method === 'HEAD' ? null : createReadStream(redocBundle);
  ctx.status = 200;
  ctx.type = 'text/javascript; charset=utf-8';
  ctx.length = size;
}
