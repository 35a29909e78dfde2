/**
 * The workspace domain on every database adapter: projects, worlds and assets through their whole lifecycle,
 * the role rules (account roles -> workspace roles, project shares), delete previews and every refusal, soft
 * delete / restore / purge after 7 days, paging, and the links a generation request's success writes.
 */
import { expect } from 'chai';
import { Users } from '../../../src/kernel/accounts/index.js';
import { ApiError } from '../../../src/kernel/errors/index.js';
import { loadManifests, OperationRegistry } from '../../../src/kernel/manifests/index.js';
import { AccountStore, newId, type Database } from '../../../src/kernel/store/index.js';
import { exportAssetLimit, Workspaces, softDeleteMs, type WorkspaceActor } from '../../../src/kernel/workspaces/index.js';
import { useMigratedDatabase, type OpenContractDatabase } from '../../support/contract-database.js';

const password = 'correct horse battery staple 42';

/** The error a call fails with (or a failure of the test when it does not). */
async function refusal(promise: Promise<unknown>): Promise<ApiError> {
  const outcome = await promise.then(() => undefined, (error: unknown) => error);
  if (!(outcome instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(outcome)}`);
  return outcome;
}

export function describeWorkspaceContract(name: string, open: OpenContractDatabase): void {
  describe(`Workspace contract: ${name}`, function () {
    this.timeout(60_000);
    const openDatabaseOfSuite = useMigratedDatabase(open);
    let database: Database;
    let now = 1_700_000_000_000;
    const clock = { now: () => now };
    let workspaces: Workspaces;
    let registry: OperationRegistry;
    let users: Users;
    let accountId: string;
    let otherAccountId: string;
    const actors: Record<'owner' | 'admin' | 'developer' | 'viewer' | 'outsider', WorkspaceActor> = {} as never;

    before(async () => {
      database = openDatabaseOfSuite();
      registry = new OperationRegistry(await loadManifests([new URL('../../../manifests/operations', import.meta.url).pathname]));
      const accounts = new AccountStore(database.sql);
      accountId = newId('acct');
      otherAccountId = newId('acct');
      for (const id of [accountId, otherAccountId]) await accounts.createAccount({ id, email: 'a@example.com', plan: 'p', creditsBalance: 50, createdAtMs: now });
      users = new Users(database.sql, clock);
      for (const role of ['owner', 'admin', 'developer', 'viewer'] as const) {
        const user = await users.create({ email: `${role}-${name.length}@example.com`.replace(/[^a-z0-9@.-]/gi, ''), password, accountId, role });
        actors[role] = { userId: user.id, accountId };
      }
      const outsider = await users.create({ email: `outsider-${name.length}@example.com`, password, accountId: otherAccountId, role: 'owner' });
      actors.outsider = { userId: outsider.id, accountId: otherAccountId };
      workspaces = new Workspaces({ database: database.sql, registry, users, clock });
    });

    it('makes the account a default workspace on first use, with roles from the account roles', async () => {
      const seen = await workspaces.workspacesOf(actors.owner);
      expect(seen).to.have.length(1);
      expect(seen[0]!.workspace).to.include({ accountId, isDefault: true, name: 'Default workspace' });
      expect(seen[0]!.role).to.equal('owner');
      expect((await workspaces.workspacesOf(actors.admin))[0]!.role).to.equal('owner');
      expect((await workspaces.workspacesOf(actors.developer))[0]!.role).to.equal('editor');
      expect((await workspaces.workspacesOf(actors.viewer))[0]!.role).to.equal('viewer');
      expect((await workspaces.workspacesOf(actors.viewer)).map((entry) => entry.workspace.id)).to.deep.equal([seen[0]!.workspace.id]);
      const outsiders = await workspaces.workspacesOf(actors.outsider);
      expect(outsiders.map((entry) => entry.workspace.id)).to.not.include(seen[0]!.workspace.id);
    });

    it('plans a project: create, read, update steps, list; drafts never touch the ledger', async () => {
      const balanceBefore = await database.sql.first<{ credits_balance: unknown }>('SELECT credits_balance FROM accounts WHERE id = ?', [accountId]);
      const ledgerBefore = await database.sql.first<{ n: unknown }>('SELECT COUNT(*) AS n FROM credit_ledger');
      const created = await workspaces.projects.create(actors.developer, {
        title: 'Harbour short',
        description: 'a one-minute short',
        steps: [
          { operation: 'image.generate', input: { prompt: 'a harbour at dawn' }, notes: 'key art' },
          { operation: 'video.generate', input: { prompt: 'boats leaving' } },
        ],
      });
      expect(created.project).to.include({ title: 'Harbour short', status: 'draft', createdBy: actors.developer.userId });
      expect(created.role, 'the creator owns what they made').to.equal('owner');
      expect(created.project.steps.map((step) => step.operation)).to.deep.equal(['image.generate', 'video.generate']);
      expect(created.project.steps[0]!.id).to.match(/^step_/);
      now += 1000;
      const updated = await workspaces.projects.update(actors.developer, created.project.id, {
        status: 'active',
        steps: [{ id: created.project.steps[1]!.id, operation: 'video.generate', input: { prompt: 'boats leaving at noon' }, notes: 'first' }],
      });
      expect(updated.project.status).to.equal('active');
      expect(updated.project.steps).to.deep.equal([{ id: created.project.steps[1]!.id, operation: 'video.generate', input: { prompt: 'boats leaving at noon' }, notes: 'first' }]);
      expect(updated.project.updatedAtMs).to.equal(now);
      const listed = await workspaces.projects.list(actors.viewer, {});
      expect(listed.items.map((project) => project.id)).to.include(created.project.id);
      const balanceAfter = await database.sql.first<{ credits_balance: unknown }>('SELECT credits_balance FROM accounts WHERE id = ?', [accountId]);
      const ledgerAfter = await database.sql.first<{ n: unknown }>('SELECT COUNT(*) AS n FROM credit_ledger');
      expect(Number(balanceAfter!.credits_balance)).to.equal(Number(balanceBefore!.credits_balance));
      expect(Number(ledgerAfter!.n)).to.equal(Number(ledgerBefore!.n));
      expect(Number((await database.sql.first<{ n: unknown }>('SELECT COUNT(*) AS n FROM requests WHERE account_id = ?', [accountId]))!.n)).to.equal(0);
    });

    it('enforces roles: viewers read only, editors cannot delete others\' projects, non-members see nothing', async () => {
      const project = (await workspaces.projects.create(actors.owner, { title: 'Owner plan' })).project;
      expect((await refusal(workspaces.projects.update(actors.viewer, project.id, { title: 'x' }))).code).to.equal('MG_WORKSPACE_ROLE');
      expect((await refusal(workspaces.projects.create(actors.viewer, { title: 'x' }))).code).to.equal('MG_WORKSPACE_ROLE');
      const edited = await workspaces.projects.update(actors.developer, project.id, { description: 'edited by an editor' });
      expect(edited.role).to.equal('editor');
      const preview = await workspaces.projects.delete(actors.developer, project.id, {});
      expect(preview).to.include({ dryRun: true, deleted: false, canDelete: false });
      expect(preview.reason).to.match(/owner/);
      const forbidden = await refusal(workspaces.projects.delete(actors.developer, project.id, { dryRun: false, confirmed: true, title: 'Owner plan' }));
      expect(forbidden.code).to.equal('MG_WORKSPACE_ROLE');
      const outsiderCalls = [
        () => workspaces.projects.get(actors.outsider, project.id),
        () => workspaces.projects.update(actors.outsider, project.id, { title: 'x' }),
        () => workspaces.projects.delete(actors.outsider, project.id, {}),
      ];
      for (const call of outsiderCalls) expect((await refusal(call())).code).to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
      expect((await workspaces.projects.list(actors.outsider, {})).items.map((item) => item.id)).to.not.include(project.id);
    });

    it('shares a project with a user of another account, who then sees only that project with the shared role', async () => {
      const project = (await workspaces.projects.create(actors.owner, { title: 'Shared plan' })).project;
      const outsiderEmail = (await users.get(actors.outsider.userId))!.email;
      expect((await refusal(workspaces.projects.update(actors.developer, project.id, { share: [{ email: outsiderEmail, role: 'editor' }] }))).code).to.equal('MG_WORKSPACE_ROLE');
      const shared = await workspaces.projects.update(actors.owner, project.id, { share: [{ email: outsiderEmail, role: 'editor' }] });
      expect(shared.shares.map((share) => share.email)).to.include(outsiderEmail);
      const seen = await workspaces.projects.get(actors.outsider, project.id);
      expect(seen.role).to.equal('editor');
      await workspaces.projects.update(actors.outsider, project.id, { description: 'from a collaborator' });
      expect((await refusal(workspaces.projects.delete(actors.outsider, project.id, { dryRun: false, confirmed: true, title: 'Shared plan' }))).code).to.equal('MG_WORKSPACE_ROLE');
      const listed = await workspaces.projects.list(actors.outsider, {});
      expect(listed.items.map((item) => item.id)).to.include(project.id);
      await workspaces.projects.update(actors.owner, project.id, { share: [{ email: outsiderEmail, role: null }] });
      expect((await refusal(workspaces.projects.get(actors.outsider, project.id))).code).to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
      expect((await refusal(workspaces.projects.update(actors.owner, project.id, { share: [{ email: 'nobody@example.com', role: 'viewer' }] }))).extras.errors?.[0]?.path).to.equal('/share/0/email');
    });

    it('refuses bad drafts with the failing field and writes nothing', async () => {
      const before = (await workspaces.projects.list(actors.owner, { limit: 100 })).items.length;
      const unknownOperation = await refusal(workspaces.projects.create(actors.owner, { title: 'Bad', steps: [{ operation: 'image.generate' }, { operation: 'nope.generate' }] }));
      expect(unknownOperation.code).to.equal('MG_VALIDATION_FAILED');
      expect(unknownOperation.extras.errors?.[0]?.path).to.equal('/steps/1/operation');
      expect((await refusal(workspaces.projects.create(actors.owner, { title: '   ' }))).extras.errors?.[0]?.path).to.equal('/title');
      expect((await refusal(workspaces.projects.create(actors.owner, { title: 'x', worldId: 'world_missing' }))).extras.errors?.[0]?.path).to.equal('/world_id');
      expect((await workspaces.projects.list(actors.owner, { limit: 100 })).items.length).to.equal(before);
    });

    it('previews a delete, refuses every unconfirmed form, deletes softly, restores, and purges after 7 days', async () => {
      const project = (await workspaces.projects.create(actors.owner, { title: 'Doomed', steps: [{ operation: 'image.generate', input: { prompt: 'x' } }] })).project;
      const preview = await workspaces.projects.delete(actors.owner, project.id, {});
      expect(preview).to.deep.include({ dryRun: true, deleted: false, canDelete: true, confirmWith: { dry_run: false, confirmed: true, title: 'Doomed' } });
      expect(preview.impact).to.deep.include({ type: 'project', id: project.id, title: 'Doomed', steps: 1, links: 0 });
      expect(await workspaces.projects.delete(actors.owner, project.id, { dryRun: true, confirmed: true, title: 'Doomed' })).to.include({ deleted: false });
      const notConfirmed = await refusal(workspaces.projects.delete(actors.owner, project.id, { dryRun: false, title: 'Doomed' }));
      expect(notConfirmed.code).to.equal('MG_DELETE_NOT_CONFIRMED');
      expect(notConfirmed.extras.errors?.[0]?.path).to.equal('/confirmed');
      const noTitle = await refusal(workspaces.projects.delete(actors.owner, project.id, { dryRun: false, confirmed: true }));
      expect(noTitle.extras.errors?.[0]?.path).to.equal('/title');
      const wrongTitle = await refusal(workspaces.projects.delete(actors.owner, project.id, { dryRun: false, confirmed: true, title: 'doomed' }));
      expect(wrongTitle.extras.errors?.[0]).to.deep.equal({ path: '/title', message: 'does not match the title exactly' });
      expect((await workspaces.projects.get(actors.owner, project.id)).project.title, 'nothing changed').to.equal('Doomed');

      const done = await workspaces.projects.delete(actors.owner, project.id, { dryRun: false, confirmed: true, title: 'Doomed' });
      expect(done).to.include({ dryRun: false, deleted: true, restorableUntilMs: now + softDeleteMs });
      expect((await refusal(workspaces.projects.get(actors.owner, project.id))).code).to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
      expect((await workspaces.deleted(actors.owner)).map((object) => object.id)).to.include(project.id);
      expect((await workspaces.deleted(actors.developer)).map((object) => object.id), 'editors restore nothing').to.not.include(project.id);
      expect((await refusal(workspaces.restore(actors.developer, 'project', project.id))).code).to.equal('MG_WORKSPACE_ROLE');
      await workspaces.restore(actors.owner, 'project', project.id);
      expect((await workspaces.projects.get(actors.owner, project.id)).project.title).to.equal('Doomed');

      await workspaces.projects.delete(actors.owner, project.id, { dryRun: false, confirmed: true, title: 'Doomed' });
      now += softDeleteMs - 1;
      expect(await workspaces.purge(now)).to.equal(0);
      now += 2;
      expect((await refusal(workspaces.restore(actors.owner, 'project', project.id))).code, 'past the window').to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
      expect(await workspaces.purge(now)).to.be.at.least(1);
      expect(await workspaces.store.project(project.id, true)).to.equal(undefined);
      expect(await database.sql.first('SELECT * FROM workspace_project_shares WHERE project_id = ?', [project.id])).to.equal(undefined);
    });

    it('lets the creator of a project, an editor of the workspace, restore it', async () => {
      const project = (await workspaces.projects.create(actors.developer, { title: 'Mine to undo' })).project;
      await workspaces.projects.delete(actors.developer, project.id, { dryRun: false, confirmed: true, title: 'Mine to undo' });
      expect((await workspaces.deleted(actors.developer)).map((object) => object.id)).to.deep.equal([project.id]);
      expect((await workspaces.deleted(actors.viewer)).map((object) => object.id)).to.deep.equal([]);
      await workspaces.restore(actors.developer, 'project', project.id);
      expect((await workspaces.projects.get(actors.viewer, project.id)).project.title).to.equal('Mine to undo');
    });

    it('builds a world with assets of every kind; zones sit in locations; deleting a world hides its assets', async () => {
      const world = (await workspaces.worlds.create(actors.developer, { name: 'Harbour town', description: 'a fishing town' })).world;
      const character = (await workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'character', name: 'Mara', referenceMedia: ['https://cdn.example.com/mara.png'] })).asset;
      const location = (await workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'location', name: 'Pier' })).asset;
      const zone = (await workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'zone', name: 'Pier end', locationId: location.id })).asset;
      await workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'object', name: 'Lantern' });
      expect(zone.locationId).to.equal(location.id);
      expect((await refusal(workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'character', name: 'x', locationId: location.id }))).extras.errors?.[0]?.path).to.equal('/location_id');
      expect((await refusal(workspaces.worlds.createAsset(actors.developer, { worldId: world.id, kind: 'character', name: 'x', referenceMedia: ['ftp://x'] }))).extras.errors?.[0]?.path).to.equal('/reference_media/0');
      expect((await refusal(workspaces.worlds.createAsset(actors.viewer, { worldId: world.id, kind: 'object', name: 'x' }))).code).to.equal('MG_WORKSPACE_ROLE');
      const view = await workspaces.worlds.get(actors.viewer, world.id);
      expect(view.assetCounts).to.deep.equal({ character: 1, location: 1, zone: 1, object: 1 });
      const renamed = await workspaces.worlds.updateAsset(actors.developer, character.id, { name: 'Mara Vale', description: 'the harbour master' });
      expect(renamed.asset).to.include({ name: 'Mara Vale', description: 'the harbour master' });
      const characters = await workspaces.worlds.listAssets(actors.viewer, { worldId: world.id, kind: 'character' });
      expect(characters.items.map((asset) => asset.id)).to.deep.equal([character.id]);

      const locationPreview = await workspaces.worlds.deleteAsset(actors.developer, location.id, {});
      expect(locationPreview.impact).to.include({ zonesDetached: 1, links: 0 });
      const worldPreview = await workspaces.worlds.delete(actors.developer, world.id, {});
      expect(worldPreview).to.include({ canDelete: false });
      expect(worldPreview.impact.assets).to.deep.equal({ character: 1, location: 1, zone: 1, object: 1 });
      expect((await refusal(workspaces.worlds.delete(actors.developer, world.id, { dryRun: false, confirmed: true, title: 'Harbour town' }))).code).to.equal('MG_WORKSPACE_ROLE');
      await workspaces.worlds.delete(actors.owner, world.id, { dryRun: false, confirmed: true, title: 'Harbour town' });
      expect((await refusal(workspaces.worlds.getAsset(actors.owner, character.id))).code, 'gone with its world').to.equal('MG_WORKSPACE_OBJECT_NOT_FOUND');
      await workspaces.restore(actors.owner, 'world', world.id);
      expect((await workspaces.worlds.getAsset(actors.owner, character.id)).asset.name).to.equal('Mara Vale');
    });

    it('snapshots a project with its world\'s assets, and says when the world has more than an export holds', async () => {
      const world = (await workspaces.worlds.create(actors.owner, { name: 'Crowded' })).world;
      const project = (await workspaces.projects.create(actors.owner, { title: 'Crowd scene', worldId: world.id })).project;
      const small = await workspaces.snapshot(actors.viewer, project.id);
      expect(small).to.include({ exportedAtMs: now, assetsTruncated: false });
      expect(small.world?.id).to.equal(world.id);
      expect(small.project.project.id).to.equal(project.id);
      await database.sql.transaction(async (tx) => {
        for (let index = 0; index <= exportAssetLimit; index += 1) {
          await tx.run(
            'INSERT INTO workspace_assets (id, world_id, workspace_id, kind, name, description, location_id, reference_media, created_by, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            [`asset_${String(index).padStart(25, '0')}`, world.id, world.workspaceId, 'object', `extra ${index}`, '', null, '[]', actors.owner.userId, now, now],
          );
        }
      });
      const crowded = await workspaces.snapshot(actors.viewer, project.id);
      expect(crowded.assetsTruncated).to.equal(true);
      expect(crowded.assets).to.have.length(exportAssetLimit);
      expect(crowded.assets[0]!.asset.name, 'the newest kept, listed oldest first').to.equal('extra 1');
    });

    it('pages lists newest first with an opaque cursor', async () => {
      const world = (await workspaces.worlds.create(actors.owner, { name: 'Paged' })).world;
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        now += 1;
        ids.push((await workspaces.worlds.createAsset(actors.owner, { worldId: world.id, kind: 'object', name: `thing ${index}` })).asset.id);
      }
      const first = await workspaces.worlds.listAssets(actors.owner, { worldId: world.id, limit: 2 });
      expect(first.items.map((asset) => asset.id)).to.deep.equal([ids[4], ids[3]]);
      const second = await workspaces.worlds.listAssets(actors.owner, { worldId: world.id, limit: 2, cursor: first.nextCursor });
      expect(second.items.map((asset) => asset.id)).to.deep.equal([ids[2], ids[1]]);
      const third = await workspaces.worlds.listAssets(actors.owner, { worldId: world.id, limit: 2, cursor: second.nextCursor });
      expect(third.items.map((asset) => asset.id)).to.deep.equal([ids[0]]);
      expect(third.nextCursor).to.equal(undefined);
      expect((await refusal(workspaces.worlds.listAssets(actors.owner, { worldId: world.id, cursor: 'garbage' }))).extras.errors?.[0]?.path).to.equal('/cursor');
      expect((await refusal(workspaces.worlds.listAssets(actors.owner, { worldId: world.id, limit: 101 }))).extras.errors?.[0]?.path).to.equal('/limit');
    });
  });
}
