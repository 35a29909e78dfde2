/**
 * Previews of the files a request's output hosts here: every string in the output that is a URL under this
 * gateway's `/files/`, shown as an image, a playable video or audio element, or a link for other media (3D
 * models, subtitles). Vendor URLs are never embedded: the console only loads files the gateway serves itself.
 */
import { contentTypeForKey } from '../../../kernel/blobs/content-types.js';
import type { JsonObject, JsonValue } from '../../../kernel/plugin-sdk/index.js';
import { html } from '../html.js';

export interface HostedMedia {
  url: string;
  kind: 'image' | 'video' | 'audio' | 'other';
  contentType: string;
}

export function hostedMedia(output: JsonObject | null, publicUrl: string): HostedMedia[] {
  const prefix = `${publicUrl.replace(/\/+$/, '')}/files/`;
  const urls = new Set<string>();
  const visit = (value: JsonValue | undefined): void => {
    if (typeof value === 'string' && value.startsWith(prefix) && !value.includes('..')) urls.add(value);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(output ?? undefined);
  return [...urls].map((url) => {
    const contentType = contentTypeForKey(new URL(url).pathname);
    const family = contentType.split('/')[0];
    const kind = family === 'image' || family === 'video' || family === 'audio' ? family : 'other';
    return { url, kind, contentType };
  });
}

/** `subject` describes what was generated (the prompt, when there is one) for alt text and captions. */
export function mediaPreviews(media: HostedMedia[], subject: string) {
  return html`<div class="previews">${media.map((item, index) => {
    const label = `${item.kind === 'other' ? 'File' : capitalised(item.kind)} ${index + 1} of ${media.length}: ${subject}`;
    const element =
      item.kind === 'image'
        ? html`<img src="${item.url}" alt="${label}" loading="lazy">`
        : item.kind === 'video'
          ? html`<video controls preload="metadata" src="${item.url}" aria-label="${label}"></video>`
          : item.kind === 'audio'
            ? html`<audio controls preload="metadata" src="${item.url}" aria-label="${label}"></audio>`
            : html`<a href="${item.url}">Download ${new URL(item.url).pathname.split('/').pop()}</a>`;
    return html`<figure class="preview preview-${item.kind}">${element}<figcaption>${label} <a href="${item.url}">open</a> <span class="muted">${item.contentType}</span></figcaption></figure>`;
  })}</div>`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
