/**
 * The project export page in a real browser (Debian's Chromium through playwright-core), on real data: a
 * service builds a world with assets and a project with steps and a share, real generation requests link their
 * hosted artifacts to the project, the world and its assets, and the kernel's snapshot becomes the page
 * (`snapshotJson`, as export_creator_flow_project does). The file is opened from disk (`file://`): it shows
 * everything, loads nothing but media images (every other request would be a failure, and images are blocked
 * and counted so nothing leaves the machine), filters as you type, downloads exactly its data, prints to PDF
 * with the search hidden and each section on its own page, and shows hostile text literally without running it.
 * Without Chromium the suite is skipped on a laptop but fails in CI (see test/support/chromium.ts).
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import type { Browser, Page, Request } from 'playwright-core';
import type { WorkspaceActor } from '../../src/kernel/workspaces/index.js';
import { renderProjectExportPage } from '../../src/mcp/tools/workspace/project-export-page.js';
import { snapshotJson, type SnapshotJson } from '../../src/mcp/tools/workspace/workspace-views.js';
import { launchChromium, requireChromium } from '../support/chromium.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const run = promisify(execFile);
const pdftotext = '/usr/bin/pdftotext';
const password = 'correct horse battery staple 42';
const hostileTitle = '</script><img src=x onerror=alert(1)>';

/** A page opened from disk, with every request it made; http(s) ones are aborted, so none leaves the machine. */
interface OpenedExport {
  page: Page;
  requests: Request[];
  dialogs: string[];
}

/** Ids sort by creation time to the millisecond: assets made within one are listed in either order. */
const nextMillisecond = () => new Promise((resolve) => setTimeout(resolve, 2));

describe('project export page in Chromium', function () {
  this.timeout(240_000);
  let service: TestService;
  let browser: Browser;
  let folder: string;
  let actor: WorkspaceActor;
  let collaboratorEmail: string;
  let data: SnapshotJson;
  let exportPath: string;
  const ids: Record<'world' | 'character' | 'object' | 'location' | 'zone' | 'project', string> = {} as never;
  const requestIds: Record<'image' | 'model' | 'location' | 'worldView', string> = {} as never;

  async function generate(key: string, operation: string, input: Record<string, unknown>) {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation, input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id, 120_000);
    expect(done.status, done.errorMessage).to.equal('succeeded');
    return done;
  }

  async function writeExport(name: string, snapshot: SnapshotJson): Promise<string> {
    const path = join(folder, `${name}.html`);
    await writeFile(path, renderProjectExportPage(snapshot, { publicUrl: service.url }));
    return path;
  }

  async function openExport(path: string): Promise<OpenedExport> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const requests: Request[] = [];
    const dialogs: string[] = [];
    page.on('request', (request) => requests.push(request));
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await page.route(/^https?:/, (route) => route.abort('blockedbyclient'));
    await page.goto(pathToFileURL(path).href);
    return { page, requests, dialogs };
  }

  const visibleTexts = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll((elements) => elements.filter((element) => (element as HTMLElement).offsetParent !== null).map((element) => element.textContent!.trim()));

  before(async function () {
    requireChromium(this);
    service = await startTestService();
    folder = await mkdtemp(join(tmpdir(), 'mediagate-export-'));
    const { gateway } = service.service;
    const mine = await service.createKey({ credits: 10_000 });
    const owner = await gateway.users.create({ email: 'maker@example.com', password, accountId: mine.accountId, role: 'owner' });
    actor = { userId: owner.id, accountId: mine.accountId };
    const theirs = await service.createKey({ credits: 10 });
    collaboratorEmail = 'editor@partner.example.com';
    await gateway.users.create({ email: collaboratorEmail, password, accountId: theirs.accountId, role: 'owner' });

    const { worlds, projects } = gateway.workspaces;
    ids.world = (await worlds.create(actor, { name: 'Harbour town', description: 'A fishing town on a grey northern coast.' })).world.id;
    ids.character = (await worlds.createAsset(actor, {
      worldId: ids.world, kind: 'character', name: 'Mara Vale', description: 'The harbour master, blue coat, silver hair.',
      referenceMedia: ['https://cdn.example.com/refs/mara-front.png', 'https://cdn.example.com/refs/mara-turnaround.mp4'],
    })).asset.id;
    await nextMillisecond();
    ids.object = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'object', name: 'Storm lantern' })).asset.id;
    await nextMillisecond();
    ids.location = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'location', name: 'Pier', description: 'A long wooden pier.' })).asset.id;
    await nextMillisecond();
    ids.zone = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'zone', name: 'Pier end', locationId: ids.location })).asset.id;
    ids.project = (await projects.create(actor, {
      title: 'Harbour short',
      description: 'A one-minute short: Mara lights the lantern at the end of the pier.',
      worldId: ids.world,
      steps: [
        { operation: 'image.generate', input: { prompt: 'a harbour master in a blue coat', aspect_ratio: '16:9' }, notes: 'Key art for the poster' },
        { operation: 'three_d.model.generate', input: { asset_kind: 'character', character_id: ids.character, universe_id: ids.world }, notes: 'Model of Mara from the key art' },
        { operation: 'three_d.location.generate', input: { description: 'a wooden pier at dawn', location_id: ids.location, zone_id: ids.zone }, notes: 'The set' },
      ],
    })).project.id;
    await projects.update(actor, ids.project, { status: 'active', share: [{ email: collaboratorEmail, role: 'editor' }] });

    const image = await generate(mine.key, 'image.generate', { prompt: 'a harbour master in a blue coat', model: 'nano-banana' });
    requestIds.image = image.id;
    requestIds.model = (await generate(mine.key, 'three_d.model.generate', {
      source_image_urls: [image.output.image_url], asset_kind: 'character', character_id: ids.character, universe_id: ids.world,
    })).id;
    requestIds.location = (await generate(mine.key, 'three_d.location.generate', {
      description: 'a wooden pier at dawn', location_id: ids.location, zone_id: ids.zone, universe_id: ids.world, project_id: ids.project,
    })).id;
    requestIds.worldView = (await generate(mine.key, 'three_d.location.generate', { description: 'the whole harbour from the hill', universe_id: ids.world })).id;

    data = snapshotJson(await gateway.workspaces.snapshot(actor, ids.project));
    exportPath = await writeExport('harbour-short', data);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await service?.stop();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('is built from a snapshot that has every kind of content', () => {
    // Guards the fixture: each later assertion about media and links needs these to be there.
    expect(data.project.steps).to.have.length(3);
    expect(data.project.requests.map((link) => link.request_id)).to.deep.equal([requestIds.location]);
    expect(data.world_links.map((link) => link.request_id)).to.deep.equal([requestIds.worldView]);
    // Oldest first; assets made within one millisecond keep their (random) id order, so compare as members.
    expect(data.assets.map((asset) => asset.name)).to.have.members(['Mara Vale', 'Storm lantern', 'Pier', 'Pier end']);
    expect(data.assets[0]!.name).to.equal('Mara Vale');
    expect(data.assets[0]!.links.map((link) => link.request_id)).to.deep.equal([requestIds.model]);
    expect(data.project.shared_with).to.deep.include({ email: collaboratorEmail, role: 'editor' });
  });

  it('shows the project, steps, requests, world and assets from disk, and fetches nothing but media images', async () => {
    const { page, requests, dialogs } = await openExport(exportPath);
    try {
      expect(await page.getAttribute('html', 'lang')).to.equal('en');
      expect(await page.title()).to.equal('Harbour short · project export');
      expect(await page.textContent('h1')).to.equal('Harbour short');
      const note = (await page.textContent('#snapshot-note'))!;
      for (const phrase of ['Private, point-in-time snapshot', 'needs network access', 'may expire', 'kept 7 days']) expect(note).to.include(phrase);
      expect(await page.locator('#snapshot-note time').getAttribute('datetime')).to.equal(data.exported_at);

      const project = page.locator('#project');
      expect(await project.locator('.description').textContent()).to.equal(data.project.description);
      expect(await project.locator('[data-field="status"]').textContent()).to.equal('active');
      expect(await project.locator('.shares li').allTextContents()).to.deep.equal(data.project.shared_with.map((share) => `${share.email} ${share.role}`));

      const steps = page.locator('#steps li.step');
      expect(await steps.locator('h3').allTextContents()).to.deep.equal(['Step 1: image.generate', 'Step 2: three_d.model.generate', 'Step 3: three_d.location.generate']);
      expect(await steps.locator('.notes').allTextContents()).to.deep.equal(['Key art for the poster', 'Model of Mara from the key art', 'The set']);
      expect(await steps.locator('pre').allTextContents()).to.deep.equal(data.project.steps.map((step) => JSON.stringify(step.input, null, 2)));

      const requestRows = page.locator('#requests tbody tr');
      expect(await requestRows.count()).to.equal(1);
      expect(await requestRows.locator('td').nth(0).textContent()).to.equal(requestIds.location);
      expect(await requestRows.locator('td').nth(1).textContent()).to.equal('three_d.location.generate');
      const locationArtifacts = data.project.requests[0]!.artifacts;
      const previewUrls = locationArtifacts.preview_image_urls as string[];
      expect(previewUrls.length).to.be.greaterThan(0);
      for (const url of previewUrls) {
        const image = requestRows.locator(`img[src="${url}"]`);
        expect(await image.getAttribute('loading')).to.equal('lazy');
        expect(await image.getAttribute('alt')).to.equal('three_d.location.generate: preview image');
      }
      expect(await requestRows.locator(`a[href="${locationArtifacts.splat_url}"]`).textContent()).to.equal('splat');
      expect(await requestRows.locator(`img[src="${locationArtifacts.splat_url}"]`).count(), 'a splat is no image').to.equal(0);

      expect(await page.textContent('#world-heading')).to.equal('World: Harbour town');
      expect(await page.locator('#world tbody tr td:first-child').allTextContents()).to.deep.equal([requestIds.worldView]);
      const assets = page.locator('article.asset');
      expect(await assets.locator('h4').allTextContents(), 'in the snapshot\'s order').to.deep.equal(data.assets.map((asset) => `${asset.name} ${asset.kind}`));
      const mara = page.locator(`#asset-${ids.character}`);
      expect(await mara.locator('.description').textContent()).to.equal('The harbour master, blue coat, silver hair.');
      expect(await mara.locator('img[src="https://cdn.example.com/refs/mara-front.png"]').getAttribute('alt')).to.equal('Reference 1 of Mara Vale');
      expect(await mara.locator('a[href="https://cdn.example.com/refs/mara-turnaround.mp4"]').textContent()).to.equal('Reference 2 of Mara Vale');
      const model = data.assets[0]!.links[0]!.artifacts;
      expect(await mara.locator(`a[href="${model.model_url}"]`).textContent()).to.equal('model');
      expect(await mara.locator(`a[href="${model.model_url}"] + .origin`).textContent()).to.match(/hosted by the gateway\)$/);
      expect(await mara.locator('.link code').first().textContent()).to.equal('three_d.model.generate');
      expect(await page.locator(`#asset-${ids.zone}`).locator(`a[href="#asset-${ids.location}"]`).textContent()).to.equal('Pier');

      // The inline script ran under the page's own Content-Security-Policy: it shows the toolbar.
      expect(await page.isVisible('#export-search')).to.equal(true);
      expect(await page.isVisible('#download-json')).to.equal(true);

      // Walk down the page so every lazy image has been asked for, then account for every request made.
      for (let y = 0; y < (await page.evaluate(() => document.body.scrollHeight)); y += 600) await page.mouse.wheel(0, 600);
      const imageSources = new Set(await page.locator('img').evaluateAll((images) => images.map((image) => image.getAttribute('src')!)));
      const requestedImages = () => new Set(requests.filter((request) => request.resourceType() === 'image').map((request) => request.url()));
      for (const deadline = Date.now() + 10_000; requestedImages().size < imageSources.size && Date.now() < deadline;) await page.waitForTimeout(50);
      expect(requests[0]!.url()).to.equal(pathToFileURL(exportPath).href);
      const others = requests.slice(1);
      expect(others.map((request) => [request.resourceType(), imageSources.has(request.url())]), 'only media images were requested').to.deep.equal(others.map(() => ['image', true]));
      expect(new Set(others.map((request) => request.url()))).to.deep.equal(imageSources);
      expect(dialogs).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });

  it('filters steps, requests and assets as you type, case-insensitively, and says when nothing matches', async () => {
    const { page } = await openExport(exportPath);
    try {
      await page.locator('#export-search').pressSequentially('MARA');
      expect(await visibleTexts(page, 'article.asset h4')).to.deep.equal(['Mara Vale character']);
      expect(await visibleTexts(page, 'li.step .notes'), 'step 2 names Mara in its notes').to.deep.equal(['Model of Mara from the key art']);
      expect(await page.locator('#requests tbody tr').isVisible()).to.equal(false);
      expect(await page.locator('#requests .no-matches').textContent()).to.equal('No requests match “MARA”.');
      expect(await page.isVisible('#requests .no-matches')).to.equal(true);
      expect(await page.isVisible('#steps .no-matches')).to.equal(false);
      expect(await page.textContent('#search-status')).to.equal('2 of 9 steps, requests and assets match “MARA”.');

      await page.fill('#export-search', 'pier');
      expect(await visibleTexts(page, 'article.asset h4')).to.have.members(['Pier location', 'Pier end zone']);
      expect(await visibleTexts(page, 'li.step h3'), 'step 3 drafts "a wooden pier at dawn"').to.deep.equal(['Step 3: three_d.location.generate']);
      expect(await page.isVisible('#requests .no-matches')).to.equal(true);

      await page.fill('#export-search', requestIds.location.toUpperCase());
      expect(await visibleTexts(page, '#requests tbody td:first-child')).to.deep.equal([requestIds.location]);
      expect(await visibleTexts(page, 'article.asset h4'), 'the location and zone carry the same request').to.have.members(['Pier location', 'Pier end zone']);

      await page.fill('#export-search', 'no such thing anywhere');
      expect(await visibleTexts(page, '[data-filter-item]')).to.deep.equal([]);
      expect(await visibleTexts(page, '.no-matches')).to.deep.equal([
        'No steps match “no such thing anywhere”.',
        'No requests match “no such thing anywhere”.',
        'No world requests match “no such thing anywhere”.',
        'No assets match “no such thing anywhere”.',
      ]);

      await page.fill('#export-search', '');
      expect(await visibleTexts(page, '[data-filter-item]')).to.have.length(9);
      expect(await visibleTexts(page, '.no-matches')).to.deep.equal([]);
      expect(await page.textContent('#search-status')).to.equal('');
    } finally {
      await page.close();
    }
  });

  it('downloads exactly its data as <title slug>-<date>.json', async () => {
    const { page } = await openExport(exportPath);
    try {
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
      expect(data.exported_at).to.match(/^\d{4}-\d{2}-\d{2}T/);
      expect(download.suggestedFilename()).to.equal(`harbour-short-${data.exported_at.slice(0, 10)}.json`);
      const saved = JSON.parse(await readFile((await download.path())!, 'utf8'));
      expect(saved).to.deep.equal(data);
    } finally {
      await page.close();
    }
  });

  it('prints to PDF: search and button hidden, every item shown, each section on its own page, nothing cut off', async () => {
    const { page } = await openExport(exportPath);
    try {
      await page.fill('#export-search', 'mara');
      await page.emulateMedia({ media: 'print' });
      expect(await page.isVisible('#export-search')).to.equal(false);
      expect(await page.isVisible('#download-json')).to.equal(false);
      expect(await visibleTexts(page, '[data-filter-item]'), 'paper shows the whole snapshot, whatever was typed').to.have.length(9);
      expect(await visibleTexts(page, '.no-matches')).to.deep.equal([]);
      const overflowing = await page.locator('pre, table, figure, .asset, .step').evaluateAll((elements) => elements.filter((element) => element.scrollWidth > element.clientWidth + 1).map((element) => element.outerHTML.slice(0, 80)));
      expect(overflowing).to.deep.equal([]);

      const pdf = await page.pdf({ format: 'A4', margin: { top: '15mm', bottom: '15mm', left: '12mm', right: '12mm' } });
      expect(pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      expect(pdf.length).to.be.greaterThan(10_000);
      // Chromium writes the document title into the PDF's Info dictionary as UTF-16BE hex: readable without poppler.
      const infoTitle = /\/Title <FEFF([0-9A-F]+)>/.exec(pdf.toString('latin1'))?.[1];
      expect(infoTitle && Buffer.from(infoTitle, 'hex').swap16().toString('utf16le')).to.equal('Harbour short · project export');
      // .ci/run installs poppler-utils; a laptop without it still gets the print media checks above.
      if (!existsSync(pdftotext)) {
        if (process.env.CI) throw new Error(`${pdftotext} is missing: install Debian's poppler-utils (.ci/run does)`);
        return;
      }
      const pdfPath = join(folder, 'harbour-short.pdf');
      await writeFile(pdfPath, pdf);
      const text = (await run(pdftotext, ['-layout', pdfPath, '-'])).stdout;
      const pages = text.split('\f').map((content) => content.trim()).filter((content) => content.length > 0);
      const pageStarting = (heading: string) => pages.findIndex((content) => content.split('\n')[0]!.trim() === heading);
      expect(pages[0]).to.include('Harbour short');
      expect(pages[0]).to.include('Private, point-in-time snapshot');
      expect(pages[0]).not.to.include('Download JSON');
      const starts = ['Steps', 'Requests', 'World: Harbour town'].map(pageStarting);
      expect(starts.every((index) => index > 0), `sections start pages: ${JSON.stringify(starts)}`).to.equal(true);
      expect(starts).to.deep.equal([...starts].sort((a, b) => a - b));
      for (const expected of ['Key art for the poster', 'Storm lantern', 'Pier end', requestIds.location, requestIds.model]) expect(text).to.include(expected);
    } finally {
      await page.close();
    }
  });

  it('shows hostile text literally and runs none of it', async () => {
    const { worlds, projects } = service.service.gateway.workspaces;
    const world = (await worlds.create(actor, { name: '<img src=x onerror=alert(2)>' })).world.id;
    await worlds.createAsset(actor, { worldId: world, kind: 'character', name: '"><svg onload=alert(3)>', description: '<!-- <script>alert(4)</script>' });
    const project = (await projects.create(actor, {
      title: hostileTitle,
      description: '<b>not bold</b> & </style><script>alert(5)</script>',
      worldId: world,
      steps: [{ operation: 'image.generate', input: { prompt: '</script><script>window.pwned = true</script>' }, notes: '<iframe src="javascript:alert(6)"></iframe>' }],
    })).project.id;
    const hostile = snapshotJson(await service.service.gateway.workspaces.snapshot(actor, project));
    // Output URLs only have to be URIs by the manifests' schemas: a vendor could hand back a javascript: one.
    hostile.assets[0]!.links.push({ request_id: 'req_hostile', operation: 'three_d.model.generate', target_type: 'asset', target_id: hostile.assets[0]!.id, artifacts: { model_url: 'javascript:alert(7)' }, linked_at: hostile.exported_at });
    const markup = renderProjectExportPage(hostile, { publicUrl: service.url });
    expect(markup.match(/<script/g), 'only the page\'s own two script elements').to.have.length(2);
    expect(markup.match(/<\/script>/g)).to.have.length(2);

    const { page, dialogs } = await openExport(await writeExport('hostile', hostile));
    try {
      expect(await page.textContent('h1')).to.equal(hostileTitle);
      expect(await page.title()).to.equal(`${hostileTitle} · project export`);
      expect(await page.textContent('#project .description')).to.equal('<b>not bold</b> & </style><script>alert(5)</script>');
      expect(await page.textContent('#world-heading')).to.equal('World: <img src=x onerror=alert(2)>');
      expect(await page.textContent('li.step .notes')).to.equal('<iframe src="javascript:alert(6)"></iframe>');
      expect(await page.textContent('li.step pre')).to.equal(JSON.stringify(hostile.project.steps[0]!.input, null, 2));
      expect(await page.textContent('article.asset h4')).to.equal('"><svg onload=alert(3)> character');
      expect(await page.textContent('article.asset .link')).to.include('model: javascript:alert(7)');
      expect(await page.locator('img[src="x"], svg, iframe, b, a[href^="javascript:"]').count()).to.equal(0);
      expect(await page.locator('script').count()).to.equal(2);
      expect(await page.evaluate(() => (window as unknown as { pwned?: boolean }).pwned)).to.equal(undefined);
      expect(JSON.parse((await page.textContent('#export-data'))!)).to.deep.equal(hostile);

      const [download] = await Promise.all([page.waitForEvent('download'), page.click('#download-json')]);
      expect(download.suggestedFilename()).to.equal(`script-img-src-x-onerror-alert-1-${hostile.exported_at.slice(0, 10)}.json`);
      expect(JSON.parse(await readFile((await download.path())!, 'utf8'))).to.deep.equal(hostile);
      expect(dialogs).to.deep.equal([]);
    } finally {
      await page.close();
    }
  });
});
