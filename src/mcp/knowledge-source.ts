/**
 * The knowledge registry as the MCP routes see it: the gateway's one shared registry (`knowledgeFor`, also
 * used by the docs pages), whose build starts as soon as the routes are mounted. Tool calls and the metadata
 * endpoints wait for it; a failed build is logged once and makes `/mcp/health` answer 503.
 */
import type { Gateway } from '../kernel/gateway.js';
import { knowledgeFor } from './knowledge/index.js';
import type { KnowledgeRegistry } from './knowledge/knowledge-registry.js';

export type KnowledgeSource = () => Promise<KnowledgeRegistry>;

export function startBuildingKnowledge(gateway: Gateway): KnowledgeSource {
  const building = knowledgeFor(gateway);
  // Handled here once, so a failure is reported at start even if nothing ever calls a tool.
  building.catch((error: unknown) => gateway.log.error({ err: error }, 'the MCP knowledge registry could not be built; the public MCP tools will fail'));
  return () => knowledgeFor(gateway);
}
