/**
 * `/docs/api` over HTTP: the page and its policy, Redoc's bundle served from node_modules with a long cache, and the
 * knowledge pages beside it under `/docs/...` still answered. The browser half is test/browser/api-reference.test.ts.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect } from 'chai';
import { startTestService, type TestService } from '../support/test-service.js';

const require = createRequire(import.meta.url);
const redocVersion = (require('redoc/package.json') as { version: string }).version;
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('GET /docs/api (API reference)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService();
  });
  after(async () => service.stop());

  it('serves a page that renders the served document with the gateway\'s own Redoc, under a strict policy', async () => {
    const response = await fetch(`${service.url}/docs/api`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).to.equal(
      "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; worker-src blob:; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    );
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('cache-control')).to.equal('no-cache');
    const html = await response.text();
    expect(html).to.include('<redoc spec-url="/api/v1/openapi"');
    expect(html).to.include(`<script src="/docs/api/redoc.standalone.js?v=${redocVersion}"></script>`);
    expect(html).not.to.match(/<script>|https?:\/\//);
  });

  it('streams redoc.standalone.js from node_modules as JavaScript with a year-long immutable cache', async () => {
    const bundle = await readFile(require.resolve('redoc/bundles/redoc.standalone.js'));
    const response = await fetch(`${service.url}/docs/api/redoc.standalone.js?v=${redocVersion}`);
    expect(response.status).to.equal(200);
    expect(response.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(response.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
    expect(response.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(response.headers.get('content-length')).to.equal(String(bundle.length));
    expect(sha256(new Uint8Array(await response.arrayBuffer()))).to.equal(sha256(bundle));

    const head = await fetch(`${service.url}/docs/api/redoc.standalone.js`, { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(head.headers.get('content-length')).to.equal(String(bundle.length));
    expect(head.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect(await head.text()).to.equal('');
  });

  it('leaves the knowledge pages under /docs as they were, and serves nothing else under /docs/api', async () => {
    const index = await service.api('GET', '/docs');
    expect(index.status).to.equal(200);
    expect(index.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const recordPath = /href="(\/docs\/operation\/[^"]+)"/.exec(index.body as string)?.[1];
    expect(recordPath, 'an operation page linked from /docs').to.be.a('string');
    expect((await service.api('GET', recordPath!)).status).to.equal(200);

    const other = await service.api('GET', '/docs/api/redoc.standalone.js.map');
    expect([other.status, other.body.code]).to.deep.equal([404, 'MG_NOT_FOUND']);
  });
});
