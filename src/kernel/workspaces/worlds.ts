/**
 * Worlds (the spec's universes) and their assets: characters, objects, locations and zones, each with a name,
 * description, reference media and the generated artifacts linked to it. Roles come from the workspace.
 */
import { newId } from '../store/index.js';
import { previewOrDelete, type DeleteConfirmation, type DeleteOutcome } from './delete-confirmation.js';
import { pageOf, windowOf, type PageRequest } from './paging.js';
import { notFound, requireRole, type WorkspaceAccess, type WorkspaceActor } from './workspace-access.js';
import type { WorkspaceHome } from './workspace-home.js';
import { checkReferenceMedia, checkText, invalid, limits } from './workspace-inputs.js';
import type { ArtifactLink, AssetKind, AssetRecord, Page, WorkspaceRole, WorldRecord } from './workspace-records.js';
import type { WorkspaceAction } from './workspace-roles.js';
import type { WorkspaceStore } from './workspace-store.js';

export interface WorldView {
  world: WorldRecord;
  role: WorkspaceRole;
  assetCounts: Partial<Record<AssetKind, number>>;
  /** Artifacts linked to the world itself (a generation that named only its universe). */
  links: ArtifactLink[];
}

export interface AssetView {
  asset: AssetRecord;
  role: WorkspaceRole;
  links: ArtifactLink[];
}

export interface AssetDraft {
  worldId: string;
  kind: AssetKind;
  name: string;
  description?: string;
  referenceMedia?: string[];
  locationId?: string | null;
}

export type AssetChange = Partial<Pick<AssetDraft, 'name' | 'description' | 'referenceMedia' | 'locationId'>>;

export interface WorldsDeps {
  store: WorkspaceStore;
  access: WorkspaceAccess;
  home: WorkspaceHome;
  clock: { now(): number };
}

export class Worlds {
  constructor(private readonly deps: WorldsDeps) {}

  async list(actor: WorkspaceActor, request: PageRequest & { workspaceId?: string }): Promise<Page<WorldRecord>> {
    const { store, access, home } = this.deps;
    await home.ensureDefault(actor);
    let ids = (await access.readableWorkspaces(actor)).map(({ workspace }) => workspace.id);
    if (request.workspaceId !== undefined) {
      if (!ids.includes(request.workspaceId)) throw notFound('workspace', request.workspaceId, '/workspace_id');
      ids = [request.workspaceId];
    }
    const window = windowOf(request);
    return pageOf(await store.worldsIn(ids, window), window);
  }

  async get(actor: WorkspaceActor, id: string): Promise<WorldView> {
    const { world, role } = await this.resolveWorld(actor, id, 'read');
    return { world, role, assetCounts: await this.deps.store.countAssetsByKind(id), links: await this.deps.store.links(id) };
  }

  async create(actor: WorkspaceActor, draft: { workspaceId?: string; name: string; description?: string }): Promise<WorldView> {
    const { store, home, clock } = this.deps;
    const workspace = await home.writableWorkspace(actor, draft.workspaceId);
    const now = clock.now();
    const world: WorldRecord = {
      id: newId('world', now),
      workspaceId: workspace.id,
      name: checkText(draft.name, '/name', limits.titleLength, true),
      description: checkText(draft.description ?? '', '/description', limits.descriptionLength, false),
      createdBy: actor.userId,
      createdAtMs: now,
      updatedAtMs: now,
      deletedAtMs: null,
    };
    await store.insertWorld(world);
    return this.get(actor, world.id);
  }

  async update(actor: WorkspaceActor, id: string, change: { name?: string; description?: string }): Promise<WorldView> {
    const { world } = await this.resolveWorld(actor, id, 'edit');
    const next: WorldRecord = {
      ...world,
      name: change.name === undefined ? world.name : checkText(change.name, '/name', limits.titleLength, true),
      description: change.description === undefined ? world.description : checkText(change.description, '/description', limits.descriptionLength, false),
      updatedAtMs: this.deps.clock.now(),
    };
    if (!(await this.deps.store.updateWorld(next))) throw notFound('world', id);
    return this.get(actor, id);
  }

  async delete(actor: WorkspaceActor, id: string, confirmation: DeleteConfirmation): Promise<DeleteOutcome> {
    const { store } = this.deps;
    const { world, role } = await this.resolveWorld(actor, id, 'read');
    const assetIds = await store.assetIdsOf(id);
    const impact = { type: 'world' as const, id, title: world.name, assets: await store.countAssetsByKind(id), links: await store.countLinks([id, ...assetIds]) };
    const remove = (nowMs: number) => store.softDelete('workspace_worlds', id, actor.userId, nowMs);
    return previewOrDelete({ label: 'world', action: 'deleteWorld', id, title: world.name, role, impact, remove }, confirmation, this.deps.clock.now());
  }

  async listAssets(actor: WorkspaceActor, request: PageRequest & { worldId: string; kind?: AssetKind }): Promise<Page<AssetRecord>> {
    await this.resolveWorld(actor, request.worldId, 'read', '/world_id');
    const window = windowOf(request);
    return pageOf(await this.deps.store.assetsOf(request.worldId, window, request.kind), window);
  }

  async getAsset(actor: WorkspaceActor, id: string): Promise<AssetView> {
    const { asset, role } = await this.resolveAsset(actor, id, 'read');
    return { asset, role, links: await this.deps.store.links(id) };
  }

  async createAsset(actor: WorkspaceActor, draft: AssetDraft): Promise<AssetView> {
    const { store, clock } = this.deps;
    const { world } = await this.resolveWorld(actor, draft.worldId, 'createDraft', '/world_id');
    const now = clock.now();
    const asset: AssetRecord = {
      id: newId('asset', now),
      worldId: world.id,
      workspaceId: world.workspaceId,
      kind: draft.kind,
      name: checkText(draft.name, '/name', limits.titleLength, true),
      description: checkText(draft.description ?? '', '/description', limits.descriptionLength, false),
      locationId: await this.checkLocation(draft.kind, world.id, draft.locationId ?? null),
      referenceMedia: checkReferenceMedia(draft.referenceMedia ?? []),
      createdBy: actor.userId,
      createdAtMs: now,
      updatedAtMs: now,
      deletedAtMs: null,
    };
    await store.insertAsset(asset);
    return this.getAsset(actor, asset.id);
  }

  async updateAsset(actor: WorkspaceActor, id: string, change: AssetChange): Promise<AssetView> {
    const { asset } = await this.resolveAsset(actor, id, 'edit');
    const next: AssetRecord = {
      ...asset,
      name: change.name === undefined ? asset.name : checkText(change.name, '/name', limits.titleLength, true),
      description: change.description === undefined ? asset.description : checkText(change.description, '/description', limits.descriptionLength, false),
      referenceMedia: change.referenceMedia === undefined ? asset.referenceMedia : checkReferenceMedia(change.referenceMedia),
      locationId: change.locationId === undefined ? asset.locationId : await this.checkLocation(asset.kind, asset.worldId, change.locationId),
      updatedAtMs: this.deps.clock.now(),
    };
    if (!(await this.deps.store.updateAsset(next))) throw notFound('asset', id);
    return this.getAsset(actor, id);
  }

  async deleteAsset(actor: WorkspaceActor, id: string, confirmation: DeleteConfirmation): Promise<DeleteOutcome> {
    const { store } = this.deps;
    const { asset, role } = await this.resolveAsset(actor, id, 'read');
    const impact = {
      type: 'asset' as const,
      id,
      title: asset.name,
      links: await store.countLinks([id]),
      ...(asset.kind === 'location' ? { zonesDetached: await store.countZonesIn(id) } : {}),
    };
    const remove = (nowMs: number) => store.softDelete('workspace_assets', id, actor.userId, nowMs);
    return previewOrDelete({ label: 'asset', action: 'deleteAsset', id, title: asset.name, role, impact, remove }, confirmation, this.deps.clock.now());
  }

  /** A live world, after checking `action`. */
  async resolveWorld(actor: WorkspaceActor, id: string, action: WorkspaceAction, path = '/id'): Promise<{ world: WorldRecord; role: WorkspaceRole }> {
    const world = await this.deps.store.world(id);
    const role = world ? await this.deps.access.holderRole(actor, world) : undefined;
    if (!role) throw notFound('world', id, path);
    return { world: world!, role: requireRole(role, action, 'world', id) };
  }

  /** A live asset of a live world (an asset of a deleted world is gone with it), after checking `action`. */
  async resolveAsset(actor: WorkspaceActor, id: string, action: WorkspaceAction, path = '/id'): Promise<{ asset: AssetRecord; role: WorkspaceRole }> {
    const asset = await this.deps.store.asset(id);
    const world = asset ? await this.deps.store.world(asset.worldId) : undefined;
    const role = asset && world ? await this.deps.access.holderRole(actor, asset) : undefined;
    if (!role) throw notFound('asset', id, path);
    return { asset: asset!, role: requireRole(role, action, 'asset', id) };
  }

  private async checkLocation(kind: AssetKind, worldId: string, locationId: string | null): Promise<string | null> {
    if (locationId === null) return null;
    if (kind !== 'zone') throw invalid('/location_id', 'is only for zones (the location a zone is part of)');
    const location = await this.deps.store.asset(locationId);
    if (!location || location.worldId !== worldId || location.kind !== 'location') throw invalid('/location_id', 'must be a location of the same world');
    return location.id;
  }
}
