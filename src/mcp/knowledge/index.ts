/**
 * The knowledge registry of a running gateway, built once and shared by the MCP tools and the docs pages.
 * Await it before listening so that a bad knowledge file or a foreign checkout link stops the start.
 */
import type { Gateway } from '../../kernel/gateway.js';
import { buildKnowledgeRegistry } from './build-knowledge.js';
import type { KnowledgeRegistry } from './knowledge-registry.js';

const built = new WeakMap<Gateway, Promise<KnowledgeRegistry>>();

export function knowledgeFor(gateway: Gateway): Promise<KnowledgeRegistry> {
  let registry = built.get(gateway);
  if (!registry) {
    registry = buildKnowledgeRegistry({ gateway, publicUrl: gateway.settings.server.public_url });
    built.set(gateway, registry);
  }
  return registry;
}

export { buildKnowledgeRegistry } from './build-knowledge.js';
export { recordPath } from './record-urls.js';
export type { KnowledgeKind, KnowledgeRecord, KnowledgeRegistry, KnowledgeSearchResult } from './knowledge-registry.js';
export { knowledgeKinds } from './knowledge-registry.js';
