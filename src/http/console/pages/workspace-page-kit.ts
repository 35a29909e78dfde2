/**
 * What the workspace pages share: the member as the kernel's workspace actor, the kernel's refusals as console
 * pages (a 404 for what the member cannot see, a page naming the reason for a 403 or 422), whole lists read
 * page by page, and how the media of a workspace object are shown.
 */
import type { Context } from 'koa';
import { ApiError } from '../../../kernel/errors/index.js';
import { assetKinds, type ArtifactLink, type AssetKind, type Page, type WorkspaceActor } from '../../../kernel/workspaces/index.js';
import { html } from '../html.js';
import { renderPage } from '../layout.js';
import { hostedMedia } from './media-previews.js';
import { memberOf, renderNotFound, timeText } from './page-kit.js';

/** The signed-in member acting in the account the session is in (the account switcher picks it). */
export function actorOf(ctx: Context): WorkspaceActor {
  const member = memberOf(ctx);
  return { userId: member.userId, accountId: member.accountId };
}

export function projectPath(id: string): string {
  return `/console/workspaces/projects/${encodeURIComponent(id)}`;
}

export function worldPath(id: string): string {
  return `/console/workspaces/worlds/${encodeURIComponent(id)}`;
}

/** "2 characters, 1 location": a world's assets in a few words. */
export function assetCountsText(counts: Partial<Record<AssetKind, number>>): string {
  const parts = assetKinds.filter((kind) => (counts[kind] ?? 0) > 0).map((kind) => `${counts[kind]} ${kind}${counts[kind] === 1 ? '' : 's'}`);
  return parts.length === 0 ? 'no assets' : parts.join(', ');
}

/**
 * Runs a kernel read of one object; when the kernel says the member cannot see it (or it does not exist: the
 * kernel answers both the same way), the 404 page is rendered and the result is undefined.
 */
export async function readOrNotFound<T>(ctx: Context, what: string, read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MG_WORKSPACE_OBJECT_NOT_FOUND') {
      renderNotFound(ctx, what);
      return undefined;
    }
    throw error;
  }
}

/** A refusal of the kernel (403 role, 409, 422) as a page with its stable code and reason, and a way back. */
export function renderRefusal(ctx: Context, error: ApiError): void {
  ctx.status = error.status;
  renderPage(ctx, {
    title: error.status === 403 ? 'Not allowed' : 'Not done',
    section: 'workspaces',
    body: html`<h1>${error.status === 403 ? 'Not allowed' : 'Not done'}</h1>
      <p class="error" role="alert" data-code="${error.code}">${error.detail ?? error.message}</p>
      <p><a href="/console/workspaces">Back to workspaces</a></p>`,
  });
  ctx.status = error.status;
}

/**
 * Every item of a kernel list, following `nextCursor`, up to `cap` items; `more` says the cap cut it short. The
 * kernel pages by at most 100, and the console shows a whole workspace or world on one page.
 */
export async function collectPages<T>(readPage: (cursor: string | undefined) => Promise<Page<T>>, cap: number): Promise<{ items: T[]; more: boolean }> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await readPage(cursor);
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== undefined && items.length < cap);
  return { items: items.slice(0, cap), more: cursor !== undefined || items.length > cap };
}

/**
 * Media URLs of a workspace object. Files this gateway hosts are shown: images as thumbnails (opening the
 * file), other media as links naming the file and its type. Any other URL (reference media are the client's
 * own URLs) is only a link: the console never loads third-party content into a member's browser, as the
 * request pages do not (media-previews.ts).
 */
export function mediaList(urls: readonly string[], publicUrl: string, subject: string) {
  if (urls.length === 0) return html`<p class="empty">None.</p>`;
  return html`<div class="previews media-list">${urls.map((url, index) => {
    const hosted = hostedMedia({ url }, publicUrl)[0];
    const label = urls.length > 1 ? `${subject}, ${index + 1} of ${urls.length}` : subject;
    if (hosted?.kind === 'image') {
      return html`<a href="${hosted.url}"><img src="${hosted.url}" alt="${label}" width="160" loading="lazy"></a>`;
    }
    if (hosted) {
      return html`<span><a href="${hosted.url}">${new URL(hosted.url).pathname.split('/').pop()}</a> <span class="muted">${hosted.contentType}</span></span>`;
    }
    // A vendor's own output URL may be anything; only http(s) becomes a link, so no other scheme is one click away.
    if (!/^https?:\/\//i.test(url)) return html`<span class="url">${url}</span>`;
    return html`<span><a href="${url}" rel="noopener noreferrer nofollow" class="url">${url}</a> <span class="muted">(not hosted here)</span></span>`;
  })}</div>`;
}

/**
 * The generation requests linked to an object, each with its operation, time and media by output field
 * (`model_url`, `preview_image_urls`, ...); `none` is what to say when there are none.
 */
export function linkedRequests(links: readonly ArtifactLink[], publicUrl: string, subject: string, none: string) {
  if (links.length === 0) return html`<p class="empty">${none}</p>`;
  return html`<div class="linked-requests">${links.map((link) => html`<div class="linked-request" data-request-id="${link.requestId}">
    <p><a href="/console/requests/${encodeURIComponent(link.requestId)}"><code>${link.requestId}</code></a> · ${link.operation} · linked ${timeText(link.createdAtMs)}</p>
    <dl class="facts artifacts">${Object.entries(link.artifacts).map(([field, value]) => html`<dt><code>${field}</code></dt>
      <dd>${mediaList(Array.isArray(value) ? value : [value], publicUrl, `${field} of ${link.operation} for ${subject}`)}</dd>`)}</dl>
  </div>`)}</div>`;
}
