/**
 * Generation requests that name workspace objects, over the REST API with developer API keys: the ids are
 * checked at create before any debit (404 for objects the key's account cannot see, 422 when they do not fit
 * together), and a success links the hosted artifacts to the character, location and zone and records the
 * request on the project, in the request's finishing transaction. (The OAuth/MCP path, with user roles and the
 * workspace:write scope, is covered in the MCP workspace tool tests.)
 */
import { expect } from 'chai';
import type { WorkspaceActor } from '../../src/kernel/workspaces/index.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('workspace links from generation requests (REST, API keys)', function () {
  this.timeout(120_000);
  let service: TestService;
  let key: string;
  let otherKey: string;
  let actor: WorkspaceActor;
  let sourceImage: string;
  const ids: Record<'world' | 'otherWorld' | 'character' | 'object' | 'location' | 'zone' | 'project' | 'foreignCharacter', string> = {} as never;

  async function balance(apiKey: string): Promise<number> {
    return (await service.api('GET', '/api/v1/status', { key: apiKey })).body.credits_balance;
  }

  async function create(apiKey: string, operation: string, input: Record<string, unknown>) {
    return service.api('POST', '/api/v1/requests', { key: apiKey, body: { operation, input } });
  }

  before(async () => {
    service = await startTestService();
    const { gateway } = service.service;
    const mine = await service.createKey({ credits: 10_000 });
    key = mine.key;
    const user = await gateway.users.create({ email: 'maker@example.com', password: 'correct horse battery staple 42', accountId: mine.accountId, role: 'owner' });
    actor = { userId: user.id, accountId: mine.accountId };
    const theirs = await service.createKey({ credits: 10_000 });
    otherKey = theirs.key;
    const stranger = await gateway.users.create({ email: 'stranger@example.com', password: 'correct horse battery staple 42', accountId: theirs.accountId, role: 'owner' });

    const { worlds, projects } = gateway.workspaces;
    ids.world = (await worlds.create(actor, { name: 'Harbour town' })).world.id;
    ids.otherWorld = (await worlds.create(actor, { name: 'Mountain pass' })).world.id;
    ids.character = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'character', name: 'Mara' })).asset.id;
    ids.object = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'object', name: 'Lantern' })).asset.id;
    ids.location = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'location', name: 'Pier' })).asset.id;
    ids.zone = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'zone', name: 'Pier end', locationId: ids.location })).asset.id;
    ids.project = (await projects.create(actor, { title: 'Harbour short', worldId: ids.world })).project.id;
    const strangerWorld = (await worlds.create({ userId: stranger.id, accountId: theirs.accountId }, { name: 'Elsewhere' })).world.id;
    ids.foreignCharacter = (await worlds.createAsset({ userId: stranger.id, accountId: theirs.accountId }, { worldId: strangerWorld, kind: 'character', name: 'Not yours' })).asset.id;

    const image = await create(key, 'image.generate', { prompt: 'a harbour master in a blue coat', model: 'nano-banana' });
    sourceImage = (await pollUntilTerminal(service, key, image.body.id)).output.image_url;
  });
  after(async () => service?.stop());

  it('links a 3D model to the character it names, once it has succeeded', async () => {
    const created = await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage], asset_kind: 'character', character_id: ids.character, universe_id: ids.world });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.status, done.errorMessage).to.equal('succeeded');
    const { links } = await service.service.gateway.workspaces.worlds.getAsset(actor, ids.character);
    expect(links).to.have.length(1);
    expect(links[0]).to.deep.include({ targetType: 'asset', targetId: ids.character, requestId: created.body.id, operation: 'three_d.model.generate' });
    expect(links[0]!.artifacts.model_url).to.equal(done.output.model_url);
    expect(links[0]!.artifacts.preview_image_urls).to.deep.equal(done.output.preview_image_urls);
    const world = await service.service.gateway.workspaces.worlds.get(actor, ids.world);
    expect(world.links, 'the artifact belongs to the character, not the world').to.deep.equal([]);
  });

  it('links a generated location to the location and zone, and records the request on the project', async () => {
    const created = await create(key, 'three_d.location.generate', {
      description: 'a wooden pier at dawn', location_id: ids.location, zone_id: ids.zone, universe_id: ids.world, project_id: ids.project,
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.status, done.errorMessage).to.equal('succeeded');
    const { workspaces } = service.service.gateway;
    for (const assetId of [ids.location, ids.zone]) {
      const { links } = await workspaces.worlds.getAsset(actor, assetId);
      expect(links.map((link) => link.requestId)).to.deep.equal([created.body.id]);
      expect(links[0]!.artifacts.splat_url).to.equal(done.output.splat_url);
    }
    const project = await workspaces.projects.get(actor, ids.project);
    expect(project.requests.map((link) => [link.targetType, link.requestId])).to.deep.equal([['project', created.body.id]]);
  });

  it('links to the world itself when only the universe is named', async () => {
    const created = await create(key, 'three_d.location.generate', { description: 'the harbour from the hill', universe_id: ids.otherWorld });
    const done = await pollUntilTerminal(service, key, created.body.id);
    expect(done.status, done.errorMessage).to.equal('succeeded');
    const world = await service.service.gateway.workspaces.worlds.get(actor, ids.otherWorld);
    expect(world.links.map((link) => link.requestId)).to.deep.equal([created.body.id]);
  });

  it('refuses objects the key\'s account cannot see with 404 naming the field, before any debit', async () => {
    const before = await balance(otherKey);
    const refused = await create(otherKey, 'three_d.model.generate', { source_image_urls: [sourceImage], character_id: ids.character });
    expect(refused.status).to.equal(404);
    expect(refused.body.code).to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
    expect(refused.body.errors).to.deep.equal([{ path: '/input/character_id', message: 'names no object you can see' }]);
    expect(await balance(otherKey)).to.equal(before);
    const mineRefused = await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage], character_id: ids.foreignCharacter });
    expect(mineRefused.status).to.equal(404);
    const missing = await create(key, 'three_d.location.generate', { description: 'x', project_id: 'proj_doesnotexist' });
    expect(missing.status).to.equal(404);
    expect(missing.body.errors[0].path).to.equal('/input/project_id');
  });

  it('refuses ids that do not fit together with 422, before any debit', async () => {
    const before = await balance(key);
    const wrongKind = await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage], character_id: ids.object });
    expect(wrongKind.status).to.equal(422);
    expect(wrongKind.body.errors).to.deep.equal([{ path: '/input/character_id', message: `must name a character; ${ids.object} is a object` }]);
    const wrongUniverse = await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage], character_id: ids.character, universe_id: ids.otherWorld });
    expect(wrongUniverse.status).to.equal(422);
    expect(wrongUniverse.body.errors[0].path).to.equal('/input/character_id');
    const zoneElsewhere = await service.service.gateway.workspaces.worlds.createAsset(actor, { worldId: ids.world, kind: 'location', name: 'Lighthouse' });
    const wrongZone = await create(key, 'three_d.location.generate', { description: 'x', location_id: zoneElsewhere.asset.id, zone_id: ids.zone });
    expect(wrongZone.status).to.equal(422);
    expect(wrongZone.body.errors[0].path).to.equal('/input/zone_id');
    expect(await balance(key)).to.equal(before);
  });

  it('refuses a deleted object, and leaves standalone requests unlinked', async () => {
    const { worlds } = service.service.gateway.workspaces;
    const doomed = (await worlds.createAsset(actor, { worldId: ids.world, kind: 'object', name: 'Crate' })).asset.id;
    await worlds.deleteAsset(actor, doomed, { dryRun: false, confirmed: true, title: 'Crate' });
    expect((await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage], object_id: doomed })).status).to.equal(404);
    const standalone = await create(key, 'three_d.model.generate', { source_image_urls: [sourceImage] });
    expect((await pollUntilTerminal(service, key, standalone.body.id)).status).to.equal('succeeded');
    const rows = await service.service.gateway.database.sql.all('SELECT * FROM workspace_links WHERE request_id = ?', [standalone.body.id]);
    expect(rows).to.deep.equal([]);
  });
});
