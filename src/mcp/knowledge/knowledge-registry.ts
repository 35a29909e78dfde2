/**
 * The contract of the knowledge registry the public MCP tools answer from. The implementation (built at start
 * from the manifests, the plugin registry, docs/ and the knowledge/ folder, searched with MiniSearch) lives
 * beside this file.
 */
export const knowledgeKinds = ['operation', 'model', 'decision', 'error', 'guide', 'workflow', 'offering', 'toolkit'] as const;
export type KnowledgeKind = (typeof knowledgeKinds)[number];

export interface KnowledgeRecord {
  /** Stable, URL-safe, unique: e.g. `operation:image.generate`, `model:image.generate/nano-banana-pro`. */
  id: string;
  kind: KnowledgeKind;
  title: string;
  /** Absolute URL of a page the gateway serves for this record (`{public_url}/docs/...`). */
  url: string;
  /** Plain text or Markdown: what `fetch` returns and what search indexes. */
  text: string;
  metadata: Record<string, unknown>;
}

export interface KnowledgeSearchResult {
  results: KnowledgeRecord[];
  /** Opaque; present when more results follow. */
  nextCursor?: string;
}

export interface KnowledgeRegistry {
  readonly size: number;
  get(id: string): KnowledgeRecord | undefined;
  search(query: string, options?: { kinds?: KnowledgeKind[]; limit?: number; cursor?: string }): KnowledgeSearchResult;
  all(kind?: KnowledgeKind): KnowledgeRecord[];
}
