/** Cursor paging for the workspace lists: newest first, a cursor is the last id of the page before (opaque to clients). */
import { invalid } from './workspace-inputs.js';
import type { ListWindow } from './workspace-store.js';
import type { Page } from './workspace-records.js';

export const defaultPageSize = 20;
export const maxPageSize = 100;

export interface PageRequest {
  cursor?: string;
  limit?: number;
}

export function windowOf(request: PageRequest): ListWindow {
  const limit = request.limit ?? defaultPageSize;
  if (!Number.isInteger(limit) || limit < 1 || limit > maxPageSize) throw invalid('/limit', `must be an integer from 1 to ${maxPageSize}`);
  let beforeId: string | undefined;
  if (request.cursor !== undefined) {
    beforeId = Buffer.from(request.cursor, 'base64url').toString('utf8');
    if (!/^[a-z]+_[0-9a-z]{25}$/.test(beforeId)) throw invalid('/cursor', 'is not a cursor this list returned');
  }
  // One more than asked: whether it comes back says if there is a next page.
  return { beforeId, limit: limit + 1 };
}

export function pageOf<T extends { id: string }>(rows: T[], window: ListWindow): Page<T> {
  const items = rows.slice(0, window.limit - 1);
  const more = rows.length >= window.limit;
  return more ? { items, nextCursor: Buffer.from(items[items.length - 1]!.id, 'utf8').toString('base64url') } : { items };
}
