/**
 * Hosted files at `/files/<key>`: correct Content-Type and Content-Length, single byte ranges (206/416)
 * so players can seek. Keys are unguessable per-request paths, so files need no API key, like a CDN URL.
 */
import type { Router } from '@koa/router';
import type { Context } from 'koa';
import type { BlobStore } from '../../kernel/blobs/index.js';
import { ApiError } from '../../kernel/errors/index.js';
import type { Gateway } from '../../kernel/gateway.js';

export function addFilesRoute(router: Router, gateway: Gateway): void {
  router.get('/files/*key', async (ctx) => {
    // path-to-regexp 8 hands a wildcard over as its segments.
    const raw = ctx.params.key as unknown;
    const key = Array.isArray(raw) ? raw.join('/') : String(raw);
    await sendBlob(ctx, gateway.blobs, key, 'public, max-age=604800, immutable');
  });
}

/** Answers GET or HEAD with the stored file `key` (404 when there is none), honouring a single byte range. */
export async function sendBlob(ctx: Context, blobs: BlobStore, key: string, cacheControl: string): Promise<void> {
  const info = key.includes('..') ? undefined : await blobs.stat(key);
  if (!info) throw new ApiError('MG_NOT_FOUND', `no file ${key}`);
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', cacheControl);
  const range = parseRange(ctx.get('range'), info.size);
  if (range === 'unsatisfiable') {
    ctx.set('Content-Range', `bytes */${info.size}`);
    throw new ApiError('MG_RANGE_NOT_SATISFIABLE', `the file has ${info.size} bytes`, { headers: { 'Content-Range': `bytes */${info.size}` } });
  }
  const length = range ? range.end - range.start + 1 : info.size;
  // HEAD gets the headers only; Koa clears type and length when the body is emptied, so set them after.
  ctx.body = ctx.method === 'HEAD' ? null : await blobs.read(key, range ?? undefined);
  ctx.status = range ? 206 : 200;
  if (range) ctx.set('Content-Range', `bytes ${range.start}-${range.end}/${info.size}`);
  ctx.type = info.contentType;
  ctx.length = length;
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; multi-range requests get the whole file (RFC 9110 allows it). */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, first, last] = match;
  if (first === '' && last === '') return null;
  let start: number;
  let end: number;
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(first);
    end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
