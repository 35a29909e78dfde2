/**
 * The console in a real browser (Debian's Chromium through playwright-core) against a real service: sign in,
 * create a key and see its secret once, find a request with its image preview, read the ledger, rotate the
 * webhook secret. Each page is photographed: into docs/console/ for the README when MEDIAGATE_UPDATE_SCREENSHOTS=1
 * (`MEDIAGATE_UPDATE_SCREENSHOTS=1 npx mocha test/browser/console.test.ts`), otherwise into a temp folder, so a test
 * run never changes committed files. Without Chromium the suite is skipped on a laptop but fails in CI (CI set),
 * where .ci/run installs it.
 */
import { expect } from 'chai';
import type { Browser, Page } from 'playwright-core';
import { launchChromium, requireChromium, screenshotFolder, type ScreenshotFolder } from '../support/chromium.js';
import { testPassword } from '../support/console-client.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('console in Chromium', function () {
  this.timeout(180_000);
  let service: TestService;
  let browser: Browser;
  let page: Page;
  let screenshots: ScreenshotFolder | undefined;
  let account: { key: string; accountId: string; keyId: string };
  const email = 'owner@example.com';

  before(async function () {
    requireChromium(this);
    service = await startTestService();
    account = await service.createKey({ credits: 5000, name: 'production server' });
    await service.service.gateway.users.create({ email, password: testPassword, accountId: account.accountId, role: 'owner' });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    screenshots = await screenshotFolder();
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    await screenshots?.dispose();
  });

  const photograph = (name: string) => screenshots!.photograph(page, name);

  it('signs in', async () => {
    await page.goto(`${service.url}/console/keys`);
    expect(new URL(page.url()).pathname).to.equal('/console/login');
    await page.fill('input[name="email"]', email);
    await page.fill('input[name="password"]', testPassword);
    await photograph('sign-in');
    await Promise.all([page.waitForURL(`${service.url}/console/keys`), page.click('form[method="post"] button[type="submit"]')]);
    expect(await page.textContent('h1')).to.equal('API keys');
  });

  it('creates a key and shows its secret once', async () => {
    await page.fill('#key-name', 'laptop');
    await Promise.all([page.waitForURL(/\/console\/keys\/[^/]+\/created$/), page.click('text=Create key')]);
    const secret = await page.inputValue('#new-key-secret');
    expect(secret).to.match(/^mg_[0-9A-Za-z]{32}$/);
    await photograph('key-created');
    expect((await service.api('GET', '/api/v1/requests', { key: secret })).status).to.equal(200);

    await page.reload();
    expect(await page.locator('#new-key-secret').count()).to.equal(0);
    expect(await page.locator('[data-secret="gone"]').isVisible()).to.equal(true);
    expect(await page.content()).not.to.include(secret);

    await page.goto(`${service.url}/console/keys`);
    expect(await page.locator('tbody tr').count()).to.equal(2);
    await photograph('keys');
  });

  it('finds an image request in the log and shows the image', async () => {
    const created = await service.api('POST', '/api/v1/requests', {
      key: account.key,
      body: { operation: 'image.generate', input: { prompt: 'a lighthouse on a cliff at dusk, watercolour', model: 'nano-banana-pro', aspect_ratio: '16:9', resolution: '1K' } },
    });
    expect(created.status).to.equal(202);
    await pollUntilTerminal(service, account.key, created.body.id);
    const { webhookStore, database, clock } = service.service.gateway;
    await webhookStore.enqueue(database.sql, { id: 'msg_browser_1', requestId: created.body.id, accountId: account.accountId, url: 'https://hooks.example.com/mediagate', eventType: 'request.succeeded', payload: '{}', nowMs: clock.now() });
    await webhookStore.recordAttempt('msg_browser_1', { attemptedAtMs: clock.now(), statusCode: 200, error: null, durationMs: 48 }, { state: 'delivered', nextAttemptAtMs: null });

    await page.goto(`${service.url}/console/requests`);
    await page.selectOption('#filter-status', 'succeeded');
    await Promise.all([page.waitForURL(/status=succeeded/), page.click('text=Filter')]);
    await photograph('requests');
    await Promise.all([page.waitForURL(`${service.url}/console/requests/${created.body.id}`), page.click(`a[href="/console/requests/${created.body.id}"]`)]);
    const image = page.locator('figure.preview-image img');
    await image.waitFor();
    await page.waitForFunction(() => { const img = document.querySelector('figure.preview-image img') as HTMLImageElement | null; return img !== null && img.complete && img.naturalWidth > 0; });
    expect(await image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).to.deep.equal([1024, 576]);
    expect(await image.getAttribute('alt')).to.equal('Image 1 of 1: “a lighthouse on a cliff at dusk, watercolour”');
    await photograph('request');
  });

  it('shows the balance and the ledger', async () => {
    await page.goto(`${service.url}/console/credits`);
    const balance = (await service.service.gateway.accounts.getAccount(account.accountId))!.creditsBalance;
    expect(await page.getAttribute('[data-balance]', 'data-balance')).to.equal(String(balance));
    expect(await page.locator('tbody tr').count()).to.equal(2);
    await photograph('credits');
  });

  it('rotates the webhook secret', async () => {
    const before = await service.service.gateway.webhookSecrets.current(account.accountId);
    await page.goto(`${service.url}/console/webhooks`);
    // The POST redirects back to this same URL: wait for that page's answer, not for a URL change.
    const reloaded = page.waitForResponse((response) => response.url() === `${service.url}/console/webhooks` && response.request().method() === 'GET');
    await page.click('text=Rotate secret');
    await reloaded;
    await page.waitForLoadState();
    const after = await service.service.gateway.webhookSecrets.current(account.accountId);
    expect(after).not.to.equal(before);
    await page.click('summary');
    expect(await page.inputValue('#webhook-secret')).to.equal(after);
    await page.click('summary');
    await photograph('webhooks');
  });

  it('shows a world with the model linked to its character, and restores a deleted project', async () => {
    const { users, workspaces } = service.service.gateway;
    const actor = { userId: (await users.findByEmail(email))!.id, accountId: account.accountId };
    const run = async (operation: string, input: Record<string, unknown>) => {
      const created = await service.api('POST', '/api/v1/requests', { key: account.key, body: { operation, input } });
      expect(created.status, JSON.stringify(created.body)).to.equal(202);
      return (await pollUntilTerminal(service, account.key, created.body.id)).output;
    };
    const image = (await run('image.generate', { prompt: 'a harbour captain in a yellow coat', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '1K' })).image_url;
    const world = (await workspaces.worlds.create(actor, { name: 'Harbour town', description: 'a fishing town on a cold coast' })).world;
    const captain = (await workspaces.worlds.createAsset(actor, { worldId: world.id, kind: 'character', name: 'Captain Mira', referenceMedia: [image] })).asset;
    const model = await run('three_d.model.generate', { source_image_urls: [image], asset_kind: 'character', name: 'Mira', character_id: captain.id, universe_id: world.id });
    const scrapped = (await workspaces.projects.create(actor, { title: 'Scrapped teaser', worldId: world.id })).project;
    await workspaces.projects.delete(actor, scrapped.id, { dryRun: false, confirmed: true, title: 'Scrapped teaser' });

    await page.goto(`${service.url}/console/workspaces`);
    expect(await page.textContent(`tr[data-deleted-id="${scrapped.id}"] th`)).to.equal('Scrapped teaser');
    await photograph('workspaces');
    await Promise.all([page.waitForURL(`${service.url}/console/workspaces/worlds/${world.id}`), page.click(`a[href="/console/workspaces/worlds/${world.id}"]`)]);
    const card = page.locator(`[data-asset-id="${captain.id}"]`);
    expect(await card.locator(`a[href="${model.model_url}"]`).count()).to.equal(1);
    // Every thumbnail (the reference, the model's previews and image artifacts) really loads under the console's CSP.
    const images = [...model.preview_image_urls, ...model.raw_artifact_urls].filter((url: string) => /\.(png|jpe?g|webp)$/.test(url));
    expect(await card.locator('img').count()).to.equal(1 + images.length);
    await page.waitForFunction((id) => [...document.querySelectorAll(`[data-asset-id="${id}"] img`)].every((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), captain.id);
    await photograph('world');

    await page.goto(`${service.url}/console/workspaces`);
    await Promise.all([page.waitForURL(/restored=/), page.click(`tr[data-deleted-id="${scrapped.id}"] button`)]);
    expect(await page.textContent(`[data-restored="${scrapped.id}"]`)).to.include('“Scrapped teaser” was restored');
    expect(await page.locator(`tr[data-deleted-id="${scrapped.id}"]`).count()).to.equal(0);
    expect((await workspaces.projects.get(actor, scrapped.id)).project.deletedAtMs).to.equal(null);
  });
});
