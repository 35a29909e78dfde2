/**
 * One creator-flow project, read-only: its facts, the planned steps with their input drafts, who it is shared
 * with, and the generation requests run from it with their media. Whoever the kernel lets read the project sees
 * it (members of its account, users it is shared with); anyone else gets the same 404 as for an unknown id.
 */
import type { Router } from '@koa/router';
import { ApiError } from '../../../kernel/errors/index.js';
import type { Gateway } from '../../../kernel/gateway.js';
import type { ProjectShare, ProjectStep, WorkspaceActor } from '../../../kernel/workspaces/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { timeText } from './page-kit.js';
import { actorOf, linkedRequests, readOrNotFound, worldPath } from './workspace-page-kit.js';

export function addProjectPage(router: Router, gateway: Gateway): void {
  router.get('/console/workspaces/projects/:projectId', requireMember('viewer'), async (ctx) => {
    const actor = actorOf(ctx);
    const view = await readOrNotFound(ctx, 'project', () => gateway.workspaces.projects.get(actor, ctx.params.projectId!));
    if (!view) return;
    const { project, role, shares, requests } = view;
    const world = project.worldId ? await worldName(gateway, actor, project.worldId) : undefined;
    const workspace = (await gateway.workspaces.workspacesOf(actor)).find((entry) => entry.workspace.id === project.workspaceId)?.workspace;
    renderPage(ctx, {
      title: `Project ${project.title}`,
      section: 'workspaces',
      body: html`<p><a href="/console/workspaces">← Workspaces</a></p>
        <h1>Project “${project.title}”</h1>
        <dl class="facts">
          <dt>Status</dt><dd><span class="badge">${project.status}</span></dd>
          <dt>Workspace</dt><dd>${workspace?.name ?? html`<span class="muted">shared with you</span>`}</dd>
          <dt>World</dt><dd>${world !== undefined ? html`<a href="${worldPath(project.worldId!)}">${world}</a>` : html`<span class="muted">${project.worldId ? 'a world you have no role in' : '—'}</span>`}</dd>
          <dt>Your role</dt><dd>${role}</dd>
          <dt>Created</dt><dd>${timeText(project.createdAtMs)}</dd>
          <dt>Updated</dt><dd>${timeText(project.updatedAtMs)}</dd>
        </dl>
        ${project.description ? html`<h2>Description</h2><p class="description">${project.description}</p>` : ''}
        <h2>Steps</h2>
        ${project.steps.length === 0 ? html`<p class="empty">No steps planned.</p>` : html`<ol class="steps">${project.steps.map(stepItem)}</ol>`}
        <h2>Shared with</h2>
        ${sharesTable(shares)}
        <h2>Requests run from this project</h2>
        ${linkedRequests(requests, gateway.settings.server.public_url, `project “${project.title}”`, 'No request has been run from this project yet.')}`,
    });
  });
}

/** The world's name when the reader can see it (a user the project is shared with may have no role on its world). */
async function worldName(gateway: Gateway, actor: WorkspaceActor, worldId: string): Promise<string | undefined> {
  try {
    return (await gateway.workspaces.worlds.get(actor, worldId)).world.name;
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MG_WORKSPACE_OBJECT_NOT_FOUND') return undefined;
    throw error;
  }
}

function stepItem(step: ProjectStep) {
  return html`<li data-step-id="${step.id}">
    <h3>${step.operation}</h3>
    ${step.notes ? html`<p class="notes">${step.notes}</p>` : ''}
    <p class="muted">Input draft (not run by the workspace):</p>
    <pre class="json">${JSON.stringify(step.input, null, 2)}</pre>
  </li>`;
}

function sharesTable(shares: ProjectShare[]) {
  if (shares.length === 0) return html`<p class="empty">Not shared with anyone.</p>`;
  return html`<table>
    <caption class="visually-hidden">People this project is shared with</caption>
    <thead><tr><th scope="col">User</th><th scope="col">Role on this project</th></tr></thead>
    <tbody>${shares.map((share) => html`<tr><th scope="row">${share.email}</th><td>${share.role}</td></tr>`)}</tbody>
  </table>`;
}
