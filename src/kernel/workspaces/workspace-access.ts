/**
 * Resolves what an actor may do with one workspace object, and turns "may not" into the error a client should
 * get: 404 when the actor has no role at all (the object's existence is not disclosed), 403 naming the role
 * needed when they can see it but not do this.
 */
import { ApiError } from '../errors/index.js';
import type { AssetRecord, ProjectRecord, WorkspaceRecord, WorkspaceRole, WorldRecord } from './workspace-records.js';
import { neededRole, roleAtLeast, strongerRole, workspaceRoleOf, type WorkspaceAction } from './workspace-roles.js';
import type { WorkspaceStore } from './workspace-store.js';

/** A signed-in person acting through an OAuth link (or the console); `accountId` is the account in use. */
export interface WorkspaceActor {
  userId: string;
  accountId: string;
}

export type ObjectLabel = 'workspace' | 'project' | 'world' | 'asset';

export class WorkspaceAccess {
  constructor(private readonly store: WorkspaceStore) {}

  async workspaceRole(actor: WorkspaceActor, workspace: Pick<WorkspaceRecord, 'accountId'>): Promise<WorkspaceRole | undefined> {
    return workspaceRoleOf(await this.store.accountRole(actor.userId, workspace.accountId));
  }

  async projectRole(actor: WorkspaceActor, project: ProjectRecord): Promise<WorkspaceRole | undefined> {
    const workspace = await this.store.workspace(project.workspaceId);
    const fromWorkspace = workspace ? await this.workspaceRole(actor, workspace) : undefined;
    return strongerRole(fromWorkspace, await this.store.shareRole(project.id, actor.userId));
  }

  /** Role on the workspace that holds a world or an asset (worlds and assets have no shares of their own). */
  async holderRole(actor: WorkspaceActor, object: WorldRecord | AssetRecord): Promise<WorkspaceRole | undefined> {
    const workspace = await this.store.workspace(object.workspaceId);
    return workspace ? this.workspaceRole(actor, workspace) : undefined;
  }

  /** Every workspace the actor has a role in, through any of their accounts. */
  async readableWorkspaces(actor: WorkspaceActor): Promise<{ workspace: WorkspaceRecord; role: WorkspaceRole }[]> {
    const roles = new Map((await this.store.accountRoles(actor.userId)).map(({ accountId, role }) => [accountId, workspaceRoleOf(role)]));
    const workspaces = await this.store.workspacesOfAccounts([...roles.keys()]);
    return workspaces.flatMap((workspace) => {
      const role = roles.get(workspace.accountId);
      return role ? [{ workspace, role }] : [];
    });
  }
}

/** Throws the 404 or 403 for `action` unless `role` allows it. */
export function requireRole(role: WorkspaceRole | undefined, action: WorkspaceAction, label: ObjectLabel, id: string): WorkspaceRole {
  if (role === undefined) throw notFound(label, id);
  const needed = neededRole[action];
  if (!roleAtLeast(role, needed)) {
    throw new ApiError('MG_WORKSPACE_ROLE', `your role on this ${label} is ${role}; ${describeAction(action, label)} needs ${needed}`, {
      errors: [{ path: '/id', message: `needs the ${needed} role` }],
    });
  }
  return role;
}

export function notFound(label: ObjectLabel, id: string, path = '/id'): ApiError {
  return new ApiError('MG_WORKSPACE_OBJECT_NOT_FOUND', `no ${label} ${id} that you can see`, { errors: [{ path, message: `no ${label} with this id is visible to you` }] });
}

function describeAction(action: WorkspaceAction, label: ObjectLabel): string {
  const verbs: Record<WorkspaceAction, string> = {
    read: `reading it`,
    createDraft: `adding to it`,
    edit: `changing it`,
    share: `sharing it`,
    deleteProject: 'deleting a project',
    deleteWorld: 'deleting a world',
    deleteAsset: 'deleting an asset',
    restore: `restoring a deleted ${label}`,
    linkArtifact: `linking a generated artifact to it`,
  };
  return verbs[action];
}
