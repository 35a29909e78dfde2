/**
 * Generation linked to workspace objects, as an agent does it over MCP with OAuth: characters, locations and a
 * project made with the workspace tools, a `three_d.model.generate` / `three_d.location.generate` created through
 * create_generation_request (confirmed, under a cap) and polled to success on the offline `local` provider, then
 * the links read back with the workspace tools and the project exported as an embedded HTML page. Creates naming
 * another account's character, or made by a viewer, or without workspace:write, are refused before any debit.
 */
import { expect } from 'chai';
import { renderProjectExportPage } from '../../src/mcp/tools/workspace/project-export-page.js';
import { linkOAuthClient, type LinkedClient } from '../support/oauth-linked-client.js';
import { createTestDatabase } from '../support/mariadb.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const password = 'correct horse battery staple 42';
const allScopes = 'requests:read requests:write workspace:read workspace:write';

type Person = 'editor' | 'owner' | 'ownerWithoutWorkspaceWrite' | 'crossover' | 'stranger';

/** The whole journey once per store: the embedded SQLite default and MariaDB (production's database). */
const stores: { name: string; database(context: Mocha.Context): Promise<{ url?: string; drop(): Promise<void> }> }[] = [
  { name: 'SQLite', database: async () => ({ drop: async () => undefined }) },
  { name: 'MariaDB', database: (context) => createTestDatabase(context) },
];

for (const store of stores) describe(`MCP workspace links from generation requests (OAuth, end to end, ${store.name})`, function () {
  this.timeout(120_000);
  let service: TestService;
  let database: { url?: string; drop(): Promise<void> } | undefined;
  const accounts = { a: '', b: '', c: '' };
  const linked = {} as Record<Person, LinkedClient>;
  /** A hosted image of this service: the 3D model's source. */
  let sourceImage: string;
  const ids = { world: '', character: '', location: '', project: '' };

  before(async function () {
    database = await store.database(this);
    service = await startTestService(database.url ? { database: { url: database.url } } : {});
    const { users } = service.service.gateway;
    accounts.a = (await service.createKey({ credits: 1000 })).accountId;
    accounts.b = (await service.createKey({ credits: 500 })).accountId;
    accounts.c = (await service.createKey({ credits: 500 })).accountId;
    await users.create({ email: 'editor@a.example.com', password, accountId: accounts.a, role: 'developer' });
    await users.create({ email: 'owner@a.example.com', password, accountId: accounts.a, role: 'owner' });
    await users.create({ email: 'crossover@b.example.com', password, accountId: accounts.b, role: 'owner' });
    await users.invite({ email: 'crossover@b.example.com', accountId: accounts.a, role: 'viewer' });
    await users.create({ email: 'stranger@c.example.com', password, accountId: accounts.c, role: 'owner' });
    const link = (email: string, accountId: string, scope: string) => linkOAuthClient({ baseUrl: service.url, email, password, accountId }, { scope });
    [linked.editor, linked.owner, linked.ownerWithoutWorkspaceWrite, linked.crossover, linked.stranger] = await Promise.all([
      link('editor@a.example.com', accounts.a, allScopes),
      link('owner@a.example.com', accounts.a, allScopes),
      link('owner@a.example.com', accounts.a, 'requests:read requests:write workspace:read'),
      link('crossover@b.example.com', accounts.b, allScopes),
      link('stranger@c.example.com', accounts.c, allScopes),
    ]);
    // The source image comes from another account, so account A's books hold only what the tests spend.
    const imageMaker = await service.createKey({ credits: 100 });
    const image = await service.api('POST', '/api/v1/requests', { key: imageMaker.key, body: { operation: 'image.generate', input: { prompt: 'a harbour master in a blue coat', model: 'nano-banana' } } });
    sourceImage = (await pollUntilTerminal(service, imageMaker.key, image.body.id)).output.image_url;

    ids.world = (await ok('editor', 'create_world', { name: 'Harbour town' })).id;
    ids.character = (await ok('editor', 'create_world_asset', { world_id: ids.world, kind: 'character', name: 'Mara', reference_media: [sourceImage] })).id;
    ids.location = (await ok('editor', 'create_world_asset', { world_id: ids.world, kind: 'location', name: 'Pier', description: 'a wooden pier' })).id;
    ids.project = (await ok('editor', 'create_creator_flow_project', {
      title: 'Harbour short',
      world_id: ids.world,
      steps: [
        { operation: 'three_d.model.generate', input: { source_image_urls: [sourceImage], asset_kind: 'character', character_id: ids.character, universe_id: ids.world }, notes: 'Mara in 3D' },
        { operation: 'three_d.location.generate', input: { description: 'a wooden pier at dawn', location_id: ids.location } },
      ],
    })).id;
  });
  after(async () => {
    await Promise.all(Object.values(linked).map((client) => client.close()));
    await service?.stop();
    await database?.drop();
  });

  async function ok(person: Person, name: string, args: Record<string, unknown> = {}): Promise<any> {
    const outcome = await linked[person].call(name, args);
    expect(outcome.ok, `${person} ${name}: ${JSON.stringify(outcome.error)}`).to.equal(true);
    return outcome.value;
  }

  /** The account's credits, its ledger and its requests: what a refused or free call must leave alone. */
  async function books(accountId: string) {
    const knex = service.service.gateway.database.knex;
    return {
      balance: (await service.service.gateway.accounts.getAccount(accountId))!.creditsBalance,
      ledger: await knex('credit_ledger').where({ account_id: accountId }).orderBy('id').select('kind', 'amount', 'request_id'),
      requests: Number((await knex('requests').where({ account_id: accountId }).count({ n: '*' }).first())!.n),
    };
  }

  /** Preview, then create confirmed under the previewed cost, then poll to a terminal state: as an agent does. */
  async function generate(person: Person, operation: string, input: Record<string, unknown>) {
    const preview = await ok(person, 'create_generation_request', { operation, input });
    expect(preview).to.deep.include({ status: 'preview', affordable: true });
    const created = await ok(person, 'create_generation_request', { operation, input, ...preview.confirm_with });
    expect(created).to.deep.include({ status: 'queued', operation, credits: preview.credits });
    const until = Date.now() + 60_000;
    for (;;) {
      const polled = await ok(person, 'get_generation_request', { id: created.id });
      if (polled.status === 'succeeded' || polled.status === 'failed') return { credits: preview.credits as number, request: polled };
      if (Date.now() > until) throw new Error(`request ${created.id} still ${polled.status} after 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** What a link's `artifacts` holds: every `*_url` and `*_urls` field of the request's output. */
  const hostedMedia = (output: Record<string, unknown>) => Object.fromEntries(Object.entries(output).filter(([key]) => key.endsWith('_url') || key.endsWith('_urls')));

  it('links a 3D model to a character made with the tools once its request succeeded, charging only the request', async () => {
    const before = await books(accounts.a);
    const { credits, request } = await generate('editor', 'three_d.model.generate', { source_image_urls: [sourceImage], asset_kind: 'character', character_id: ids.character, universe_id: ids.world });
    expect(request.status, request.errorMessage).to.equal('succeeded');
    expect(credits).to.equal(30); // 25 + 5 per source image
    expect(request.output.model_url).to.match(new RegExp(`^${service.url}/files/`));

    const character = await ok('editor', 'get_world_asset', { id: ids.character });
    expect(character.links).to.deep.equal([
      { request_id: request.id, operation: 'three_d.model.generate', target_type: 'asset', target_id: ids.character, artifacts: hostedMedia(request.output), linked_at: character.links[0].linked_at },
    ]);
    expect(character.links[0].artifacts.model_url).to.equal(request.output.model_url);
    expect((await ok('editor', 'get_world', { id: ids.world })).links, 'the model belongs to the character, not to the world').to.deep.equal([]);
    expect(await books(accounts.a)).to.deep.equal({
      balance: before.balance - 30,
      ledger: [...before.ledger, { kind: 'debit', amount: -30, request_id: request.id }],
      requests: before.requests + 1,
    });
  });

  it('links a 3D location to its location and records the request on the project', async () => {
    const { request } = await generate('editor', 'three_d.location.generate', { description: 'a wooden pier at dawn', location_id: ids.location, project_id: ids.project });
    expect(request.status, request.errorMessage).to.equal('succeeded');
    const location = await ok('editor', 'get_world_asset', { id: ids.location });
    expect(location.links.map((link: { request_id: string; target_type: string }) => [link.target_type, link.request_id])).to.deep.equal([['asset', request.id]]);
    expect(location.links[0].artifacts).to.deep.equal(hostedMedia(request.output));
    expect(location.links[0].artifacts.splat_url).to.equal(request.output.splat_url);
    const project = await ok('editor', 'get_creator_flow_project', { id: ids.project });
    expect(project.requests).to.deep.equal([
      { request_id: request.id, operation: 'three_d.location.generate', target_type: 'project', target_id: ids.project, artifacts: hostedMedia(request.output), linked_at: project.requests[0].linked_at },
    ]);
  });

  it('exports the project with its world, assets and linked media as structured data and an embedded HTML page', async () => {
    const result = await linked.owner.client.callTool({ name: 'export_creator_flow_project', arguments: { id: ids.project } });
    expect(result.isError ?? false, JSON.stringify(result.content)).to.equal(false);
    const exported = result.structuredContent as any;
    const { data } = exported;
    expect(exported).to.deep.equal({ project_id: ids.project, title: 'Harbour short', exported_at: data.exported_at, resource_uri: exported.resource_uri, data });
    expect(exported.resource_uri).to.equal(`mediagate://exports/${ids.project}/${data.exported_at.replace(/[-:]/g, '')}.html`);
    expect(exported.resource_uri).to.match(/^mediagate:\/\/exports\/proj_[0-9a-z]{25}\/\d{8}T\d{6}\.\d{3}Z\.html$/);
    expect(Date.now() - Date.parse(data.exported_at)).to.be.within(0, 60_000);

    // The data: the project as get_creator_flow_project shows it to the exporter, its world and every asset with its links.
    expect(data.project).to.deep.equal(await ok('owner', 'get_creator_flow_project', { id: ids.project }));
    expect(data.project.requests).to.have.length(1);
    const world = await ok('owner', 'get_world', { id: ids.world });
    const { role: _role, asset_counts: _counts, links: worldLinks, ...worldSummary } = world;
    expect(data.world).to.deep.equal(worldSummary);
    expect(data.world_links).to.deep.equal(worldLinks);
    const assets = await Promise.all([ids.character, ids.location].map((id) => ok('owner', 'get_world_asset', { id })));
    expect(data.assets, 'oldest first').to.deep.equal(assets.map(({ role: _assetRole, ...asset }) => asset));
    expect(data.assets[0].links[0].artifacts.model_url).to.be.a('string');
    expect(data.assets[1].links[0].artifacts.splat_url).to.be.a('string');

    // The page: one embedded text/html resource, rendered from exactly the structured data.
    expect(result.content).to.deep.equal([
      { type: 'text', text: JSON.stringify(exported) },
      { type: 'resource', resource: { uri: exported.resource_uri, mimeType: 'text/html', text: renderProjectExportPage(data, { publicUrl: service.url }) } },
    ]);
    const page = (result.content as { resource?: { text: string } }[])[1]!.resource!.text;
    expect(page).to.match(/^<!doctype html>/i);
    expect(page).to.include('Harbour short');
    expect(page).to.include(data.assets[0].links[0].artifacts.model_url);
  });

  it('refuses a generation naming another account\'s character with not-found, before any debit', async () => {
    const before = await books(accounts.c);
    const refused = await linked.stranger.call('create_generation_request', {
      operation: 'three_d.model.generate', input: { source_image_urls: [sourceImage], character_id: ids.character }, confirmed: true, max_credits: 30,
    });
    expect(refused).to.deep.include({
      ok: false,
      error: { code: 'MG_WORKSPACE_OBJECT_NOT_FOUND', message: 'character_id: no such object that you can see', errors: [{ path: '/input/character_id', message: 'names no object you can see' }] },
    });
    expect(await books(accounts.c)).to.deep.equal(before);
    expect(before).to.deep.include({ balance: 500, requests: 0 });
  });

  it('refuses one made by a viewer of the character\'s workspace with MG_WORKSPACE_ROLE, before any debit', async () => {
    const before = await books(accounts.b);
    const refused = await linked.crossover.call('create_generation_request', {
      operation: 'three_d.model.generate', input: { source_image_urls: [sourceImage], character_id: ids.character, universe_id: ids.world }, confirmed: true, max_credits: 30,
    });
    expect(refused).to.deep.include({
      ok: false,
      error: {
        code: 'MG_WORKSPACE_ROLE',
        message: 'character_id: your role on it is viewer; linking a generated artifact needs editor',
        errors: [{ path: '/input/character_id', message: 'needs the editor role' }],
      },
    });
    expect(await books(accounts.b)).to.deep.equal(before);
    expect(before).to.deep.include({ balance: 500, requests: 0 });
  });

  it('refuses one from a token without workspace:write, even an owner\'s, before any debit', async () => {
    const before = await books(accounts.a);
    const refused = await linked.ownerWithoutWorkspaceWrite.call('create_generation_request', {
      operation: 'three_d.location.generate', input: { description: 'the pier at night', location_id: ids.location, project_id: ids.project }, confirmed: true, max_credits: 60,
    });
    expect(refused).to.deep.include({
      ok: false,
      error: {
        code: 'MG_INSUFFICIENT_SCOPE',
        message: 'location_id, project_id link the result to workspace objects, which needs the workspace:write scope; approve the application again with it',
        errors: [
          { path: '/input/location_id', message: 'needs the workspace:write scope' },
          { path: '/input/project_id', message: 'needs the workspace:write scope' },
        ],
      },
    });
    expect(await books(accounts.a)).to.deep.equal(before);
    // The same token still generates standalone (nothing to link), and reads the workspace.
    const { request } = await generate('ownerWithoutWorkspaceWrite', 'three_d.location.generate', { description: 'the pier at night' });
    expect(request.status, request.errorMessage).to.equal('succeeded');
    expect((await ok('ownerWithoutWorkspaceWrite', 'get_world_asset', { id: ids.location })).links).to.have.length(1);
  });
});
