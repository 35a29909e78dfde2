/** Counts `/mcp` JSON-RPC messages by method; only MCP's own method names become labels (clients pick the rest). */
import type { GatewayMetrics } from '../kernel/observability/metrics.js';

const knownMethods = new Set(['initialize', 'notifications/initialized', 'ping', 'tools/list', 'tools/call', 'resources/list', 'prompts/list', 'notifications/cancelled']);

export function countMessages(body: unknown, metrics: GatewayMetrics): void {
  for (const message of Array.isArray(body) ? body : [body]) {
    const method = typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
    metrics.mcpMessages.inc({ method: typeof method === 'string' && knownMethods.has(method) ? method : 'other' });
  }
}
