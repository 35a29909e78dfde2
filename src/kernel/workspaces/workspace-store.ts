/**
 * The workspace tables (migration 0007) in plain SQL, like the other stores: rows in, records out. Access rules
 * are not here (workspace-access.ts); every read takes `includeDeleted` explicitly so a soft-deleted object is
 * never returned by accident.
 */
import type { SqlDatabase, SqlExecutor } from '../store/index.js';
import type { ArtifactLink, AssetKind, AssetRecord, LinkTargetType, ProjectRecord, ProjectShare, ProjectStatus, WorkspaceRecord, WorkspaceRole, WorldRecord } from './workspace-records.js';

type Row = Record<string, unknown>;
const num = (value: unknown): number => (typeof value === 'number' ? value : Number(value));
const numOrNull = (value: unknown): number | null => (value === null || value === undefined ? null : num(value));

export interface ListWindow {
  /** Ids sort by creation time (store/ids.ts): a page continues below the last id of the previous one. */
  beforeId?: string;
  limit: number;
}

export class WorkspaceStore {
  /** `database` is given for the store that may open transactions; a store inside one has only its executor. */
  constructor(readonly db: SqlExecutor, private readonly database?: SqlDatabase) {}

  static open(database: SqlDatabase): WorkspaceStore {
    return new WorkspaceStore(database, database);
  }

  /** Runs `work` with a store bound to one transaction (or this store's own, when it already is in one). */
  async inTransaction<T>(work: (store: WorkspaceStore) => Promise<T>): Promise<T> {
    if (!this.database) return work(this);
    return this.database.transaction((tx) => work(new WorkspaceStore(tx)));
  }

  // Workspaces

  async workspace(id: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.first('SELECT * FROM workspaces WHERE id = ?', [id]);
    return row ? toWorkspace(row) : undefined;
  }

  async workspacesOfAccounts(accountIds: readonly string[]): Promise<WorkspaceRecord[]> {
    if (accountIds.length === 0) return [];
    const rows = await this.db.all(`SELECT * FROM workspaces WHERE account_id IN (${marks(accountIds)}) ORDER BY created_at_ms, id`, [...accountIds]);
    return rows.map(toWorkspace);
  }

  async defaultWorkspace(accountId: string): Promise<WorkspaceRecord | undefined> {
    const row = await this.db.first('SELECT * FROM workspaces WHERE account_id = ? AND is_default = ? ORDER BY created_at_ms, id', [accountId, 1]);
    return row ? toWorkspace(row) : undefined;
  }

  async insertWorkspace(workspace: WorkspaceRecord): Promise<void> {
    await this.db.run('INSERT INTO workspaces (id, account_id, name, is_default, created_at_ms) VALUES (?, ?, ?, ?, ?)', [
      workspace.id, workspace.accountId, workspace.name, workspace.isDefault ? 1 : 0, workspace.createdAtMs,
    ]);
  }

  /** The user's role in an account (kernel/accounts/members.ts), from which their workspace role follows. */
  async accountRole(userId: string, accountId: string): Promise<string | undefined> {
    const row = await this.db.first<{ role: string }>('SELECT role FROM memberships WHERE user_id = ? AND account_id = ?', [userId, accountId]);
    return row?.role;
  }

  async accountRoles(userId: string): Promise<{ accountId: string; role: string }[]> {
    const rows = await this.db.all<{ account_id: string; role: string }>('SELECT account_id, role FROM memberships WHERE user_id = ?', [userId]);
    return rows.map((row) => ({ accountId: row.account_id, role: row.role }));
  }

  // Projects

  async project(id: string, includeDeleted = false): Promise<ProjectRecord | undefined> {
    const row = await this.db.first(`SELECT * FROM workspace_projects WHERE id = ?${includeDeleted ? '' : ' AND deleted_at_ms IS NULL'}`, [id]);
    return row ? toProject(row) : undefined;
  }

  /** Live projects in `workspaceIds` or shared with `userId`, newest first. */
  async projectsVisibleTo(userId: string, workspaceIds: readonly string[], window: ListWindow, filter: { workspaceId?: string; worldId?: string } = {}): Promise<ProjectRecord[]> {
    const params: unknown[] = [];
    const visible = [`id IN (SELECT project_id FROM workspace_project_shares WHERE user_id = ?)`];
    params.push(userId);
    if (workspaceIds.length > 0) {
      visible.push(`workspace_id IN (${marks(workspaceIds)})`);
      params.push(...workspaceIds);
    }
    const where = [`(${visible.join(' OR ')})`, 'deleted_at_ms IS NULL'];
    if (filter.workspaceId) { where.push('workspace_id = ?'); params.push(filter.workspaceId); }
    if (filter.worldId) { where.push('world_id = ?'); params.push(filter.worldId); }
    if (window.beforeId) { where.push('id < ?'); params.push(window.beforeId); }
    const rows = await this.db.all(`SELECT * FROM workspace_projects WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${window.limit}`, params);
    return rows.map(toProject);
  }

  async insertProject(project: ProjectRecord): Promise<void> {
    await this.db.run(
      'INSERT INTO workspace_projects (id, workspace_id, world_id, title, description, status, steps, created_by, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [project.id, project.workspaceId, project.worldId, project.title, project.description, project.status, JSON.stringify(project.steps), project.createdBy, project.createdAtMs, project.updatedAtMs],
    );
  }

  async updateProject(project: ProjectRecord): Promise<boolean> {
    const { changes } = await this.db.run(
      'UPDATE workspace_projects SET world_id = ?, title = ?, description = ?, status = ?, steps = ?, updated_at_ms = ? WHERE id = ? AND deleted_at_ms IS NULL',
      [project.worldId, project.title, project.description, project.status, JSON.stringify(project.steps), project.updatedAtMs, project.id],
    );
    return changes > 0;
  }

  async shares(projectId: string): Promise<ProjectShare[]> {
    const rows = await this.db.all(
      'SELECT s.user_id, u.email, s.role FROM workspace_project_shares s JOIN users u ON u.id = s.user_id WHERE s.project_id = ? ORDER BY s.created_at_ms, u.email',
      [projectId],
    );
    return rows.map((row) => ({ userId: String(row.user_id), email: String(row.email), role: row.role as WorkspaceRole }));
  }

  async shareRole(projectId: string, userId: string): Promise<WorkspaceRole | undefined> {
    const row = await this.db.first<{ role: string }>('SELECT role FROM workspace_project_shares WHERE project_id = ? AND user_id = ?', [projectId, userId]);
    return row?.role as WorkspaceRole | undefined;
  }

  async putShare(projectId: string, userId: string, role: WorkspaceRole, nowMs: number): Promise<void> {
    // Delete + insert is the one upsert both dialects spell the same way.
    await this.db.run('DELETE FROM workspace_project_shares WHERE project_id = ? AND user_id = ?', [projectId, userId]);
    await this.db.run('INSERT INTO workspace_project_shares (project_id, user_id, role, created_at_ms) VALUES (?, ?, ?, ?)', [projectId, userId, role, nowMs]);
  }

  async removeShare(projectId: string, userId: string): Promise<void> {
    await this.db.run('DELETE FROM workspace_project_shares WHERE project_id = ? AND user_id = ?', [projectId, userId]);
  }

  // Worlds

  async world(id: string, includeDeleted = false): Promise<WorldRecord | undefined> {
    const row = await this.db.first(`SELECT * FROM workspace_worlds WHERE id = ?${includeDeleted ? '' : ' AND deleted_at_ms IS NULL'}`, [id]);
    return row ? toWorld(row) : undefined;
  }

  async worldsIn(workspaceIds: readonly string[], window: ListWindow): Promise<WorldRecord[]> {
    if (workspaceIds.length === 0) return [];
    const params: unknown[] = [...workspaceIds];
    let where = `workspace_id IN (${marks(workspaceIds)}) AND deleted_at_ms IS NULL`;
    if (window.beforeId) { where += ' AND id < ?'; params.push(window.beforeId); }
    const rows = await this.db.all(`SELECT * FROM workspace_worlds WHERE ${where} ORDER BY id DESC LIMIT ${window.limit}`, params);
    return rows.map(toWorld);
  }

  async insertWorld(world: WorldRecord): Promise<void> {
    await this.db.run('INSERT INTO workspace_worlds (id, workspace_id, name, description, created_by, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      world.id, world.workspaceId, world.name, world.description, world.createdBy, world.createdAtMs, world.updatedAtMs,
    ]);
  }

  async updateWorld(world: WorldRecord): Promise<boolean> {
    const { changes } = await this.db.run('UPDATE workspace_worlds SET name = ?, description = ?, updated_at_ms = ? WHERE id = ? AND deleted_at_ms IS NULL', [
      world.name, world.description, world.updatedAtMs, world.id,
    ]);
    return changes > 0;
  }

  // Assets

  async asset(id: string, includeDeleted = false): Promise<AssetRecord | undefined> {
    const row = await this.db.first(`SELECT * FROM workspace_assets WHERE id = ?${includeDeleted ? '' : ' AND deleted_at_ms IS NULL'}`, [id]);
    return row ? toAsset(row) : undefined;
  }

  async assetsOf(worldId: string, window: ListWindow, kind?: AssetKind): Promise<AssetRecord[]> {
    const params: unknown[] = [worldId];
    let where = 'world_id = ? AND deleted_at_ms IS NULL';
    if (kind) { where += ' AND kind = ?'; params.push(kind); }
    if (window.beforeId) { where += ' AND id < ?'; params.push(window.beforeId); }
    const rows = await this.db.all(`SELECT * FROM workspace_assets WHERE ${where} ORDER BY id DESC LIMIT ${window.limit}`, params);
    return rows.map(toAsset);
  }

  async countAssetsByKind(worldId: string): Promise<Partial<Record<AssetKind, number>>> {
    const rows = await this.db.all<{ kind: string; n: unknown }>('SELECT kind, COUNT(*) AS n FROM workspace_assets WHERE world_id = ? AND deleted_at_ms IS NULL GROUP BY kind', [worldId]);
    return Object.fromEntries(rows.map((row) => [row.kind, num(row.n)]));
  }

  async countZonesIn(locationId: string): Promise<number> {
    const row = await this.db.first<{ n: unknown }>('SELECT COUNT(*) AS n FROM workspace_assets WHERE location_id = ? AND deleted_at_ms IS NULL', [locationId]);
    return num(row?.n ?? 0);
  }

  async insertAsset(asset: AssetRecord): Promise<void> {
    await this.db.run(
      'INSERT INTO workspace_assets (id, world_id, workspace_id, kind, name, description, location_id, reference_media, created_by, created_at_ms, updated_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [asset.id, asset.worldId, asset.workspaceId, asset.kind, asset.name, asset.description, asset.locationId, JSON.stringify(asset.referenceMedia), asset.createdBy, asset.createdAtMs, asset.updatedAtMs],
    );
  }

  async updateAsset(asset: AssetRecord): Promise<boolean> {
    const { changes } = await this.db.run(
      'UPDATE workspace_assets SET name = ?, description = ?, location_id = ?, reference_media = ?, updated_at_ms = ? WHERE id = ? AND deleted_at_ms IS NULL',
      [asset.name, asset.description, asset.locationId, JSON.stringify(asset.referenceMedia), asset.updatedAtMs, asset.id],
    );
    return changes > 0;
  }

  // Soft delete, restore, purge

  async softDelete(table: SoftDeletable, id: string, userId: string, nowMs: number): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE ${table} SET deleted_at_ms = ?, deleted_by = ? WHERE id = ? AND deleted_at_ms IS NULL`, [nowMs, userId, id]);
    return changes > 0;
  }

  async restore(table: SoftDeletable, id: string, deletedAfterMs: number): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE ${table} SET deleted_at_ms = NULL, deleted_by = NULL WHERE id = ? AND deleted_at_ms IS NOT NULL AND deleted_at_ms > ?`, [id, deletedAfterMs]);
    return changes > 0;
  }

  /** Soft-deleted objects of the given workspaces, newest deletion first (the console's restore list). */
  async deletedIn(workspaceIds: readonly string[]): Promise<{ type: 'project' | 'world' | 'asset'; id: string; title: string; workspaceId: string; deletedAtMs: number; deletedBy: string | null }[]> {
    if (workspaceIds.length === 0) return [];
    const rows = await this.db.all(
      `SELECT 'project' AS type, id, title, workspace_id, deleted_at_ms, deleted_by FROM workspace_projects WHERE workspace_id IN (${marks(workspaceIds)}) AND deleted_at_ms IS NOT NULL
       UNION ALL SELECT 'world' AS type, id, name AS title, workspace_id, deleted_at_ms, deleted_by FROM workspace_worlds WHERE workspace_id IN (${marks(workspaceIds)}) AND deleted_at_ms IS NOT NULL
       UNION ALL SELECT 'asset' AS type, id, name AS title, workspace_id, deleted_at_ms, deleted_by FROM workspace_assets WHERE workspace_id IN (${marks(workspaceIds)}) AND deleted_at_ms IS NOT NULL
       ORDER BY deleted_at_ms DESC`,
      [...workspaceIds, ...workspaceIds, ...workspaceIds],
    );
    return rows.map((row) => ({
      type: row.type as 'project' | 'world' | 'asset',
      id: String(row.id),
      title: String(row.title),
      workspaceId: String(row.workspace_id),
      deletedAtMs: num(row.deleted_at_ms),
      deletedBy: (row.deleted_by as string | null) ?? null,
    }));
  }

  /** Soft-deleted projects the user owns by share (a creator who only edits the workspace still owns their project). */
  async deletedProjectsOwnedBy(userId: string): Promise<{ type: 'project'; id: string; title: string; workspaceId: string; deletedAtMs: number; deletedBy: string | null }[]> {
    const rows = await this.db.all(
      `SELECT p.id, p.title, p.workspace_id, p.deleted_at_ms, p.deleted_by FROM workspace_projects p
       JOIN workspace_project_shares s ON s.project_id = p.id AND s.user_id = ? AND s.role = 'owner'
       WHERE p.deleted_at_ms IS NOT NULL`,
      [userId],
    );
    return rows.map((row) => ({
      type: 'project' as const,
      id: String(row.id),
      title: String(row.title),
      workspaceId: String(row.workspace_id),
      deletedAtMs: num(row.deleted_at_ms),
      deletedBy: (row.deleted_by as string | null) ?? null,
    }));
  }

  /**
   * Removes for good what was soft-deleted before `cutoffMs`: projects with their shares and links, worlds with
   * all their assets and links, single assets with theirs. Returns how many objects went.
   */
  async purgeDeletedBefore(cutoffMs: number): Promise<number> {
    let purged = 0;
    const projects = await this.db.all<{ id: string }>('SELECT id FROM workspace_projects WHERE deleted_at_ms IS NOT NULL AND deleted_at_ms <= ?', [cutoffMs]);
    for (const { id } of projects) {
      await this.db.run('DELETE FROM workspace_links WHERE target_id = ?', [id]);
      await this.db.run('DELETE FROM workspace_project_shares WHERE project_id = ?', [id]);
      purged += (await this.db.run('DELETE FROM workspace_projects WHERE id = ?', [id])).changes;
    }
    const worlds = await this.db.all<{ id: string }>('SELECT id FROM workspace_worlds WHERE deleted_at_ms IS NOT NULL AND deleted_at_ms <= ?', [cutoffMs]);
    for (const { id } of worlds) {
      await this.db.run('DELETE FROM workspace_links WHERE target_id IN (SELECT id FROM workspace_assets WHERE world_id = ?)', [id]);
      await this.db.run('DELETE FROM workspace_links WHERE target_id = ?', [id]);
      await this.db.run('DELETE FROM workspace_assets WHERE world_id = ?', [id]);
      await this.db.run('UPDATE workspace_projects SET world_id = NULL WHERE world_id = ?', [id]);
      purged += (await this.db.run('DELETE FROM workspace_worlds WHERE id = ?', [id])).changes;
    }
    const assets = await this.db.all<{ id: string }>('SELECT id FROM workspace_assets WHERE deleted_at_ms IS NOT NULL AND deleted_at_ms <= ?', [cutoffMs]);
    for (const { id } of assets) {
      await this.db.run('DELETE FROM workspace_links WHERE target_id = ?', [id]);
      await this.db.run('UPDATE workspace_assets SET location_id = NULL WHERE location_id = ?', [id]);
      purged += (await this.db.run('DELETE FROM workspace_assets WHERE id = ?', [id])).changes;
    }
    return purged;
  }

  // Links

  async links(targetId: string): Promise<ArtifactLink[]> {
    const rows = await this.db.all('SELECT * FROM workspace_links WHERE target_id = ? ORDER BY created_at_ms, request_id', [targetId]);
    return rows.map(toLink);
  }

  async linksOfTargets(targetIds: readonly string[]): Promise<ArtifactLink[]> {
    if (targetIds.length === 0) return [];
    const rows = await this.db.all(`SELECT * FROM workspace_links WHERE target_id IN (${marks(targetIds)}) ORDER BY created_at_ms, request_id`, [...targetIds]);
    return rows.map(toLink);
  }

  async countLinks(targetIds: readonly string[]): Promise<number> {
    if (targetIds.length === 0) return 0;
    const row = await this.db.first<{ n: unknown }>(`SELECT COUNT(*) AS n FROM workspace_links WHERE target_id IN (${marks(targetIds)})`, [...targetIds]);
    return num(row?.n ?? 0);
  }

  async assetIdsOf(worldId: string): Promise<string[]> {
    const rows = await this.db.all<{ id: string }>('SELECT id FROM workspace_assets WHERE world_id = ? AND deleted_at_ms IS NULL', [worldId]);
    return rows.map((row) => row.id);
  }

  /** Written inside the request's finishing transaction (`tx`): a request's links exist exactly when it succeeded. */
  static async insertLink(tx: SqlExecutor, link: ArtifactLink): Promise<void> {
    await tx.run('INSERT INTO workspace_links (target_id, request_id, target_type, operation, artifacts, created_at_ms) VALUES (?, ?, ?, ?, ?, ?)', [
      link.targetId, link.requestId, link.targetType, link.operation, JSON.stringify(link.artifacts), link.createdAtMs,
    ]);
  }
}

export type SoftDeletable = 'workspace_projects' | 'workspace_worlds' | 'workspace_assets';

function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

function toWorkspace(row: Row): WorkspaceRecord {
  return { id: String(row.id), accountId: String(row.account_id), name: String(row.name), isDefault: Boolean(num(row.is_default)), createdAtMs: num(row.created_at_ms) };
}

function toProject(row: Row): ProjectRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    worldId: (row.world_id as string | null) ?? null,
    title: String(row.title),
    description: String(row.description),
    status: row.status as ProjectStatus,
    steps: JSON.parse(String(row.steps)) as ProjectRecord['steps'],
    createdBy: String(row.created_by),
    createdAtMs: num(row.created_at_ms),
    updatedAtMs: num(row.updated_at_ms),
    deletedAtMs: numOrNull(row.deleted_at_ms),
  };
}

function toWorld(row: Row): WorldRecord {
  return {
    id: String(row.id),
    workspaceId: String(row.workspace_id),
    name: String(row.name),
    description: String(row.description),
    createdBy: String(row.created_by),
    createdAtMs: num(row.created_at_ms),
    updatedAtMs: num(row.updated_at_ms),
    deletedAtMs: numOrNull(row.deleted_at_ms),
  };
}

function toAsset(row: Row): AssetRecord {
  return {
    id: String(row.id),
    worldId: String(row.world_id),
    workspaceId: String(row.workspace_id),
    kind: row.kind as AssetKind,
    name: String(row.name),
    description: String(row.description),
    locationId: (row.location_id as string | null) ?? null,
    referenceMedia: JSON.parse(String(row.reference_media)) as string[],
    createdBy: String(row.created_by),
    createdAtMs: num(row.created_at_ms),
    updatedAtMs: num(row.updated_at_ms),
    deletedAtMs: numOrNull(row.deleted_at_ms),
  };
}

function toLink(row: Row): ArtifactLink {
  return {
    targetType: row.target_type as LinkTargetType,
    targetId: String(row.target_id),
    requestId: String(row.request_id),
    operation: String(row.operation),
    artifacts: JSON.parse(String(row.artifacts)) as ArtifactLink['artifacts'],
    createdAtMs: num(row.created_at_ms),
  };
}

