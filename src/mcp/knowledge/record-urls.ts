/**
 * Where each knowledge record is published: `{public_url}/docs/<kind>/<slug>`, a page the docs route renders
 * from the same record. The id is `<kind>:<slug>`, so the URL is derived from the id and never stored twice.
 */
import type { KnowledgeKind } from './knowledge-registry.js';

export function recordId(kind: KnowledgeKind, slug: string): string {
  return `${kind}:${slug}`;
}

/** The path of a record's page; every slug segment is escaped, `/` inside a slug keeps its meaning. */
export function recordPath(id: string): string {
  const separator = id.indexOf(':');
  const kind = id.slice(0, separator);
  const slug = id.slice(separator + 1);
  return `/docs/${encodeURIComponent(kind)}/${slug.split('/').map(encodeURIComponent).join('/')}`;
}

export function recordUrl(publicUrl: string, id: string): string {
  return publicUrl + recordPath(id);
}

/** A heading or a bold lead-in as a URL-safe slug: `Broker outages` -> `broker-outages`. */
export function slugify(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[`*_]/g, '')
      .replace(/[^a-z0-9.]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}
