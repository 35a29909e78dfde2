/**
 * The knowledge registry over MiniSearch: records held by id, full-text search over title, tags and text with
 * title matches weighted highest, prefix and fuzzy matching for typos and partial words, and small pages
 * with an opaque cursor. Built once at start; searching never mutates it.
 */
import MiniSearch from 'minisearch';
import type { KnowledgeKind, KnowledgeRecord, KnowledgeRegistry, KnowledgeSearchResult } from './knowledge-registry.js';

/** Results per page: enough for a model to pick from, small enough to keep the tool result short. */
export const searchPageSize = 8;
const maxPageSize = 25;

export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
  constructor() {
    super('cursor is not one this search returned: repeat the search without a cursor');
  }
}

interface IndexedRecord {
  id: string;
  kind: KnowledgeKind;
  title: string;
  tags: string;
  text: string;
}

export class SearchableKnowledgeRegistry implements KnowledgeRegistry {
  private readonly byId = new Map<string, KnowledgeRecord>();
  private readonly index = new MiniSearch<IndexedRecord>({
    fields: ['title', 'tags', 'text'],
    storeFields: ['kind'],
    searchOptions: {
      boost: { title: 3, tags: 2, text: 1 },
      // Prefix matching helps words typed in part ("narr"); fuzzy matching forgives typos in longer words.
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
      combineWith: 'OR',
    },
  });

  constructor(records: readonly KnowledgeRecord[]) {
    for (const record of records) {
      if (this.byId.has(record.id)) throw new Error(`knowledge record ${record.id} is defined twice`);
      this.byId.set(record.id, record);
    }
    this.index.addAll(records.map((record) => ({ id: record.id, kind: record.kind, title: record.title, tags: tagsOf(record).join(' '), text: record.text })));
  }

  get size(): number {
    return this.byId.size;
  }

  get(id: string): KnowledgeRecord | undefined {
    return this.byId.get(id);
  }

  all(kind?: KnowledgeKind): KnowledgeRecord[] {
    return [...this.byId.values()].filter((record) => kind === undefined || record.kind === kind);
  }

  search(query: string, options: { kinds?: KnowledgeKind[]; limit?: number; cursor?: string } = {}): KnowledgeSearchResult {
    const limit = Math.min(Math.max(1, options.limit ?? searchPageSize), maxPageSize);
    const offset = options.cursor === undefined ? 0 : decodeCursor(options.cursor);
    const kinds = options.kinds?.length ? new Set(options.kinds) : undefined;
    const hits = this.index.search(withJoinedWords(query), { filter: kinds ? (hit) => kinds.has(hit.kind as KnowledgeKind) : undefined });
    const page = hits.slice(offset, offset + limit).map((hit) => this.byId.get(hit.id as string)!);
    const next = offset + limit;
    return next < hits.length ? { results: page, nextCursor: encodeCursor(next) } : { results: page };
  }
}

/** "lip sync" also searches "lipsync": names in our sources join words that people type apart. */
function withJoinedWords(query: string): string {
  const words = query.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const joined = words.slice(1).map((word, index) => words[index] + word);
  return [...words, ...joined].join(' ');
}

function tagsOf(record: KnowledgeRecord): string[] {
  const tags = record.metadata.tags;
  return Array.isArray(tags) ? tags.map(String) : [];
}

// The cursor is an offset into the ranked hits; encoding it keeps clients from building their own.
function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ o: offset })).toString('base64url');
}

function decodeCursor(cursor: string): number {
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    if (typeof o === 'number' && Number.isInteger(o) && o >= 0) return o;
  } catch {
    // falls through to the error below
  }
  throw new InvalidCursorError();
}
