/**
 * One world, read-only: its assets by kind (characters, objects, locations, zones), each with its reference
 * media and the generated artifacts linked to it, and what was generated for the world itself. Members of its
 * workspace's account read it; anyone else gets the same 404 as for an unknown id.
 */
import type { Router } from '@koa/router';
import type { Gateway } from '../../../kernel/gateway.js';
import { assetKinds, maxPageSize, type ArtifactLink, type AssetKind, type AssetRecord } from '../../../kernel/workspaces/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { requireMember } from '../require-member.js';
import { timeText } from './page-kit.js';
import { actorOf, assetCountsText, collectPages, linkedRequests, mediaList, readOrNotFound } from './workspace-page-kit.js';

/** Each kind lists at most this many assets; past it the page says the list goes on. */
const assetsPerKind = 500;

const kindHeadings: Record<AssetKind, string> = { character: 'Characters', object: 'Objects', location: 'Locations', zone: 'Zones' };

export function addWorldPage(router: Router, gateway: Gateway): void {
  router.get('/console/workspaces/worlds/:worldId', requireMember('viewer'), async (ctx) => {
    const actor = actorOf(ctx);
    const { worlds, store } = gateway.workspaces;
    const view = await readOrNotFound(ctx, 'world', () => worlds.get(actor, ctx.params.worldId!));
    if (!view) return;
    const { world, role, assetCounts, links } = view;
    const byKind = new Map<AssetKind, { items: AssetRecord[]; more: boolean }>();
    for (const kind of assetKinds) {
      byKind.set(kind, await collectPages((cursor) => worlds.listAssets(actor, { worldId: world.id, kind, cursor, limit: maxPageSize }), assetsPerKind));
    }
    const assets = [...byKind.values()].flatMap((list) => list.items);
    // One query for every asset's links: the reader's access to each asset was settled by listing them above.
    const assetLinks = await store.linksOfTargets(assets.map((asset) => asset.id));
    const locationNames = new Map((byKind.get('location')?.items ?? []).map((asset) => [asset.id, asset.name]));
    const publicUrl = gateway.settings.server.public_url;
    renderPage(ctx, {
      title: `World ${world.name}`,
      section: 'workspaces',
      body: html`<p><a href="/console/workspaces">← Workspaces</a></p>
        <h1>World “${world.name}”</h1>
        <dl class="facts">
          <dt>Assets</dt><dd>${assetCountsText(assetCounts)}</dd>
          <dt>Your role</dt><dd>${role}</dd>
          <dt>Created</dt><dd>${timeText(world.createdAtMs)}</dd>
          <dt>Updated</dt><dd>${timeText(world.updatedAtMs)}</dd>
        </dl>
        ${world.description ? html`<h2>Description</h2><p class="description">${world.description}</p>` : ''}
        <h2>Generated for the whole world</h2>
        ${linkedRequests(links, publicUrl, `world “${world.name}”`, 'Nothing generated for the world as a whole yet.')}
        ${assetKinds.map((kind) => {
          const list = byKind.get(kind)!;
          return html`<section aria-labelledby="kind-${kind}" data-kind="${kind}">
            <h2 id="kind-${kind}">${kindHeadings[kind]} (${list.items.length}${list.more ? '+' : ''})</h2>
            ${list.items.length === 0
              ? html`<p class="empty">No ${kindHeadings[kind].toLowerCase()}.</p>`
              : list.items.map((asset) => assetCard(asset, assetLinks.filter((link) => link.targetId === asset.id), locationNames, publicUrl))}
            ${list.more ? html`<p class="muted">Only the newest ${assetsPerKind} are listed.</p>` : ''}
          </section>`;
        })}`,
    });
  });
}

function assetCard(asset: AssetRecord, links: ArtifactLink[], locationNames: Map<string, string>, publicUrl: string) {
  const location = asset.locationId ? locationNames.get(asset.locationId) : undefined;
  return html`<article class="card" id="asset-${asset.id}" data-asset-id="${asset.id}" aria-labelledby="asset-${asset.id}-name">
    <h3 id="asset-${asset.id}-name">${asset.name}</h3>
    ${location !== undefined ? html`<p class="muted">A zone of <a href="#asset-${asset.locationId!}">${location}</a></p>` : ''}
    ${asset.description ? html`<p class="description">${asset.description}</p>` : ''}
    <h4>Reference media</h4>
    ${mediaList(asset.referenceMedia, publicUrl, `reference of ${asset.kind} “${asset.name}”`)}
    <h4>Generated and linked</h4>
    ${linkedRequests(links, publicUrl, `${asset.kind} “${asset.name}”`, 'Nothing generated and linked yet.')}
  </article>`;
}
