/**
 * Deletes preview first: with `dry_run` unset or true nothing changes and the impact comes back; a delete runs
 * only with `dry_run=false`, `confirmed=true` and the object's exact title. Anything else is refused with the
 * field that is missing, so an agent cannot delete by accident or by guessing.
 */
import { ApiError } from '../errors/index.js';
import { notFound, requireRole, type ObjectLabel } from './workspace-access.js';
import type { DeleteImpact, WorkspaceRole } from './workspace-records.js';
import { neededRole, roleAtLeast } from './workspace-roles.js';

/** Soft-deleted objects stay restorable by an owner this long, then are purged (as request data is). */
export const softDeleteMs = 7 * 24 * 60 * 60 * 1000;

export interface DeleteConfirmation {
  dryRun?: boolean;
  confirmed?: boolean;
  title?: string;
}

export interface DeleteOutcome {
  dryRun: boolean;
  deleted: boolean;
  impact: DeleteImpact;
  /** Whether the caller's role allows running this delete; the preview says so before they try. */
  canDelete: boolean;
  /** Why not, when `canDelete` is false. */
  reason?: string;
  /** What to send to run it. */
  confirmWith: { dry_run: false; confirmed: true; title: string };
  /** A run delete is soft: an owner can restore it (in the console) until then. */
  restorableUntilMs?: number;
}

/** True when the delete should run; false for a preview; throws when it was asked to run but not confirmed. */
export function shouldRun(confirmation: DeleteConfirmation, exactTitle: string): boolean {
  if (confirmation.dryRun !== false) return false;
  if (confirmation.confirmed !== true) {
    throw new ApiError('MG_DELETE_NOT_CONFIRMED', 'not deleted: send confirmed=true with dry_run=false (and the exact title) to delete', {
      errors: [{ path: '/confirmed', message: 'must be true to delete' }],
    });
  }
  if (confirmation.title !== exactTitle) {
    throw new ApiError('MG_DELETE_NOT_CONFIRMED', `not deleted: title must be exactly ${JSON.stringify(exactTitle)}`, {
      errors: [{ path: '/title', message: confirmation.title === undefined ? 'is required to delete' : 'does not match the title exactly' }],
    });
  }
  return true;
}

export function confirmWith(title: string): DeleteOutcome['confirmWith'] {
  return { dry_run: false, confirmed: true, title };
}

export interface DeleteTarget {
  label: Exclude<ObjectLabel, 'workspace'>;
  action: 'deleteProject' | 'deleteWorld' | 'deleteAsset';
  id: string;
  title: string;
  /** The caller's role on the object (they can at least read it). */
  role: WorkspaceRole;
  impact: DeleteImpact;
  /** Marks the object deleted at `nowMs`; false when it was gone already. */
  remove(nowMs: number): Promise<boolean>;
}

/** The preview, or (confirmed, with the role for it) the soft delete; the answer has the same shape either way. */
export async function previewOrDelete(target: DeleteTarget, confirmation: DeleteConfirmation, nowMs: number): Promise<DeleteOutcome> {
  const needed = neededRole[target.action];
  const canDelete = roleAtLeast(target.role, needed);
  const outcome: DeleteOutcome = { dryRun: true, deleted: false, impact: target.impact, canDelete, confirmWith: confirmWith(target.title) };
  if (!canDelete) outcome.reason = `deleting a ${target.label} needs the ${needed} role; your role is ${target.role}`;
  if (!shouldRun(confirmation, target.title)) return outcome;
  requireRole(target.role, target.action, target.label, target.id);
  if (!(await target.remove(nowMs))) throw notFound(target.label, target.id);
  const { reason: _none, ...done } = outcome;
  return { ...done, dryRun: false, deleted: true, restorableUntilMs: nowMs + softDeleteMs };
}
