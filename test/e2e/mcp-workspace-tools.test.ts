/**
 * The 16 workspace tools over real HTTP with the official SDK client, for people linked through the real OAuth
 * flow: an owner, an editor (account developer) and a viewer of one account, a user who owns another account and
 * is only a viewer of this one, and a stranger. The whole lifecycle of projects, worlds and assets; the role rules
 * (viewers read, editors cannot delete a project, non-members see nothing); scopes (HTTP 403 insufficient_scope
 * for a token without workspace:write, a delete preview with a read-only token); every delete refusal; developer
 * API keys refused; invalid input naming the field; paging; and drafts that never touch credits.
 */
import { expect } from 'chai';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { softDeleteMs } from '../../src/kernel/workspaces/index.js';
import { workspaceTools } from '../../src/mcp/tools/workspace/index.js';
import { rawToolCall } from '../support/mcp-tool-call.js';
import { callTool, linkOAuthClient, type LinkedClient } from '../support/oauth-linked-client.js';
import { startTestService, type TestService } from '../support/test-service.js';

const password = 'correct horse battery staple 42';
const allScopes = 'requests:read requests:write workspace:read workspace:write';
const isoTime = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Person = 'owner' | 'editor' | 'viewer' | 'crossover' | 'stranger';

describe('MCP workspace tools (OAuth, end to end)', function () {
  this.timeout(120_000);
  let service: TestService;
  /** Account A holds the workspace under test; the crossover user owns B, the stranger owns C. */
  const accounts = { a: '', b: '', c: '' };
  let developerKey: string;
  const emails: Record<Person, string> = {
    owner: 'owner@a.example.com',
    editor: 'editor@a.example.com',
    viewer: 'viewer@a.example.com',
    crossover: 'crossover@b.example.com',
    stranger: 'stranger@c.example.com',
  };
  const linked = {} as Record<Person, LinkedClient>;
  let defaultWorkspaceOfA: string;

  before(async () => {
    service = await startTestService();
    const { users } = service.service.gateway;
    const a = await service.createKey({ credits: 1000 });
    developerKey = a.key;
    accounts.a = a.accountId;
    accounts.b = (await service.createKey({ credits: 500 })).accountId;
    accounts.c = (await service.createKey({ credits: 500 })).accountId;
    await users.create({ email: emails.owner, password, accountId: accounts.a, role: 'owner' });
    await users.create({ email: emails.editor, password, accountId: accounts.a, role: 'developer' });
    await users.create({ email: emails.viewer, password, accountId: accounts.a, role: 'viewer' });
    await users.create({ email: emails.crossover, password, accountId: accounts.b, role: 'owner' });
    await users.invite({ email: emails.crossover, accountId: accounts.a, role: 'viewer' });
    await users.create({ email: emails.stranger, password, accountId: accounts.c, role: 'owner' });
    const link = (person: Person, accountId: string, scope: string) => linkOAuthClient({ baseUrl: service.url, email: emails[person], password, accountId }, { scope });
    // A viewer may approve read scopes only (the consent screen's rule); the crossover user links their own account B.
    [linked.owner, linked.editor, linked.viewer, linked.crossover, linked.stranger] = await Promise.all([
      link('owner', accounts.a, allScopes),
      link('editor', accounts.a, allScopes),
      link('viewer', accounts.a, 'requests:read workspace:read'),
      link('crossover', accounts.b, allScopes),
      link('stranger', accounts.c, allScopes),
    ]);
    const worlds = await linked.owner.call('list_worlds', {});
    defaultWorkspaceOfA = worlds.value.workspaces[0].id;
  });
  after(async () => {
    await Promise.all(Object.values(linked).map((client) => client.close()));
    await service?.stop();
  });

  const call = (person: Person, name: string, args: Record<string, unknown> = {}) => linked[person].call(name, args);
  /** The structured result of a call that must succeed. */
  async function ok(person: Person, name: string, args: Record<string, unknown> = {}): Promise<any> {
    const outcome = await call(person, name, args);
    expect(outcome.ok, `${person} ${name}: ${JSON.stringify(outcome.error)}`).to.equal(true);
    return outcome.value;
  }
  /** The tool error of a call that must fail. */
  async function refused(person: Person, name: string, args: Record<string, unknown> = {}): Promise<any> {
    const outcome = await call(person, name, args);
    expect(outcome.ok, `${person} ${name} should have been refused: ${JSON.stringify(outcome.value)}`).to.equal(false);
    return outcome.error;
  }
  const notFound = (label: string, id: string, path = '/id') => ({
    code: 'MG_WORKSPACE_OBJECT_NOT_FOUND',
    message: `no ${label} ${id} that you can see`,
    errors: [{ path, message: `no ${label} with this id is visible to you` }],
  });
  const roleRefusal = (role: string, label: string, doing: string, needed: string) => ({
    code: 'MG_WORKSPACE_ROLE',
    message: `your role on this ${label} is ${role}; ${doing} needs ${needed}`,
    errors: [{ path: '/id', message: `needs the ${needed} role` }],
  });

  it('lists the 16 workspace tools to every client, with their hints and the field defaults', async () => {
    const anonymous = new Client({ name: 'anonymous', version: '1.0.0' });
    await anonymous.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
    const { tools } = await anonymous.listTools();
    await anonymous.close();
    const listed = tools.filter((tool) => workspaceTools.some((own) => own.name === tool.name));
    expect(listed.map((tool) => tool.name)).to.deep.equal([
      'list_creator_flow_projects', 'get_creator_flow_project', 'create_creator_flow_project', 'update_creator_flow_project', 'delete_creator_flow_project',
      'export_creator_flow_project', 'list_worlds', 'get_world', 'create_world', 'update_world', 'delete_world',
      'list_world_assets', 'get_world_asset', 'create_world_asset', 'update_world_asset', 'delete_world_asset',
    ]);
    const hints = Object.fromEntries(listed.map((tool) => [tool.name, tool.annotations]));
    const read = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };
    for (const name of ['list_creator_flow_projects', 'get_creator_flow_project', 'export_creator_flow_project', 'list_worlds', 'get_world', 'list_world_assets', 'get_world_asset']) {
      expect(hints[name], name).to.deep.equal(read);
    }
    for (const name of ['delete_creator_flow_project', 'delete_world', 'delete_world_asset']) {
      expect(hints[name], name).to.deep.equal({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    }
    for (const name of ['create_creator_flow_project', 'create_world', 'create_world_asset']) {
      expect(hints[name], name).to.deep.equal({ readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false });
    }
    // Updates overwrite (MCP: destructive); the project's is not idempotent, as a resent step without an id gets a new one.
    expect(hints.update_creator_flow_project).to.deep.equal({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    for (const name of ['update_world', 'update_world_asset']) {
      expect(hints[name], name).to.deep.equal({ readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false });
    }
    const deleteWorld = listed.find((tool) => tool.name === 'delete_world')!;
    expect(deleteWorld.inputSchema.required).to.deep.equal(['id']);
    expect(deleteWorld.inputSchema.properties!.dry_run).to.include({ type: 'boolean', default: true });
    const listAssets = listed.find((tool) => tool.name === 'list_world_assets')!;
    expect(listAssets.inputSchema.required).to.deep.equal(['world_id']);
    expect(listAssets.inputSchema.properties!.limit).to.include({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
    for (const tool of listed) expect(tool.description, tool.name).to.have.length.above(150);
  });

  it('builds a world with assets through its whole lifecycle', async () => {
    const created = await ok('editor', 'create_world', { name: 'Harbour town', description: 'a fishing town' });
    expect(created).to.deep.equal({
      id: created.id, workspace_id: defaultWorkspaceOfA, name: 'Harbour town', description: 'a fishing town',
      created_at: created.created_at, updated_at: created.created_at, role: 'editor', asset_counts: {}, links: [],
    });
    expect(created.id).to.match(/^world_[0-9a-z]{25}$/);
    expect(created.created_at).to.match(isoTime);
    const world = created.id as string;

    const renamed = await ok('editor', 'update_world', { id: world, name: 'Harbour Town' });
    expect(renamed).to.deep.include({ name: 'Harbour Town', description: 'a fishing town' });
    expect(await ok('editor', 'update_world', { id: world, name: 'Harbour Town' }), 'the same update again changes nothing but the time').to.deep.include({ name: 'Harbour Town' });

    const mara = await ok('editor', 'create_world_asset', { world_id: world, kind: 'character', name: 'Mara', description: 'the harbour master', reference_media: ['https://cdn.example.com/mara.png'] });
    expect(mara).to.deep.equal({
      id: mara.id, world_id: world, workspace_id: defaultWorkspaceOfA, kind: 'character', name: 'Mara', description: 'the harbour master', location_id: null,
      reference_media: ['https://cdn.example.com/mara.png'], created_at: mara.created_at, updated_at: mara.created_at, role: 'editor', links: [],
    });
    const pier = await ok('editor', 'create_world_asset', { world_id: world, kind: 'location', name: 'Pier' });
    const pierEnd = await ok('editor', 'create_world_asset', { world_id: world, kind: 'zone', name: 'Pier end', location_id: pier.id });
    expect(pierEnd.location_id).to.equal(pier.id);
    const lantern = await ok('editor', 'create_world_asset', { world_id: world, kind: 'object', name: 'Lantern' });

    expect((await ok('viewer', 'get_world', { id: world })).asset_counts).to.deep.equal({ character: 1, location: 1, zone: 1, object: 1 });
    expect((await ok('viewer', 'get_world', { id: world })).role).to.equal('viewer');
    const characters = await ok('viewer', 'list_world_assets', { world_id: world, kind: 'character' });
    const { role: _role, links: _links, ...maraSummary } = mara;
    expect(characters).to.deep.equal({ items: [maraSummary] });
    const everything = await ok('viewer', 'list_world_assets', { world_id: world });
    expect(everything.items.map((asset: { id: string }) => asset.id).sort()).to.deep.equal([mara.id, pier.id, pierEnd.id, lantern.id].sort());

    const updated = await ok('editor', 'update_world_asset', { id: mara.id, name: 'Mara Vale', reference_media: [] });
    expect(updated).to.deep.include({ name: 'Mara Vale', description: 'the harbour master', reference_media: [] });
    expect(await ok('viewer', 'get_world_asset', { id: mara.id })).to.deep.include({ name: 'Mara Vale', role: 'viewer' });
    const detached = await ok('editor', 'update_world_asset', { id: pierEnd.id, location_id: null });
    expect(detached.location_id).to.equal(null);

    const listedWorlds = await ok('editor', 'list_worlds', { workspace_id: defaultWorkspaceOfA, limit: 100 });
    expect(listedWorlds.items.map((item: { id: string }) => item.id)).to.include(world);
    expect(listedWorlds.workspaces).to.deep.equal([{ id: defaultWorkspaceOfA, name: 'Default workspace', is_default: true, role: 'editor', created_at: listedWorlds.workspaces[0].created_at }]);

    // Editors delete assets (preview, then confirmed); deleting the world needs the workspace owner.
    const assetPreview = await ok('editor', 'delete_world_asset', { id: lantern.id });
    expect(assetPreview).to.deep.equal({
      dry_run: true, deleted: false, can_delete: true, impact: { type: 'asset', id: lantern.id, title: 'Lantern', links: 0 },
      confirm_with: { dry_run: false, confirmed: true, title: 'Lantern' },
    });
    const assetDeleted = await ok('editor', 'delete_world_asset', { id: lantern.id, ...assetPreview.confirm_with });
    expect(assetDeleted).to.deep.include({ dry_run: false, deleted: true, can_delete: true });
    expect(Date.parse(assetDeleted.restorable_until) - Date.now()).to.be.closeTo(softDeleteMs, 60_000);
    expect(await refused('editor', 'get_world_asset', { id: lantern.id })).to.deep.equal(notFound('asset', lantern.id));

    const worldPreview = await ok('editor', 'delete_world', { id: world });
    expect(worldPreview).to.deep.equal({
      dry_run: true, deleted: false, can_delete: false, reason: 'deleting a world needs the owner role; your role is editor',
      impact: { type: 'world', id: world, title: 'Harbour Town', assets: { character: 1, location: 1, zone: 1 }, links: 0 },
      confirm_with: { dry_run: false, confirmed: true, title: 'Harbour Town' },
    });
    expect(await refused('editor', 'delete_world', { id: world, ...worldPreview.confirm_with })).to.deep.equal(roleRefusal('editor', 'world', 'deleting a world', 'owner'));
    const worldDeleted = await ok('owner', 'delete_world', { id: world, ...worldPreview.confirm_with });
    expect(worldDeleted).to.deep.include({ dry_run: false, deleted: true, can_delete: true });
    expect(await refused('owner', 'get_world', { id: world })).to.deep.equal(notFound('world', world));
    expect(await refused('owner', 'get_world_asset', { id: mara.id }), 'assets go with their world').to.deep.equal(notFound('asset', mara.id));
    expect(await refused('owner', 'list_world_assets', { world_id: world })).to.deep.equal(notFound('world', world, '/world_id'));
    expect(await refused('owner', 'delete_world', { id: world, ...worldPreview.confirm_with }), 'a second delete removes nothing more').to.deep.equal(notFound('world', world));
  });

  it('plans a project through its whole lifecycle: steps, status, world, shares with another account', async () => {
    const world = (await ok('editor', 'create_world', { name: 'Mountain pass' })).id as string;
    const created = await ok('editor', 'create_creator_flow_project', {
      title: 'Pass trailer',
      description: 'a 30-second trailer',
      world_id: world,
      steps: [
        { operation: 'image.generate', input: { prompt: 'a snowy pass at dawn' }, notes: 'key art' },
        { operation: 'video.generate', input: { prompt: 'a sled crossing the pass' } },
      ],
    });
    const [keyArt, sled] = created.steps as { id: string }[];
    expect(created).to.deep.equal({
      id: created.id, workspace_id: defaultWorkspaceOfA, world_id: world, title: 'Pass trailer', description: 'a 30-second trailer', status: 'draft', step_count: 2,
      created_at: created.created_at, updated_at: created.created_at,
      role: 'owner', // the creator owns what they made, even as an editor of the workspace
      steps: [
        { id: keyArt!.id, operation: 'image.generate', input: { prompt: 'a snowy pass at dawn' }, notes: 'key art' },
        { id: sled!.id, operation: 'video.generate', input: { prompt: 'a sled crossing the pass' }, notes: '' },
      ],
      shared_with: [{ email: emails.editor, role: 'owner' }],
      requests: [],
    });
    expect(keyArt!.id).to.match(/^step_/);
    const project = created.id as string;

    const replanned = await ok('editor', 'update_creator_flow_project', {
      id: project,
      status: 'active',
      steps: [{ id: sled!.id, operation: 'video.generate', input: { prompt: 'a sled crossing the pass at noon' }, notes: 'first now' }, { operation: 'narration.generate', input: {} }],
    });
    expect(replanned).to.deep.include({ status: 'active', step_count: 2, title: 'Pass trailer' });
    expect(replanned.steps[0]).to.deep.equal({ id: sled!.id, operation: 'video.generate', input: { prompt: 'a sled crossing the pass at noon' }, notes: 'first now' });
    expect(replanned.steps[1].id).to.match(/^step_/).and.not.equal(keyArt!.id);
    expect(await ok('viewer', 'get_creator_flow_project', { id: project })).to.deep.equal({ ...replanned, role: 'viewer' });

    const inWorld = await ok('viewer', 'list_creator_flow_projects', { world_id: world });
    const { role: _role, steps: _steps, shared_with: _shares, requests: _requests, ...summary } = replanned;
    expect(inWorld.items).to.deep.equal([summary]);
    expect(inWorld.workspaces.map((workspace: { role: string }) => workspace.role)).to.deep.equal(['viewer']);
    expect(await ok('editor', 'update_creator_flow_project', { id: project, world_id: null })).to.deep.include({ world_id: null });
    expect((await ok('viewer', 'list_creator_flow_projects', { world_id: world })).items).to.deep.equal([]);

    // Shares: the project's owner gives a user of another account a role on this project only.
    expect(await refused('stranger', 'get_creator_flow_project', { id: project })).to.deep.equal(notFound('project', project));
    const shared = await ok('editor', 'update_creator_flow_project', { id: project, share: [{ email: emails.stranger, role: 'viewer' }] });
    expect(shared.shared_with).to.have.deep.members([{ email: emails.editor, role: 'owner' }, { email: emails.stranger, role: 'viewer' }]);
    expect((await ok('stranger', 'get_creator_flow_project', { id: project })).role).to.equal('viewer');
    expect((await ok('stranger', 'list_creator_flow_projects', {})).items.map((item: { id: string }) => item.id)).to.deep.equal([project]);
    expect(await refused('stranger', 'update_creator_flow_project', { id: project, title: 'Mine now' })).to.deep.equal(roleRefusal('viewer', 'project', 'changing it', 'editor'));
    expect(await refused('stranger', 'get_world', { id: world }), 'a project share opens the project, not the workspace').to.deep.equal(notFound('world', world));
    await ok('editor', 'update_creator_flow_project', { id: project, share: [{ email: emails.stranger, role: 'editor' }] });
    expect(await ok('stranger', 'update_creator_flow_project', { id: project, description: 'notes from a collaborator' })).to.deep.include({ description: 'notes from a collaborator', role: 'editor' });
    expect(await refused('stranger', 'update_creator_flow_project', { id: project, share: [{ email: emails.crossover, role: 'viewer' }] })).to.deep.equal(roleRefusal('editor', 'project', 'sharing it', 'owner'));
    await ok('editor', 'update_creator_flow_project', { id: project, share: [{ email: emails.stranger, role: null }] });
    expect(await refused('stranger', 'get_creator_flow_project', { id: project })).to.deep.equal(notFound('project', project));
    expect(await refused('editor', 'update_creator_flow_project', { id: project, share: [{ email: 'nobody@example.com', role: 'viewer' }] })).to.deep.equal({
      code: 'MG_VALIDATION_FAILED', message: 'share.0.email is not the e-mail of a user of this service', errors: [{ path: '/share/0/email', message: 'is not the e-mail of a user of this service' }],
    });

    // The creator owns it, so the creator (an editor of the workspace) may delete it.
    const deleted = await ok('editor', 'delete_creator_flow_project', { id: project, dry_run: false, confirmed: true, title: 'Pass trailer' });
    expect(deleted).to.deep.include({ deleted: true, impact: { type: 'project', id: project, title: 'Pass trailer', steps: 2, links: 0, shared_with: [{ email: emails.editor, role: 'owner' }] } });
    expect(await refused('viewer', 'get_creator_flow_project', { id: project })).to.deep.equal(notFound('project', project));
  });

  it('enforces roles: viewers read only, editors cannot delete a project, non-members get not-found', async () => {
    const world = (await ok('owner', 'create_world', { name: 'Owner world' })).id as string;
    const character = (await ok('owner', 'create_world_asset', { world_id: world, kind: 'character', name: 'Ada' })).id as string;
    const project = (await ok('owner', 'create_creator_flow_project', { title: 'Owner plan', world_id: world })).id as string;

    // The crossover user holds workspace:write, but is only a viewer of account A: the role refuses, with 403 semantics.
    expect((await ok('crossover', 'get_world', { id: world })).role).to.equal('viewer');
    expect((await ok('crossover', 'get_creator_flow_project', { id: project })).role).to.equal('viewer');
    expect(await refused('crossover', 'update_world', { id: world, name: 'x' })).to.deep.equal(roleRefusal('viewer', 'world', 'changing it', 'editor'));
    expect(await refused('crossover', 'create_world_asset', { world_id: world, kind: 'object', name: 'x' })).to.deep.equal(roleRefusal('viewer', 'world', 'adding to it', 'editor'));
    expect(await refused('crossover', 'update_world_asset', { id: character, name: 'x' })).to.deep.equal(roleRefusal('viewer', 'asset', 'changing it', 'editor'));
    expect(await refused('crossover', 'update_creator_flow_project', { id: project, title: 'x' })).to.deep.equal(roleRefusal('viewer', 'project', 'changing it', 'editor'));
    expect(await refused('crossover', 'delete_world_asset', { id: character, dry_run: false, confirmed: true, title: 'Ada' })).to.deep.equal(roleRefusal('viewer', 'asset', 'deleting an asset', 'editor'));
    const intoA = await refused('crossover', 'create_creator_flow_project', { title: 'x', workspace_id: defaultWorkspaceOfA });
    expect(intoA).to.deep.equal({ ...roleRefusal('viewer', 'workspace', 'adding to it', 'editor') });
    // Without workspace_id a create goes to the caller's own account (B), where they are the owner.
    expect((await ok('crossover', 'create_world', { name: 'B world' })).workspace_id).to.not.equal(defaultWorkspaceOfA);

    // An editor edits the owner's project but cannot delete it; the preview says so first.
    expect(await ok('editor', 'update_creator_flow_project', { id: project, description: 'edited by an editor' })).to.deep.include({ role: 'editor' });
    const preview = await ok('editor', 'delete_creator_flow_project', { id: project });
    expect(preview).to.deep.include({ dry_run: true, deleted: false, can_delete: false, reason: 'deleting a project needs the owner role; your role is editor' });
    expect(await refused('editor', 'delete_creator_flow_project', { id: project, dry_run: false, confirmed: true, title: 'Owner plan' })).to.deep.equal(roleRefusal('editor', 'project', 'deleting a project', 'owner'));

    // A non-member learns nothing: every object is "not found", lists do not show them.
    const strangerCalls: [string, Record<string, unknown>, ReturnType<typeof notFound>][] = [
      ['get_world', { id: world }, notFound('world', world)],
      ['update_world', { id: world, name: 'x' }, notFound('world', world)],
      ['delete_world', { id: world }, notFound('world', world)],
      ['list_world_assets', { world_id: world }, notFound('world', world, '/world_id')],
      ['create_world_asset', { world_id: world, kind: 'object', name: 'x' }, notFound('world', world, '/world_id')],
      ['get_world_asset', { id: character }, notFound('asset', character)],
      ['update_world_asset', { id: character, name: 'x' }, notFound('asset', character)],
      ['delete_world_asset', { id: character }, notFound('asset', character)],
      ['get_creator_flow_project', { id: project }, notFound('project', project)],
      ['update_creator_flow_project', { id: project, title: 'x' }, notFound('project', project)],
      ['delete_creator_flow_project', { id: project }, notFound('project', project)],
      ['export_creator_flow_project', { id: project }, notFound('project', project)],
      ['list_worlds', { workspace_id: defaultWorkspaceOfA }, notFound('workspace', defaultWorkspaceOfA, '/workspace_id')],
    ];
    for (const [name, args, expected] of strangerCalls) expect(await refused('stranger', name, args), name).to.deep.equal(expected);
    expect((await ok('stranger', 'list_worlds', { limit: 100 })).items.map((item: { id: string }) => item.id)).to.not.include(world);
    expect((await ok('stranger', 'list_creator_flow_projects', { limit: 100 })).items.map((item: { id: string }) => item.id)).to.not.include(project);
    expect(await ok('owner', 'get_world_asset', { id: character }), 'nothing was changed by the refused calls').to.deep.include({ name: 'Ada' });
  });

  it('answers a write without workspace:write with HTTP 403 insufficient_scope naming it; a read-only token still previews deletes', async () => {
    const metadataUrl = `${service.url}/.well-known/oauth-protected-resource/mcp`;
    const token = linked.viewer.accessToken();
    const project = (await ok('owner', 'create_creator_flow_project', { title: 'Scoped plan' })).id as string;
    const writes: [string, Record<string, unknown>][] = [
      ['create_world', { name: 'x' }],
      ['update_creator_flow_project', { id: project, title: 'x' }],
      ['create_creator_flow_project', { title: 'x' }],
      ['delete_creator_flow_project', { id: project, dry_run: false, confirmed: true, title: 'Scoped plan' }],
    ];
    for (const [name, args] of writes) {
      const answer = await rawToolCall(`${service.url}/mcp`, token, name, args);
      expect({ status: answer.status, code: answer.body.code, challenge: answer.challenge }, name).to.deep.equal({
        status: 403,
        code: 'MG_INSUFFICIENT_SCOPE',
        challenge: `Bearer resource_metadata="${metadataUrl}", scope="workspace:write", error="insufficient_scope", error_description="${name} needs workspace:write"`,
      });
    }
    // A preview changes nothing, so workspace:read is enough, with dry_run omitted or true.
    for (const args of [{ id: project }, { id: project, dry_run: true, confirmed: true, title: 'Scoped plan' }]) {
      const preview = await rawToolCall(`${service.url}/mcp`, token, 'delete_creator_flow_project', args);
      expect(preview.status).to.equal(200);
      expect(preview.body.result.structuredContent).to.deep.include({ dry_run: true, deleted: false, can_delete: false, reason: 'deleting a project needs the owner role; your role is viewer' });
    }
    expect(await ok('viewer', 'get_creator_flow_project', { id: project })).to.deep.include({ title: 'Scoped plan', role: 'viewer' });
  });

  it('previews a delete, refuses every unconfirmed form with the field, and deletes once confirmed with the exact title', async () => {
    const project = await ok('owner', 'create_creator_flow_project', { title: 'Doomed plan', steps: [{ operation: 'image.generate', input: { prompt: 'x' } }] });
    await ok('owner', 'update_creator_flow_project', { id: project.id, share: [{ email: emails.stranger, role: 'viewer' }] });
    const preview = await ok('owner', 'delete_creator_flow_project', { id: project.id });
    expect(preview).to.deep.equal({
      dry_run: true, deleted: false, can_delete: true,
      impact: {
        type: 'project', id: project.id, title: 'Doomed plan', steps: 1, links: 0,
        shared_with: [{ email: emails.owner, role: 'owner' }, { email: emails.stranger, role: 'viewer' }],
      },
      confirm_with: { dry_run: false, confirmed: true, title: 'Doomed plan' },
    });
    const notConfirmed = { code: 'MG_DELETE_NOT_CONFIRMED', message: 'not deleted: send confirmed=true with dry_run=false (and the exact title) to delete', errors: [{ path: '/confirmed', message: 'must be true to delete' }] };
    const titleMessage = 'not deleted: title must be exactly "Doomed plan"';
    const refusals: [Record<string, unknown>, unknown][] = [
      [{ dry_run: false }, notConfirmed],
      [{ dry_run: false, title: 'Doomed plan' }, notConfirmed],
      [{ dry_run: false, confirmed: false, title: 'Doomed plan' }, notConfirmed],
      [{ dry_run: false, confirmed: true }, { code: 'MG_DELETE_NOT_CONFIRMED', message: titleMessage, errors: [{ path: '/title', message: 'is required to delete' }] }],
      [{ dry_run: false, confirmed: true, title: 'doomed plan' }, { code: 'MG_DELETE_NOT_CONFIRMED', message: titleMessage, errors: [{ path: '/title', message: 'does not match the title exactly' }] }],
      [{ dry_run: false, confirmed: true, title: 'Doomed plan ' }, { code: 'MG_DELETE_NOT_CONFIRMED', message: titleMessage, errors: [{ path: '/title', message: 'does not match the title exactly' }] }],
    ];
    for (const [args, expected] of refusals) expect(await refused('owner', 'delete_creator_flow_project', { id: project.id, ...args }), JSON.stringify(args)).to.deep.equal(expected);
    // dry_run true with everything else is still a preview.
    expect(await ok('owner', 'delete_creator_flow_project', { id: project.id, dry_run: true, confirmed: true, title: 'Doomed plan' })).to.deep.equal(preview);
    expect(await ok('owner', 'get_creator_flow_project', { id: project.id }), 'nothing changed').to.deep.include({ title: 'Doomed plan', step_count: 1 });

    const done = await ok('owner', 'delete_creator_flow_project', { id: project.id, ...preview.confirm_with });
    const { reason: _none, ...previewWithoutReason } = preview;
    expect(done).to.deep.equal({ ...previewWithoutReason, dry_run: false, deleted: true, restorable_until: done.restorable_until });
    expect(Date.parse(done.restorable_until) - Date.now()).to.be.closeTo(softDeleteMs, 60_000);
    expect(await refused('owner', 'get_creator_flow_project', { id: project.id })).to.deep.equal(notFound('project', project.id));
    expect(await refused('stranger', 'get_creator_flow_project', { id: project.id }), 'shares end with the project').to.deep.equal(notFound('project', project.id));
    const deleted = await service.service.gateway.workspaces.deleted({ userId: (await service.service.gateway.users.findByEmail(emails.owner))!.id, accountId: accounts.a });
    expect(deleted.map((object) => object.id), 'restorable by an owner in the console').to.include(project.id);
  });

  it('refuses developer API keys on every workspace tool with MG_FORBIDDEN_SCOPE, and asks unauthenticated callers to sign in', async () => {
    const client = new Client({ name: 'api-key-client', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${developerKey}` } } }));
    try {
      const forbidden = {
        code: 'MG_FORBIDDEN_SCOPE',
        message: 'workspace tools need an OAuth connection of a signed-in user with the workspace:read / workspace:write scopes; developer API keys do not grant workspace access',
      };
      for (const [name, args] of [['list_worlds', {}], ['create_world', { name: 'x' }], ['delete_world', { id: 'world_x', dry_run: false, confirmed: true, title: 'x' }]] as const) {
        expect(await callTool(client, name, args), name).to.deep.include({ ok: false, error: forbidden });
      }
      expect((await callTool(client, 'api_status')).ok, 'the key itself is fine').to.equal(true);
    } finally {
      await client.close();
    }
    const anonymous = await fetch(`${service.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_worlds', arguments: {} } }),
    });
    expect(anonymous.status).to.equal(401);
    expect(anonymous.headers.get('www-authenticate')).to.match(/^Bearer resource_metadata="[^"]+", scope="requests:read requests:write"$/);
  });

  it('refuses invalid input naming the field: shapes by the SDK before the tool runs, meanings by the kernel', async () => {
    const world = (await ok('editor', 'create_world', { name: 'Validation world' })).id as string;
    const shape = (tool: string, detail: string) => `MCP error -32602: Input validation error: Invalid arguments for tool ${tool}: ${detail}`;
    expect(await refused('editor', 'create_world_asset', { world_id: world, kind: 'vehicle', name: 'Cart' })).to.equal(
      shape('create_world_asset', 'Invalid option: expected one of "character"|"object"|"location"|"zone" at kind'),
    );
    expect(await refused('editor', 'list_worlds', { limit: 101 })).to.equal(shape('list_worlds', 'Too big: expected number to be <=100 at limit'));
    expect(await refused('editor', 'delete_world', { id: world, dry_run: 'false' })).to.equal(shape('delete_world', 'Invalid input: expected boolean, received string at dry_run'));
    expect(await refused('editor', 'create_creator_flow_project', { title: 'x', steps: [{ input: {} }] })).to.equal(
      shape('create_creator_flow_project', 'Invalid input: expected string, received undefined at steps[0].operation'),
    );
    expect(await refused('owner', 'update_creator_flow_project', { id: 'proj_x', share: [{ email: 'not-an-address', role: 'viewer' }] })).to.equal(
      shape('update_creator_flow_project', 'Invalid email address at share[0].email'),
    );

    const kernel = (path: string, message: string) => ({ code: 'MG_VALIDATION_FAILED', message: `${path.slice(1).replace(/\//g, '.')} ${message}`, errors: [{ path, message }] });
    expect(await refused('editor', 'create_creator_flow_project', { title: 'Bad plan', steps: [{ operation: 'image.generate' }, { operation: 'nope.generate' }] })).to.deep.equal(
      kernel('/steps/1/operation', 'is not an operation this gateway serves (nope.generate)'),
    );
    expect(await refused('editor', 'create_creator_flow_project', { title: '   ' })).to.deep.equal(kernel('/title', 'must not be empty'));
    expect(await refused('editor', 'create_world_asset', { world_id: world, kind: 'character', name: 'x', reference_media: ['ftp://example.com/x.png'] })).to.deep.equal(
      kernel('/reference_media/0', 'must be an http(s) URL'),
    );
    expect(await refused('editor', 'create_world_asset', { world_id: world, kind: 'character', name: 'x', location_id: world })).to.deep.equal(
      kernel('/location_id', 'is only for zones (the location a zone is part of)'),
    );
    expect(await refused('editor', 'create_creator_flow_project', { title: 'x', world_id: 'world_missing' })).to.deep.equal(notFound('world', 'world_missing', '/world_id'));
    expect(await refused('editor', 'list_worlds', { cursor: 'not-a-cursor' })).to.deep.equal(kernel('/cursor', 'is not a cursor this list returned'));
    expect((await ok('editor', 'list_world_assets', { world_id: world })).items, 'nothing was written').to.deep.equal([]);
  });

  it('pages every list with nextCursor, newest first, until the last page', async () => {
    const world = (await ok('editor', 'create_world', { name: 'Paged world' })).id as string;
    const names = ['one', 'two', 'three', 'four', 'five'];
    for (const name of names) await ok('editor', 'create_world_asset', { world_id: world, kind: name === 'five' ? 'character' : 'object', name });
    const all = (await ok('viewer', 'list_world_assets', { world_id: world, limit: 100 })).items as { id: string; name: string }[];
    expect(all.map((asset) => asset.name).sort()).to.deep.equal([...names].sort());
    expect(all.map((asset) => asset.id), 'newest first').to.deep.equal(all.map((asset) => asset.id).sort().reverse());

    const pages: { items: { id: string }[]; nextCursor?: string }[] = [];
    let cursor: string | undefined;
    do {
      const page = await ok('viewer', 'list_world_assets', { world_id: world, limit: 2, ...(cursor ? { cursor } : {}) });
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor);
    expect(pages.map((page) => page.items.length)).to.deep.equal([2, 2, 1]);
    expect(pages.map((page) => typeof page.nextCursor)).to.deep.equal(['string', 'string', 'undefined']);
    expect(pages.flatMap((page) => page.items)).to.deep.equal(all);
    expect((await ok('viewer', 'list_world_assets', { world_id: world, kind: 'character' })).items.map((asset: { name: string }) => asset.name)).to.deep.equal(['five']);

    for (const title of ['Plan A', 'Plan B', 'Plan C']) await ok('editor', 'create_creator_flow_project', { title, world_id: world });
    const first = await ok('editor', 'list_creator_flow_projects', { world_id: world, limit: 2 });
    const second = await ok('editor', 'list_creator_flow_projects', { world_id: world, limit: 2, cursor: first.nextCursor });
    const paged = [...first.items, ...second.items] as { id: string; title: string }[];
    expect(paged.map((project) => project.title)).to.have.members(['Plan A', 'Plan B', 'Plan C']);
    expect(paged.map((project) => project.id), 'newest first').to.deep.equal(paged.map((project) => project.id).sort().reverse());
    expect(second).to.not.have.property('nextCursor');

    const worlds = await ok('editor', 'list_worlds', { workspace_id: defaultWorkspaceOfA, limit: 1 });
    expect(worlds.items).to.have.length(1);
    expect(worlds.nextCursor).to.be.a('string');
    const next = await ok('editor', 'list_worlds', { workspace_id: defaultWorkspaceOfA, limit: 1, cursor: worlds.nextCursor });
    expect(next.items[0].id < worlds.items[0].id).to.equal(true);
  });

  it('spends nothing on drafts: creating, updating and deleting them leaves the balance, the ledger and the requests untouched', async () => {
    const knex = service.service.gateway.database.knex;
    const books = async () => ({
      balance: (await service.service.gateway.accounts.getAccount(accounts.a))!.creditsBalance,
      ledger: await knex('credit_ledger').where({ account_id: accounts.a }).orderBy('id').select('*'),
      requests: Number((await knex('requests').where({ account_id: accounts.a }).count({ n: '*' }).first())!.n),
    });
    const before = await books();
    const world = (await ok('editor', 'create_world', { name: 'Free world' })).id as string;
    const hero = (await ok('editor', 'create_world_asset', { world_id: world, kind: 'character', name: 'Hero' })).id as string;
    const project = await ok('editor', 'create_creator_flow_project', {
      title: 'Free plan', world_id: world,
      steps: [{ operation: 'three_d.model.generate', input: { source_image_urls: ['https://cdn.example.com/hero.png'], character_id: hero, universe_id: world } }],
    });
    await ok('editor', 'update_creator_flow_project', { id: project.id, status: 'completed', steps: [...project.steps, { operation: 'video.generate', input: { prompt: 'the hero walks' } }] });
    await ok('editor', 'update_world_asset', { id: hero, description: 'brave' });
    await ok('editor', 'update_world', { id: world, description: 'calm' });
    await ok('editor', 'export_creator_flow_project', { id: project.id });
    await ok('editor', 'delete_world_asset', { id: hero, dry_run: false, confirmed: true, title: 'Hero' });
    await ok('editor', 'delete_creator_flow_project', { id: project.id, dry_run: false, confirmed: true, title: 'Free plan' });
    await ok('owner', 'delete_world', { id: world, dry_run: false, confirmed: true, title: 'Free world' });
    expect(await books()).to.deep.equal(before);
    expect(before.balance).to.equal(1000);
  });
});
