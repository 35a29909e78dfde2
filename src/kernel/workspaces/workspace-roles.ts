/**
 * Who may do what in a workspace. A member's workspace role follows from their role in the workspace's account
 * (owners and admins own its workspaces, developers edit, viewers read); a project shared with a user adds that
 * share's role for that project only. Someone with no role sees nothing: every refusal to them is a 404.
 */
import type { Role } from '../accounts/members.js';
import type { WorkspaceRole } from './workspace-records.js';

const rank: Record<WorkspaceRole, number> = { owner: 3, editor: 2, viewer: 1 };

export function workspaceRoleOf(accountRole: string | undefined): WorkspaceRole | undefined {
  const byAccountRole: Record<Role, WorkspaceRole> = { owner: 'owner', admin: 'owner', developer: 'editor', viewer: 'viewer' };
  return accountRole === undefined ? undefined : byAccountRole[accountRole as Role];
}

export function roleAtLeast(role: WorkspaceRole | undefined, needed: WorkspaceRole): boolean {
  return role !== undefined && rank[role] >= rank[needed];
}

/** The stronger of two roles (a project share can raise a workspace role, never lower it). */
export function strongerRole(a: WorkspaceRole | undefined, b: WorkspaceRole | undefined): WorkspaceRole | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return rank[a] >= rank[b] ? a : b;
}

/** What each action needs; `docs/workspaces.md` has the same table. */
export const neededRole = {
  read: 'viewer',
  createDraft: 'editor',
  edit: 'editor',
  share: 'owner',
  deleteProject: 'owner',
  deleteWorld: 'owner',
  deleteAsset: 'editor',
  restore: 'owner',
  linkArtifact: 'editor',
} as const satisfies Record<string, WorkspaceRole>;

export type WorkspaceAction = keyof typeof neededRole;
