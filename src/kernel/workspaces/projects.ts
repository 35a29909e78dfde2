/**
 * Creator-flow projects: an ordered plan of generation steps (operation + input draft + notes) with a title,
 * description and status, the requests that ran from it, and shares. Drafts never run anything and never touch
 * credits: nothing here calls the request lifecycle or the ledger.
 */
import type { OperationRegistry } from '../manifests/index.js';
import { newId } from '../store/index.js';
import type { Users } from '../accounts/index.js';
import { previewOrDelete, type DeleteConfirmation, type DeleteOutcome } from './delete-confirmation.js';
import { pageOf, windowOf, type PageRequest } from './paging.js';
import { notFound, requireRole, type WorkspaceAccess, type WorkspaceActor } from './workspace-access.js';
import { checkSteps, checkText, invalid, limits, type StepDraft } from './workspace-inputs.js';
import type { ArtifactLink, Page, ProjectRecord, ProjectShare, ProjectStatus, WorkspaceRole } from './workspace-records.js';
import type { WorkspaceStore } from './workspace-store.js';
import type { WorkspaceHome } from './workspace-home.js';

export interface ProjectDraft {
  workspaceId?: string;
  worldId?: string | null;
  title: string;
  description?: string;
  status?: ProjectStatus;
  steps?: StepDraft[];
}

export interface ProjectChange {
  title?: string;
  description?: string;
  status?: ProjectStatus;
  worldId?: string | null;
  steps?: StepDraft[];
  /** Owners only: give these users (by e-mail) a role on this project, or take it away (`role: null`). */
  share?: { email: string; role: WorkspaceRole | null }[];
}

/** A project as its reader sees it: the record, the reader's role, who it is shared with, the requests from it. */
export interface ProjectView {
  project: ProjectRecord;
  role: WorkspaceRole;
  shares: ProjectShare[];
  requests: ArtifactLink[];
}

export interface ProjectsDeps {
  store: WorkspaceStore;
  access: WorkspaceAccess;
  home: WorkspaceHome;
  registry: OperationRegistry;
  users: Pick<Users, 'findByEmail'>;
  clock: { now(): number };
}

export class Projects {
  constructor(private readonly deps: ProjectsDeps) {}

  async list(actor: WorkspaceActor, request: PageRequest & { workspaceId?: string; worldId?: string }): Promise<Page<ProjectRecord>> {
    const { store, access, home } = this.deps;
    await home.ensureDefault(actor);
    const readable = (await access.readableWorkspaces(actor)).map(({ workspace }) => workspace.id);
    const window = windowOf(request);
    return pageOf(await store.projectsVisibleTo(actor.userId, readable, window, { workspaceId: request.workspaceId, worldId: request.worldId }), window);
  }

  async get(actor: WorkspaceActor, id: string): Promise<ProjectView> {
    const { project, role } = await this.resolve(actor, id, 'read');
    const { store } = this.deps;
    return { project, role, shares: await store.shares(id), requests: await store.links(id) };
  }

  async create(actor: WorkspaceActor, draft: ProjectDraft): Promise<ProjectView> {
    const { store, home, clock, registry } = this.deps;
    const workspace = await home.writableWorkspace(actor, draft.workspaceId);
    const now = clock.now();
    const project: ProjectRecord = {
      id: newId('proj', now),
      workspaceId: workspace.id,
      worldId: await this.checkWorld(workspace.id, draft.worldId ?? null),
      title: checkText(draft.title, '/title', limits.titleLength, true),
      description: checkText(draft.description ?? '', '/description', limits.descriptionLength, false),
      status: draft.status ?? 'draft',
      steps: checkSteps(draft.steps ?? [], registry, now),
      createdBy: actor.userId,
      createdAtMs: now,
      updatedAtMs: now,
      deletedAtMs: null,
    };
    await store.inTransaction(async (inTx) => {
      await inTx.insertProject(project);
      // The creator owns what they made, even as an editor of the workspace: they may delete and share it.
      await inTx.putShare(project.id, actor.userId, 'owner', now);
    });
    return this.get(actor, project.id);
  }

  async update(actor: WorkspaceActor, id: string, change: ProjectChange): Promise<ProjectView> {
    const { store, clock, registry } = this.deps;
    const { project, role } = await this.resolve(actor, id, 'edit');
    if (change.share && change.share.length > 0) requireRole(role, 'share', 'project', id);
    const now = clock.now();
    const next: ProjectRecord = {
      ...project,
      title: change.title === undefined ? project.title : checkText(change.title, '/title', limits.titleLength, true),
      description: change.description === undefined ? project.description : checkText(change.description, '/description', limits.descriptionLength, false),
      status: change.status ?? project.status,
      worldId: change.worldId === undefined ? project.worldId : await this.checkWorld(project.workspaceId, change.worldId),
      steps: change.steps === undefined ? project.steps : checkSteps(change.steps, registry, now),
      updatedAtMs: now,
    };
    const shares = await this.resolveShares(change.share ?? [], actor);
    await store.inTransaction(async (inTx) => {
      if (!(await inTx.updateProject(next))) throw notFound('project', id);
      for (const share of shares) {
        if (share.role === null) await inTx.removeShare(id, share.userId);
        else await inTx.putShare(id, share.userId, share.role, now);
      }
    });
    return this.get(actor, id);
  }

  async delete(actor: WorkspaceActor, id: string, confirmation: DeleteConfirmation): Promise<DeleteOutcome> {
    const { store, clock } = this.deps;
    const { project, role } = await this.resolve(actor, id, 'read');
    const shares = await store.shares(id);
    const impact = {
      type: 'project' as const,
      id,
      title: project.title,
      steps: project.steps.length,
      links: await store.countLinks([id]),
      sharedWith: shares.map(({ email, role: shareRole }) => ({ email, role: shareRole })),
    };
    const remove = (nowMs: number) => store.softDelete('workspace_projects', id, actor.userId, nowMs);
    return previewOrDelete({ label: 'project', action: 'deleteProject', id, title: project.title, role, impact, remove }, confirmation, clock.now());
  }

  /** The project with the actor's role on it, after checking `action` is allowed (404 / 403 otherwise). */
  async resolve(actor: WorkspaceActor, id: string, action: 'read' | 'edit' | 'linkArtifact'): Promise<{ project: ProjectRecord; role: WorkspaceRole }> {
    const project = await this.deps.store.project(id);
    const role = project ? await this.deps.access.projectRole(actor, project) : undefined;
    return { project: project!, role: requireRole(role, action, 'project', id) };
  }

  private async checkWorld(workspaceId: string, worldId: string | null): Promise<string | null> {
    if (worldId === null) return null;
    const world = await this.deps.store.world(worldId);
    if (!world || world.workspaceId !== workspaceId) throw notFound('world', worldId, '/world_id');
    return world.id;
  }

  private async resolveShares(asked: NonNullable<ProjectChange['share']>, actor: WorkspaceActor): Promise<{ userId: string; role: WorkspaceRole | null }[]> {
    return Promise.all(asked.map(async ({ email, role }, index) => {
      const user = await this.deps.users.findByEmail(email);
      // Sharing names existing users only: inviting people is the account's business (console, CLI).
      if (!user) throw invalid(`/share/${index}/email`, 'is not the e-mail of a user of this service');
      if (user.id === actor.userId) throw invalid(`/share/${index}/email`, 'is your own: you cannot change your own role');
      return { userId: user.id, role };
    }));
  }
}

