/**
 * Workspaces: the account's workspaces, each with its creator-flow projects and worlds (read-only here: MCP
 * clients plan and edit them), and what was deleted in the last 7 days, which an owner restores with one
 * button. Every member reads; the kernel decides who may restore (owners of the workspace, or of the project),
 * so a refused POST changes nothing and says why.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import { ApiError } from '../../../kernel/errors/index.js';
import type { Gateway } from '../../../kernel/gateway.js';
import {
  maxPageSize, type AssetKind, type DeletedObject, type ObjectType, type ProjectRecord, type WorkspaceActor, type WorkspaceRecord, type WorkspaceRole, type WorldRecord,
} from '../../../kernel/workspaces/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { actionButton, renderNotFound, timeText } from './page-kit.js';
import { actorOf, assetCountsText, collectPages, projectPath, renderRefusal, worldPath } from './workspace-page-kit.js';

/** A workspace lists at most this many projects and worlds; past it the page says the list goes on. */
const listCap = 500;
const objectTypes: readonly ObjectType[] = ['project', 'world', 'asset'];

interface WorkspaceContents {
  workspace: WorkspaceRecord;
  role: WorkspaceRole;
  projects: { items: ProjectRecord[]; more: boolean };
  worlds: { items: { world: WorldRecord; assetCounts: Partial<Record<AssetKind, number>> }[]; more: boolean };
}

function restorePath(object: Pick<DeletedObject, 'type' | 'id'>): string {
  return `/console/workspaces/deleted/${object.type}/${encodeURIComponent(object.id)}/restore`;
}

export function addWorkspacesPages(router: Router, gateway: Gateway): void {
  router.get('/console/workspaces', requireMember('viewer'), async (ctx) => {
    const actor = actorOf(ctx);
    // The user's other accounts have their own page: the account switcher moves between them.
    const own = (await gateway.workspaces.workspacesOf(actor)).filter(({ workspace }) => workspace.accountId === actor.accountId);
    const contents: WorkspaceContents[] = [];
    for (const entry of own) contents.push(await workspaceContents(gateway, actor, entry));
    const roles = new Map(own.map(({ workspace, role }) => [workspace.id, role]));
    const deleted = (await gateway.workspaces.deleted(actor)).filter((object) => roles.has(object.workspaceId));
    renderPage(ctx, {
      title: 'Workspaces',
      section: 'workspaces',
      body: html`<h1>Workspaces</h1>
        <p class="lead">Creator-flow projects and worlds of this account. MCP clients linked with the workspace scopes plan and edit them; here you read them and restore what was deleted.</p>
        ${await restoredNotice(ctx, gateway, actor)}
        ${contents.length === 0 ? html`<p class="empty">This account has no workspace yet.</p>` : contents.map(workspaceSection)}
        <section aria-labelledby="deleted-heading">
          <h2 id="deleted-heading">Recently deleted</h2>
          <p class="muted">Deleted projects, worlds and assets can be restored by an owner (of the workspace, or of the project) for 7 days, then they are removed for good.</p>
          ${deletedTable(ctx, deleted)}
        </section>`,
    });
  });

  router.post('/console/workspaces/deleted/:type/:id/restore', requireMember('viewer'), async (ctx) => {
    const type = objectTypes.find((each) => each === ctx.params.type);
    if (!type) return renderNotFound(ctx, 'deleted object');
    const actor = actorOf(ctx);
    const id = ctx.params.id!;
    try {
      await gateway.workspaces.restore(actor, type, id);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      if (error.code === 'MG_WORKSPACE_OBJECT_NOT_FOUND') return renderNotFound(ctx, `deleted ${type}`);
      // A viewer's or editor's POST (403), or an asset whose world is still deleted (422).
      if (error.code === 'MG_WORKSPACE_ROLE' || error.code === 'MG_VALIDATION_FAILED') return renderRefusal(ctx, error);
      throw error;
    }
    gateway.log.info({ accountId: actor.accountId, userId: actor.userId, type, id }, 'workspace object restored in the console');
    ctx.status = 303;
    ctx.redirect(`/console/workspaces?restored=${encodeURIComponent(id)}&type=${type}`);
  });
}

async function workspaceContents(gateway: Gateway, actor: WorkspaceActor, entry: { workspace: WorkspaceRecord; role: WorkspaceRole }): Promise<WorkspaceContents> {
  const { projects, worlds } = gateway.workspaces;
  const workspaceId = entry.workspace.id;
  const projectList = await collectPages((cursor) => projects.list(actor, { workspaceId, cursor, limit: maxPageSize }), listCap);
  const worldList = await collectPages((cursor) => worlds.list(actor, { workspaceId, cursor, limit: maxPageSize }), listCap);
  const withCounts = [];
  for (const world of worldList.items) withCounts.push({ world, assetCounts: (await worlds.get(actor, world.id)).assetCounts });
  return { ...entry, projects: projectList, worlds: { items: withCounts, more: worldList.more } };
}

/** The confirmation after a restore's redirect, naming the object as the kernel has it now (never the URL's text). */
async function restoredNotice(ctx: Context, gateway: Gateway, actor: WorkspaceActor) {
  const type = objectTypes.find((each) => each === ctx.query.type);
  const id = ctx.query.restored;
  if (!type || typeof id !== 'string') return '';
  const target = await restoredObject(gateway, actor, type, id);
  if (!target) return '';
  return html`<p class="callout" role="status" data-restored="${id}">The ${type} <a href="${target.href}">“${target.title}”</a> was restored, with everything linked to it.</p>`;
}

async function restoredObject(gateway: Gateway, actor: WorkspaceActor, type: ObjectType, id: string): Promise<{ title: string; href: string } | undefined> {
  const { projects, worlds } = gateway.workspaces;
  try {
    if (type === 'project') return { title: (await projects.get(actor, id)).project.title, href: projectPath(id) };
    if (type === 'world') return { title: (await worlds.get(actor, id)).world.name, href: worldPath(id) };
    const { asset } = await worlds.getAsset(actor, id);
    return { title: asset.name, href: `${worldPath(asset.worldId)}#asset-${asset.id}` };
  } catch (error) {
    // Deleted again since, or never visible: no confirmation to show.
    if (error instanceof ApiError && error.code === 'MG_WORKSPACE_OBJECT_NOT_FOUND') return undefined;
    throw error;
  }
}

function countText(list: { items: unknown[]; more: boolean }, noun: string): string {
  const count = list.items.length;
  return `${count}${list.more ? '+' : ''} ${noun}${count === 1 && !list.more ? '' : 's'}`;
}

function workspaceSection(contents: WorkspaceContents) {
  const { workspace, role, projects, worlds } = contents;
  const worldNames = new Map(worlds.items.map(({ world }) => [world.id, world.name]));
  return html`<section class="card" aria-labelledby="workspace-${workspace.id}" data-workspace-id="${workspace.id}">
    <h2 id="workspace-${workspace.id}">${workspace.name}${workspace.isDefault ? html` <span class="badge">default</span>` : ''}</h2>
    <p class="muted">Your role: ${role} · <span data-count="projects">${countText(projects, 'project')}</span> · <span data-count="worlds">${countText(worlds, 'world')}</span></p>
    <h3>Projects</h3>
    ${projects.items.length === 0 ? html`<p class="empty">No projects.</p>` : html`<table>
      <caption class="visually-hidden">Projects of ${workspace.name}, newest first</caption>
      <thead><tr><th scope="col">Project</th><th scope="col">Status</th><th scope="col" class="number">Steps</th><th scope="col">World</th><th scope="col">Updated</th></tr></thead>
      <tbody>${projects.items.map((project) => html`<tr data-project-id="${project.id}">
        <th scope="row"><a href="${projectPath(project.id)}">${project.title}</a></th>
        <td><span class="badge">${project.status}</span></td>
        <td class="number">${project.steps.length}</td>
        <td>${project.worldId ? html`<a href="${worldPath(project.worldId)}">${worldNames.get(project.worldId) ?? project.worldId}</a>` : html`<span class="muted">—</span>`}</td>
        <td>${timeText(project.updatedAtMs)}</td>
      </tr>`)}</tbody>
    </table>`}
    ${projects.more ? html`<p class="muted">Only the newest ${listCap} projects are listed.</p>` : ''}
    <h3>Worlds</h3>
    ${worlds.items.length === 0 ? html`<p class="empty">No worlds.</p>` : html`<table>
      <caption class="visually-hidden">Worlds of ${workspace.name}, newest first</caption>
      <thead><tr><th scope="col">World</th><th scope="col">Assets</th><th scope="col">Updated</th></tr></thead>
      <tbody>${worlds.items.map(({ world, assetCounts }) => html`<tr data-world-id="${world.id}">
        <th scope="row"><a href="${worldPath(world.id)}">${world.name}</a></th>
        <td>${assetCountsText(assetCounts)}</td>
        <td>${timeText(world.updatedAtMs)}</td>
      </tr>`)}</tbody>
    </table>`}
    ${worlds.more ? html`<p class="muted">Only the newest ${listCap} worlds are listed.</p>` : ''}
  </section>`;
}

/** Only what the kernel says the member may restore is listed, so every row has its button. */
function deletedTable(ctx: Context, deleted: DeletedObject[]) {
  if (deleted.length === 0) return html`<p class="empty">Nothing deleted that you can restore.</p>`;
  return html`<table>
    <caption class="visually-hidden">Deleted objects, most recently deleted first</caption>
    <thead><tr><th scope="col">Deleted object</th><th scope="col">Type</th><th scope="col">Deleted</th><th scope="col">Restorable until</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
    <tbody>${deleted.map((object) => html`<tr data-deleted-id="${object.id}">
      <th scope="row" id="deleted-${object.id}">${object.title}</th>
      <td>${object.type}</td>
      <td>${timeText(object.deletedAtMs)}</td>
      <td>${timeText(object.restorableUntilMs)}</td>
      <td>${actionButton(ctx, restorePath(object), 'Restore', { describedBy: `deleted-${object.id}` })}</td>
    </tr>`)}</tbody>
  </table>`;
}
