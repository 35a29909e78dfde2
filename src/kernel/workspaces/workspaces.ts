/**
 * The workspace domain's one entry point for the adapters (MCP tools, console, CLI, retention): projects,
 * worlds and assets, restores of soft-deleted objects, project snapshots for export, and the purge.
 */
import type { Users } from '../accounts/index.js';
import type { OperationRegistry } from '../manifests/index.js';
import type { SqlDatabase } from '../store/index.js';
import { ArtifactLinker } from './artifact-links.js';
import { softDeleteMs } from './delete-confirmation.js';
import { Projects, type ProjectView } from './projects.js';
import { notFound, requireRole, WorkspaceAccess, type WorkspaceActor } from './workspace-access.js';
import { WorkspaceHome } from './workspace-home.js';
import { invalid } from './workspace-inputs.js';
import type { ArtifactLink, AssetRecord, ObjectType, WorkspaceRecord, WorkspaceRole, WorldRecord } from './workspace-records.js';
import { roleAtLeast } from './workspace-roles.js';
import { WorkspaceStore } from './workspace-store.js';
import { Worlds } from './worlds.js';

/** A project as it stood at one moment, with its world's assets: what `export_creator_flow_project` renders. */
export interface ProjectSnapshot {
  exportedAtMs: number;
  project: ProjectView;
  world: WorldRecord | null;
  assets: { asset: AssetRecord; links: ArtifactLink[] }[];
  /** The world has more assets than an export lists (`exportAssetLimit`); the oldest ones are in it. */
  assetsTruncated: boolean;
  worldLinks: ArtifactLink[];
}

export interface DeletedObject {
  type: ObjectType;
  id: string;
  title: string;
  workspaceId: string;
  deletedAtMs: number;
  deletedBy: string | null;
  restorableUntilMs: number;
}

/** An export lists at most this many assets of the project's world; a larger world says so (`assetsTruncated`). */
export const exportAssetLimit = 500;

export class Workspaces {
  readonly store: WorkspaceStore;
  readonly access: WorkspaceAccess;
  readonly projects: Projects;
  readonly worlds: Worlds;
  readonly linker: ArtifactLinker;
  private readonly home: WorkspaceHome;

  constructor(private readonly deps: { database: SqlDatabase; registry: OperationRegistry; users: Pick<Users, 'findByEmail'>; clock: { now(): number } }) {
    this.store = WorkspaceStore.open(deps.database);
    this.access = new WorkspaceAccess(this.store);
    this.home = new WorkspaceHome(this.store, this.access, deps.clock);
    this.projects = new Projects({ store: this.store, access: this.access, home: this.home, registry: deps.registry, users: deps.users, clock: deps.clock });
    this.worlds = new Worlds({ store: this.store, access: this.access, home: this.home, clock: deps.clock });
    this.linker = new ArtifactLinker(this.store, this.access, deps.registry);
  }

  /** The workspaces the actor can read, with their role (the account's default one made on first use). */
  async workspacesOf(actor: WorkspaceActor): Promise<{ workspace: WorkspaceRecord; role: WorkspaceRole }[]> {
    await this.home.ensureDefault(actor);
    return this.access.readableWorkspaces(actor);
  }

  async snapshot(actor: WorkspaceActor, projectId: string): Promise<ProjectSnapshot> {
    const project = await this.projects.get(actor, projectId);
    const world = project.project.worldId ? ((await this.store.world(project.project.worldId)) ?? null) : null;
    let assets: ProjectSnapshot['assets'] = [];
    let worldLinks: ArtifactLink[] = [];
    let assetsTruncated = false;
    if (world) {
      // Newest first from the store, one more than the limit to know whether some are left out; shown oldest first.
      const newest = await this.store.assetsOf(world.id, { limit: exportAssetLimit + 1 });
      assetsTruncated = newest.length > exportAssetLimit;
      const records = newest.slice(0, exportAssetLimit).reverse();
      const links = await this.store.linksOfTargets(records.map((asset) => asset.id));
      assets = records.map((asset) => ({ asset, links: links.filter((link) => link.targetId === asset.id) }));
      worldLinks = await this.store.links(world.id);
    }
    return { exportedAtMs: this.deps.clock.now(), project, world, assets, assetsTruncated, worldLinks };
  }

  /** Soft-deleted objects the actor could restore (they own the workspace, or the project), newest first. */
  async deleted(actor: WorkspaceActor): Promise<DeletedObject[]> {
    const owned = (await this.workspacesOf(actor)).filter(({ role }) => roleAtLeast(role, 'owner')).map(({ workspace }) => workspace.id);
    const cutoff = this.deps.clock.now() - softDeleteMs;
    const inOwnedWorkspaces = await this.store.deletedIn(owned);
    const seen = new Set(inOwnedWorkspaces.map((object) => object.id));
    const ownedProjects = (await this.store.deletedProjectsOwnedBy(actor.userId)).filter((object) => !seen.has(object.id));
    return [...inOwnedWorkspaces, ...ownedProjects]
      .filter((object) => object.deletedAtMs > cutoff)
      .sort((a, b) => b.deletedAtMs - a.deletedAtMs)
      .map((object) => ({ ...object, restorableUntilMs: object.deletedAtMs + softDeleteMs }));
  }

  /** Undoes a soft delete within its 7 days; owners only (of the project, or of the world's workspace). */
  async restore(actor: WorkspaceActor, type: ObjectType, id: string): Promise<void> {
    const { store } = this;
    const cutoff = this.deps.clock.now() - softDeleteMs;
    const table = ({ project: 'workspace_projects', world: 'workspace_worlds', asset: 'workspace_assets' } as const)[type];
    if (type === 'project') {
      const project = await store.project(id, true);
      requireRole(project?.deletedAtMs ? await this.access.projectRole(actor, project) : undefined, 'restore', 'project', id);
    } else {
      const object = type === 'world' ? await store.world(id, true) : await store.asset(id, true);
      requireRole(object?.deletedAtMs ? await this.access.holderRole(actor, object) : undefined, 'restore', type, id);
      if (type === 'asset' && !(await store.world((object as AssetRecord).worldId))) throw invalid('/id', 'belongs to a deleted world: restore the world first');
    }
    if (!(await store.restore(table, id, cutoff))) throw notFound(type, id);
  }

  /** Retention: what was soft-deleted more than 7 days ago goes for good, with its links. */
  async purge(nowMs: number): Promise<number> {
    return this.store.purgeDeletedBefore(nowMs - softDeleteMs);
  }
}
