/**
 * Builds the knowledge registry at start from the project's own sources (see knowledge-registry.ts).
 */
import type { Gateway } from '../../kernel/gateway.js';
import type { KnowledgeRegistry } from './knowledge-registry.js';

export async function buildKnowledgeRegistry(_deps: { gateway: Gateway; publicUrl: string }): Promise<KnowledgeRegistry> {
  throw new Error('the knowledge registry is being built in this change');
}
