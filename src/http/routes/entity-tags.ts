/**
 * Entity tags of the request endpoints (RFC 9110 §8.8.3): a request's state tag (kernel request-state-tag.ts) sent
 * as a weak `ETag`, and `If-None-Match` read with the weak comparison that RFC 9110 §13.1.2 prescribes for it.
 */

/** `W/"<tag>"`: weak, because one state may be answered with slightly different bytes. */
export function weakEntityTag(tag: string): string {
  return `W/"${tag}"`;
}

/** Whether an `If-None-Match` field value names `tag` (`W/` ignored, as weak comparison does), or is `*`. */
export function ifNoneMatchNames(field: string, tag: string): boolean {
  if (field.trim() === '*') return true;
  for (const match of field.matchAll(/(?:W\/)?"([^"]*)"/g)) if (match[1] === tag) return true;
  return false;
}
