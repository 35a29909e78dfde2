/**
 * The console's workspace pages over plain HTTP, as a browser without JavaScript uses them: every member reads
 * the account's projects and worlds with their linked media, only an owner restores a deleted object (through
 * the page's CSRF-protected form), a refused POST changes nothing, and what a member cannot see is a 404. The
 * workspace objects are made through the kernel; the linked media come from real three_d.* requests run
 * through the REST API with an API key of the account (local provider), so the links are the ones the
 * finishing transaction writes. Real service, real SQLite, real sign-in.
 */
import { expect } from 'chai';
import type { Role } from '../../src/kernel/accounts/members.js';
import { softDeleteMs, type WorkspaceActor } from '../../src/kernel/workspaces/index.js';
import { WorkspaceStore } from '../../src/kernel/workspaces/workspace-store.js';
import { ConsoleClient, testPassword } from '../support/console-client.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('console workspace pages', function () {
  this.timeout(180_000);
  let service: TestService;
  let a: { key: string; accountId: string };
  let b: { accountId: string };
  const members = {} as Record<'owner' | 'developer' | 'viewer' | 'outsider' | 'guest', { client: ConsoleClient; actor: WorkspaceActor }>;
  /** A's world, its character and location, the project planned in it, and the media generated for them. */
  const ids = {} as { world: string; character: string; location: string; project: string };
  let hostedImage: string;
  let model: { requestId: string; output: Record<string, any> };
  let place: { requestId: string; output: Record<string, any> };

  const hostile = '<script>alert(1)</script>';
  const workspaces = () => service.service.gateway.workspaces;

  async function member(accountId: string, role: Role, email: string) {
    const user = await service.service.gateway.users.create({ email, password: testPassword, accountId, role });
    const client = new ConsoleClient(service.url);
    await client.signIn(email);
    return { client, actor: { userId: user.id, accountId } };
  }

  async function succeeded(operation: string, input: Record<string, unknown>): Promise<{ requestId: string; output: Record<string, any> }> {
    const created = await service.api('POST', '/api/v1/requests', { key: a.key, body: { operation, input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, a.key, created.body.id, 150_000);
    expect(done.status, JSON.stringify(done)).to.equal('succeeded');
    return { requestId: created.body.id, output: done.output };
  }

  /** The action and CSRF token of the Restore form of `id` on a page, as a browser would submit it. */
  function restoreForm(page: string, id: string): { action: string; token: string } | undefined {
    const form = [...page.matchAll(/<form method="post" action="([^"]+)"[^>]*><input type="hidden" name="_csrf" value="([^"]+)">/g)]
      .find((match) => match[1]!.includes(`/${encodeURIComponent(id)}/restore`));
    return form ? { action: form[1]!, token: form[2]! } : undefined;
  }

  /** When the row was soft-deleted (null: it is live); a test fails if the row is gone altogether. */
  async function deletedAt(table: 'workspace_projects' | 'workspace_worlds' | 'workspace_assets', id: string): Promise<number | null> {
    const row = await service.service.gateway.database.sql.first<{ deleted_at_ms: unknown }>(`SELECT deleted_at_ms FROM ${table} WHERE id = ?`, [id]);
    expect(row, `${table} row ${id}`).to.not.equal(undefined);
    return row!.deleted_at_ms === null ? null : Number(row!.deleted_at_ms);
  }

  before(async () => {
    service = await startTestService({ worker: { concurrency: 2 } });
    a = await service.createKey({ credits: 10_000, name: 'studio server' });
    b = await service.createKey({ credits: 10, name: 'other studio' });
    members.owner = await member(a.accountId, 'owner', 'owner@studio.example');
    members.developer = await member(a.accountId, 'developer', 'developer@studio.example');
    members.viewer = await member(a.accountId, 'viewer', 'viewer@studio.example');
    members.outsider = await member(b.accountId, 'owner', 'outsider@other.example');
    members.guest = await member(b.accountId, 'viewer', 'guest@other.example');

    hostedImage = (await succeeded('image.generate', { prompt: 'a harbour captain', model: 'nano-banana-pro', aspect_ratio: '1:1', resolution: '1K' })).output.image_url;
    const owner = members.owner.actor;
    const world = await workspaces().worlds.create(owner, { name: `Harbour ${hostile}`, description: 'a fishing town' });
    ids.world = world.world.id;
    ids.character = (await workspaces().worlds.createAsset(owner, {
      worldId: ids.world, kind: 'character', name: 'Captain Mira', description: `weathered ${hostile}`,
      referenceMedia: [hostedImage, 'https://references.example/mira.png'],
    })).asset.id;
    ids.location = (await workspaces().worlds.createAsset(owner, { worldId: ids.world, kind: 'location', name: 'Lighthouse' })).asset.id;
    const project = await workspaces().projects.create(owner, {
      title: `Harbour short ${hostile}`,
      worldId: ids.world,
      steps: [{ operation: 'image.generate', input: { prompt: `key art ${hostile}` }, notes: 'first the key art' }],
    });
    ids.project = project.project.id;
    await workspaces().projects.update(owner, ids.project, { share: [{ email: 'guest@other.example', role: 'viewer' }] });

    model = await succeeded('three_d.model.generate', { source_image_urls: [hostedImage], asset_kind: 'character', name: 'Mira', character_id: ids.character, universe_id: ids.world });
    place = await succeeded('three_d.location.generate', { name: 'Lighthouse', description: 'a lighthouse on a cliff', location_id: ids.location, universe_id: ids.world, project_id: ids.project });
  });
  after(async () => service?.stop());

  describe('reading', () => {
    it("lists the account's workspace with its project and world, and their counts, to a viewer", async () => {
      const response = await members.viewer.client.get('/console/workspaces');
      expect(response.status).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).to.equal('no-store');
      const { text } = response;
      expect(text).to.include('<li><a href="/console/workspaces" aria-current="page">Workspaces</a></li>');
      expect(text).to.include('Default workspace').and.include('Your role: viewer');
      expect(text).to.include('<span data-count="projects">1 project</span>').and.include('<span data-count="worlds">1 world</span>');
      expect(text).to.include(`<a href="/console/workspaces/projects/${ids.project}">Harbour short &lt;script&gt;alert(1)&lt;/script&gt;</a>`);
      expect(text).to.match(new RegExp(`data-world-id="${ids.world}">[\\s\\S]*?<td>1 character, 1 location</td>`));
      expect(text).not.to.include(hostile);
    });

    it('shows a project with its step drafts, shares and the requests run from it, with their media', async () => {
      const { status, text } = await members.viewer.client.get(`/console/workspaces/projects/${ids.project}`);
      expect(status).to.equal(200);
      expect(text).to.include('<h1>Project “Harbour short &lt;script&gt;alert(1)&lt;/script&gt;”</h1>');
      expect(text).to.match(/<li data-step-id="step_[^"]+">\s*<h3>image\.generate<\/h3>\s*<p class="notes">first the key art<\/p>/);
      expect(text).to.include('&quot;prompt&quot;: &quot;key art &lt;script&gt;alert(1)&lt;/script&gt;&quot;');
      expect(text).to.include('<tr><th scope="row">owner@studio.example</th><td>owner</td></tr>');
      expect(text).to.include('<tr><th scope="row">guest@other.example</th><td>viewer</td></tr>');
      expect(text).to.include(`<div class="linked-request" data-request-id="${place.requestId}">`);
      expect(text).to.include(`<a href="${place.output.pano_url}"><img src="${place.output.pano_url}"`);
      expect(text).to.include(`<a href="${place.output.splat_url}">`);
      expect(text).to.include(`<a href="/console/workspaces/worlds/${ids.world}">Harbour &lt;script&gt;`);
      expect(text).not.to.include(hostile);
    });

    it('shows a world by asset kind, with reference media and the linked model (images as thumbnails, other media as links)', async () => {
      const { status, text } = await members.viewer.client.get(`/console/workspaces/worlds/${ids.world}`);
      expect(status).to.equal(200);
      const character = /<article class="card" id="asset-[^"]+" data-asset-id="([^"]+)"[\s\S]*?<\/article>/.exec(text.slice(text.indexOf('id="kind-character"')))!;
      expect(character[1]).to.equal(ids.character);
      const card = character[0];
      expect(card).to.include('<h3 id="asset-' + ids.character + '-name">Captain Mira</h3>');
      expect(card).to.include('weathered &lt;script&gt;');
      // The hosted reference is a thumbnail; the client's own URL is a link the console never loads.
      expect(card).to.include(`<a href="${hostedImage}"><img src="${hostedImage}"`);
      expect(card).to.include('<a href="https://references.example/mira.png" rel="noopener noreferrer nofollow" class="url">');
      expect(text).not.to.include('src="https://references.example');
      expect(card).to.include(`<div class="linked-request" data-request-id="${model.requestId}">`);
      expect(model.output.model_url).to.match(/\.glb$/);
      expect(card).to.match(new RegExp(`<a href="${model.output.model_url}">[^<]+\\.glb</a> <span class="muted">model/gltf-binary</span>`));
      expect(card).to.include('<dt><code>model_url</code></dt>').and.include('<dt><code>preview_image_urls</code></dt>');
      for (const preview of model.output.preview_image_urls as string[]) expect(card).to.include(`<img src="${preview}"`);
      const location = text.slice(text.indexOf('id="kind-location"'), text.indexOf('id="kind-zone"'));
      expect(location).to.include(`data-asset-id="${ids.location}"`).and.include(`<a href="${place.output.spz_url}">`);
      expect(text).to.include('<h2 id="kind-object">Objects (0)</h2>');
      expect(text).not.to.include(hostile);
    });

    it("links only a vendor's http(s) URLs and embeds none of them (a link row written through the store)", async () => {
      // No operation outputs such URLs through the local provider, so this one link is written directly.
      await WorkspaceStore.insertLink(service.service.gateway.database.sql, {
        targetType: 'world', targetId: ids.world, requestId: 'req_vendor_urls', operation: 'three_d.location.generate',
        artifacts: { pano_url: 'javascript:alert(1)', preview_image_urls: ['https://vendor.example/preview.png'] }, createdAtMs: Date.now(),
      });
      const { text } = await members.viewer.client.get(`/console/workspaces/worlds/${ids.world}`);
      const whole = text.slice(text.indexOf('Generated for the whole world'), text.indexOf('id="kind-character"'));
      expect(whole).to.include('<div class="linked-request" data-request-id="req_vendor_urls">');
      expect(whole).to.include('<span class="url">javascript:alert(1)</span>');
      expect(whole).to.include('<a href="https://vendor.example/preview.png" rel="noopener noreferrer nofollow" class="url">');
      expect(text).not.to.include('href="javascript:').and.not.to.include('src="https://vendor.example');
    });

    it('matches what the kernel linked when the requests succeeded', async () => {
      const character = await workspaces().worlds.getAsset(members.viewer.actor, ids.character);
      expect(character.links.map((link) => [link.requestId, link.artifacts.model_url])).to.deep.equal([[model.requestId, model.output.model_url]]);
      const project = await workspaces().projects.get(members.viewer.actor, ids.project);
      expect(project.requests.map((link) => link.requestId)).to.deep.equal([place.requestId]);
    });

    it('shows a project shared with a user of another account, and 404s its world to them', async () => {
      const project = await members.guest.client.get(`/console/workspaces/projects/${ids.project}`);
      expect(project.status).to.equal(200);
      expect(project.text).to.include('shared with you').and.include('a world you have no role in');
      expect(project.text).not.to.include(`/console/workspaces/worlds/${ids.world}`);
      expect((await members.guest.client.get(`/console/workspaces/worlds/${ids.world}`)).status).to.equal(404);
    });

    it("404s an outsider on A's project and world, and does not list them on the outsider's page", async () => {
      for (const path of [`/console/workspaces/projects/${ids.project}`, `/console/workspaces/worlds/${ids.world}`]) {
        const response = await members.outsider.client.get(path);
        expect(response.status, path).to.equal(404);
        expect(response.text).to.include('<h1>Not found</h1>');
        expect(response.text).not.to.include('Harbour');
      }
      const page = (await members.outsider.client.get('/console/workspaces')).text;
      expect(page).not.to.include(ids.project).and.not.to.include(ids.world);
      expect(page).to.include('<span data-count="projects">0 projects</span>');
    });

    it('404s unknown ids', async () => {
      expect((await members.owner.client.get('/console/workspaces/projects/proj_unknown')).status).to.equal(404);
      expect((await members.owner.client.get('/console/workspaces/worlds/world_unknown')).status).to.equal(404);
    });

    it('sends a visitor without a session to sign in', async () => {
      const response = await new ConsoleClient(service.url).get('/console/workspaces');
      expect(response.status).to.equal(303);
      expect(response.headers.get('location')).to.equal('/console/login?return_to=%2Fconsole%2Fworkspaces');
    });
  });

  describe('restoring', () => {
    let doomed: { id: string; title: string; restorableUntilMs: number };

    before(async () => {
      const title = `Scrapped plan ${hostile}`;
      const created = await workspaces().projects.create(members.owner.actor, { title, worldId: ids.world });
      const outcome = await workspaces().projects.delete(members.owner.actor, created.project.id, { dryRun: false, confirmed: true, title });
      expect(outcome).to.include({ deleted: true });
      doomed = { id: created.project.id, title, restorableUntilMs: outcome.restorableUntilMs! };
    });

    it('lists the deleted project under Recently deleted for the owner, with the date it can be restored until and a Restore form', async () => {
      const { text } = await members.owner.client.get('/console/workspaces');
      const row = new RegExp(`<tr data-deleted-id="${doomed.id}">[\\s\\S]*?</tr>`).exec(text)?.[0];
      expect(row, 'a row for the deleted project').to.be.a('string');
      expect(row).to.include(`<th scope="row" id="deleted-${doomed.id}">Scrapped plan &lt;script&gt;alert(1)&lt;/script&gt;</th>`);
      expect(row).to.include(`<time datetime="${new Date(doomed.restorableUntilMs).toISOString()}">`);
      expect(doomed.restorableUntilMs - (await deletedAt('workspace_projects', doomed.id))!).to.equal(softDeleteMs);
      expect(restoreForm(text, doomed.id)).to.deep.equal({ action: `/console/workspaces/deleted/project/${doomed.id}/restore`, token: members.owner.client.csrfToken });
      expect(text).not.to.include(`/console/workspaces/projects/${doomed.id}`);
    });

    it('shows viewers and editors no Restore button', async () => {
      for (const role of ['viewer', 'developer'] as const) {
        const { status, text } = await members[role].client.get('/console/workspaces');
        expect(status).to.equal(200);
        expect(text, role).not.to.include('/restore');
        expect(text, role).to.include('Recently deleted').and.include('Nothing deleted that you can restore.');
      }
    });

    for (const role of ['viewer', 'developer'] as const) {
      it(`refuses a ${role}'s forged restore POST with a 403 page, changing nothing`, async () => {
        const before = await deletedAt('workspace_projects', doomed.id);
        const response = await members[role].client.post(`/console/workspaces/deleted/project/${doomed.id}/restore`);
        expect(response.status).to.equal(403);
        expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
        expect(response.text).to.include('data-code="MG_WORKSPACE_ROLE"').and.include('restoring a deleted project needs owner');
        expect(await deletedAt('workspace_projects', doomed.id)).to.equal(before).and.be.a('number');
      });
    }

    it("404s an outsider's restore POST, changing nothing", async () => {
      const response = await members.outsider.client.post(`/console/workspaces/deleted/project/${doomed.id}/restore`);
      expect(response.status).to.equal(404);
      expect(await deletedAt('workspace_projects', doomed.id)).to.be.a('number');
    });

    for (const token of [null, 'forged-token']) {
      it(`refuses the owner's restore POST with ${token === null ? 'no' : 'a wrong'} CSRF token (403), changing nothing`, async () => {
        const response = await members.owner.client.post(`/console/workspaces/deleted/project/${doomed.id}/restore`, { _csrf: token });
        expect(response.status).to.equal(403);
        expect(response.text).to.include('MG_CSRF_REJECTED');
        expect(await deletedAt('workspace_projects', doomed.id)).to.be.a('number');
      });
    }

    it('404s restoring an unknown type or id', async () => {
      expect((await members.owner.client.post(`/console/workspaces/deleted/workspace/${doomed.id}/restore`)).status).to.equal(404);
      expect((await members.owner.client.post('/console/workspaces/deleted/project/proj_unknown/restore')).status).to.equal(404);
    });

    it('restores the project through the Restore form, confirms it, and the project is back', async () => {
      const form = restoreForm((await members.owner.client.get('/console/workspaces')).text, doomed.id)!;
      const response = await members.owner.client.post(form.action, { _csrf: form.token });
      expect(response.status).to.equal(303);
      const location = response.headers.get('location')!;
      expect(location).to.equal(`/console/workspaces?restored=${doomed.id}&type=project`);
      expect(await deletedAt('workspace_projects', doomed.id)).to.equal(null);

      const { text } = await members.owner.client.get(location);
      expect(text).to.include(`<p class="callout" role="status" data-restored="${doomed.id}">The project <a href="/console/workspaces/projects/${doomed.id}">“Scrapped plan &lt;script&gt;alert(1)&lt;/script&gt;”</a> was restored`);
      expect(text).not.to.include(`data-deleted-id="${doomed.id}"`);
      expect(text).to.include(`<tr data-project-id="${doomed.id}">`).and.include('<span data-count="projects">2 projects</span>');
      expect((await workspaces().projects.get(members.viewer.actor, doomed.id)).project.title).to.equal(doomed.title);
      expect((await members.viewer.client.get(`/console/workspaces/projects/${doomed.id}`)).status).to.equal(200);
    });

    it('refuses to restore an asset whose world is still deleted (422), then restores both in order', async () => {
      const owner = members.owner.actor;
      const world = (await workspaces().worlds.create(owner, { name: 'Abandoned isle' })).world;
      const asset = (await workspaces().worlds.createAsset(owner, { worldId: world.id, kind: 'object', name: 'Old anchor' })).asset;
      await workspaces().worlds.deleteAsset(owner, asset.id, { dryRun: false, confirmed: true, title: 'Old anchor' });
      await workspaces().worlds.delete(owner, world.id, { dryRun: false, confirmed: true, title: 'Abandoned isle' });

      const page = (await members.owner.client.get('/console/workspaces')).text;
      const refused = await members.owner.client.post(restoreForm(page, asset.id)!.action);
      expect(refused.status).to.equal(422);
      expect(refused.text).to.include('data-code="MG_VALIDATION_FAILED"').and.include('restore the world first');
      expect(await deletedAt('workspace_assets', asset.id)).to.be.a('number');

      expect((await members.owner.client.post(restoreForm(page, world.id)!.action)).status).to.equal(303);
      const restored = await members.owner.client.post(restoreForm(page, asset.id)!.action);
      expect(restored.status).to.equal(303);
      const { text } = await members.owner.client.get(restored.headers.get('location')!);
      expect(text).to.include(`The asset <a href="/console/workspaces/worlds/${world.id}#asset-${asset.id}">“Old anchor”</a> was restored`);
      expect((await members.viewer.client.get(`/console/workspaces/worlds/${world.id}`)).text).to.include(`data-asset-id="${asset.id}"`);
    });
  });
});
