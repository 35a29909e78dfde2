/**
 * The workspace records as tools return them: snake_case JSON, times as ISO 8601 (as the rest of the API),
 * one function per record so every tool (and the export) shows an object the same way.
 */
import type {
  ArtifactLink, AssetRecord, DeleteOutcome, Page, ProjectSnapshot, ProjectStep, ProjectView, ProjectRecord, WorkspaceRecord, WorkspaceRole, WorldRecord, WorldView, AssetView,
} from '../../../kernel/workspaces/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

export function workspaceJson(workspace: WorkspaceRecord, role: WorkspaceRole) {
  return { id: workspace.id, name: workspace.name, is_default: workspace.isDefault, role, created_at: iso(workspace.createdAtMs) };
}

export function stepJson(step: ProjectStep) {
  return { id: step.id, operation: step.operation, input: step.input, notes: step.notes };
}

/** A project in a list: no steps' inputs, just how many. */
export function projectSummaryJson(project: ProjectRecord) {
  return {
    id: project.id,
    workspace_id: project.workspaceId,
    world_id: project.worldId,
    title: project.title,
    description: project.description,
    status: project.status,
    step_count: project.steps.length,
    created_at: iso(project.createdAtMs),
    updated_at: iso(project.updatedAtMs),
  };
}

export function linkJson(link: ArtifactLink) {
  return { request_id: link.requestId, operation: link.operation, target_type: link.targetType, target_id: link.targetId, artifacts: link.artifacts, linked_at: iso(link.createdAtMs) };
}

export function projectJson(view: ProjectView) {
  return {
    ...projectSummaryJson(view.project),
    role: view.role,
    steps: view.project.steps.map(stepJson),
    shared_with: view.shares.map((share) => ({ email: share.email, role: share.role })),
    requests: view.requests.map(linkJson),
  };
}

export function worldSummaryJson(world: WorldRecord) {
  return { id: world.id, workspace_id: world.workspaceId, name: world.name, description: world.description, created_at: iso(world.createdAtMs), updated_at: iso(world.updatedAtMs) };
}

export function worldJson(view: WorldView) {
  return { ...worldSummaryJson(view.world), role: view.role, asset_counts: view.assetCounts, links: view.links.map(linkJson) };
}

export function assetSummaryJson(asset: AssetRecord) {
  return {
    id: asset.id,
    world_id: asset.worldId,
    workspace_id: asset.workspaceId,
    kind: asset.kind,
    name: asset.name,
    description: asset.description,
    location_id: asset.locationId,
    reference_media: asset.referenceMedia,
    created_at: iso(asset.createdAtMs),
    updated_at: iso(asset.updatedAtMs),
  };
}

export function assetJson(view: AssetView) {
  return { ...assetSummaryJson(view.asset), role: view.role, links: view.links.map(linkJson) };
}

export function deleteOutcomeJson(outcome: DeleteOutcome) {
  return {
    dry_run: outcome.dryRun,
    deleted: outcome.deleted,
    can_delete: outcome.canDelete,
    ...(outcome.reason ? { reason: outcome.reason } : {}),
    impact: {
      type: outcome.impact.type,
      id: outcome.impact.id,
      title: outcome.impact.title,
      ...(outcome.impact.steps !== undefined ? { steps: outcome.impact.steps } : {}),
      ...(outcome.impact.assets !== undefined ? { assets: outcome.impact.assets } : {}),
      links: outcome.impact.links,
      ...(outcome.impact.sharedWith !== undefined ? { shared_with: outcome.impact.sharedWith } : {}),
      ...(outcome.impact.zonesDetached !== undefined ? { zones_detached: outcome.impact.zonesDetached } : {}),
    },
    confirm_with: outcome.confirmWith,
    ...(outcome.restorableUntilMs !== undefined ? { restorable_until: iso(outcome.restorableUntilMs) } : {}),
  };
}

export function pageJson<T, J>(page: Page<T>, view: (item: T) => J) {
  return { items: page.items.map(view), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** The data of an export: what the HTML page shows and what its "download JSON" button saves, byte for byte. */
export function snapshotJson(snapshot: ProjectSnapshot) {
  return {
    exported_at: iso(snapshot.exportedAtMs),
    project: projectJson(snapshot.project),
    world: snapshot.world ? worldSummaryJson(snapshot.world) : null,
    world_links: snapshot.worldLinks.map(linkJson),
    assets: snapshot.assets.map(({ asset, links }) => ({ ...assetSummaryJson(asset), links: links.map(linkJson) })),
    assets_truncated: snapshot.assetsTruncated,
  };
}

export type SnapshotJson = ReturnType<typeof snapshotJson>;
