/**
 * Where new things go: each account has a default workspace, made the first time one of its members uses
 * workspaces, so a fresh account needs no setup. Creating in a workspace needs the editor role there.
 */
import { isDuplicateKeyError, newId } from '../store/index.js';
import { notFound, requireRole, type WorkspaceAccess, type WorkspaceActor } from './workspace-access.js';
import type { WorkspaceRecord } from './workspace-records.js';
import type { WorkspaceStore } from './workspace-store.js';

export class WorkspaceHome {
  constructor(
    private readonly store: WorkspaceStore,
    private readonly access: WorkspaceAccess,
    private readonly clock: { now(): number },
  ) {}

  /** The actor's account's default workspace, made now if the account has none and the actor belongs to it. */
  async ensureDefault(actor: WorkspaceActor): Promise<WorkspaceRecord | undefined> {
    const existing = await this.store.defaultWorkspace(actor.accountId);
    if (existing) return existing;
    if (!(await this.store.accountRole(actor.userId, actor.accountId))) return undefined;
    const now = this.clock.now();
    const workspace: WorkspaceRecord = { id: newId('wsp', now), accountId: actor.accountId, name: 'Default workspace', isDefault: true, createdAtMs: now };
    try {
      await this.store.insertWorkspace(workspace);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    // Two first uses at once may both insert; the oldest default wins for everyone, deterministically.
    return this.store.defaultWorkspace(actor.accountId);
  }

  /** `workspaceId`, or the default one, after checking the actor may create in it. */
  async writableWorkspace(actor: WorkspaceActor, workspaceId: string | undefined): Promise<WorkspaceRecord> {
    const workspace = workspaceId === undefined ? await this.ensureDefault(actor) : await this.store.workspace(workspaceId);
    if (!workspace) throw notFound('workspace', workspaceId ?? `of account ${actor.accountId}`, '/workspace_id');
    requireRole(await this.access.workspaceRole(actor, workspace), 'createDraft', 'workspace', workspace.id);
    return workspace;
  }
}
