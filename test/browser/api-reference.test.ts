/**
 * The API reference (`/docs/api`) in a real browser (Debian's Chromium through playwright-core) against a real
 * service: Redoc renders every operation of the served OpenAPI document, its search (a web worker) works under the
 * page's Content-Security-Policy, and no request leaves the gateway's origin. Without Chromium the suite is skipped
 * on a laptop but fails in CI (CI set), where .ci/run installs it.
 */
import { expect } from 'chai';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium, requireChromium } from '../support/chromium.js';
import { startTestService, type TestService } from '../support/test-service.js';

interface Violation {
  directive: string;
  blockedUri: string;
}

interface DocumentedOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
}

describe('API reference (/docs/api) in Chromium', function () {
  this.timeout(180_000);
  let service: TestService;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let operations: DocumentedOperation[];
  // Every request the page tried to send over the network, and where Chromium blocked one before it left.
  const networkRequests: string[] = [];
  const cspBlocked: string[] = [];

  before(async function () {
    requireChromium(this);
    service = await startTestService();
    const openapi = (await service.api('GET', '/api/v1/openapi')).body as { paths: Record<string, Record<string, { operationId: string; summary: string }>> };
    operations = Object.entries(openapi.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method))
        .map(([method, operation]) => ({ method, path, operationId: operation.operationId, summary: operation.summary })),
    );
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    // Routing sees every request that would reach the network; one for another origin is recorded and dropped, so
    // the test itself stays offline.
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      networkRequests.push(url);
      if (new URL(url).origin === service.url) await route.continue();
      else await route.abort('blockedbyclient');
    });
    page = await context.newPage();
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText === 'csp') cspBlocked.push(request.url());
    });
    await page.addInitScript(() => {
      const seen: { directive: string; blockedUri: string }[] = [];
      (window as unknown as { cspViolations: typeof seen }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) => seen.push({ directive: event.effectiveDirective, blockedUri: event.blockedURI }));
    });
    await page.goto(`${service.url}/docs/api`);
    await page.waitForSelector('[data-section-id$="/operation/getRequest"] h2', { timeout: 60_000 });
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
  });

  it('renders every operation of the document in the sidebar and the content', async () => {
    expect(operations.length).to.be.greaterThan(10);
    for (const { method, path, operationId, summary } of operations) {
      const menuItem = page.locator(`[data-item-id$="operation/${operationId}"]`);
      expect(await menuItem.count(), `sidebar entry of ${operationId}`).to.equal(1);
      expect(await menuItem.locator('.operation-type').textContent(), `method badge of ${operationId}`).to.equal(method);
      expect(await menuItem.locator('label > span:not(.operation-type)').textContent(), `sidebar entry of ${operationId}`).to.equal(summary);

      const section = page.locator(`[data-section-id$="operation/${operationId}"]`).first();
      expect(normalise(await section.locator('h2').first().innerText()), `heading of ${operationId}`).to.equal(summary);
      expect(await section.innerText(), `endpoint of ${operationId}`).to.contain(path);
    }
  });

  it('searches with its web worker under the page policy', async () => {
    const summary = operations.find((operation) => operation.operationId === 'getRequest')!.summary;
    await page.fill('input.search-input', summary);
    const result = page.locator('[data-role="search:results"] [data-item-id$="operation/getRequest"]');
    await result.waitFor({ timeout: 20_000 });
    expect(await result.locator('label > span:not(.operation-type)').textContent()).to.equal(summary);
  });

  it('loads everything from the gateway: the page, Redoc, the document; the one third-party image is blocked by CSP', async () => {
    const origin = service.url;
    expect(networkRequests.filter((url) => new URL(url).origin !== origin)).to.deep.equal([]);
    expect(networkRequests.map((url) => url.replace(origin, ''))).to.include.members(['/docs/api', '/api/v1/openapi']);
    expect(networkRequests.some((url) => url.startsWith(`${origin}/docs/api/redoc.standalone.js?v=`))).to.equal(true);
    // Redoc's "API docs by Redocly" logo comes from its CDN: the policy stops it in the browser and Redoc hides it.
    expect(cspBlocked).to.deep.equal(['https://cdn.redoc.ly/redoc/logo-mini.svg']);
    const violations = await page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations);
    expect(violations).to.deep.equal([{ directive: 'img-src', blockedUri: 'https://cdn.redoc.ly/redoc/logo-mini.svg' }]);
  });
});

function normalise(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
