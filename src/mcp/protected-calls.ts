/**
 * Which tools a JSON-RPC body calls that need credentials. Read before the transport runs, so that such a call
 * without credentials is an HTTP 401 challenge (what makes clients start authorization), never a 200 tool error.
 */
import type { McpTool, ToolAccess } from './tools/index.js';

/** Names of the non-public tools a single message or a batch calls; unknown tool names are the SDK's to refuse. */
export function protectedToolCalls(body: unknown, accessByName: ReadonlyMap<string, ToolAccess>): string[] {
  const messages = Array.isArray(body) ? body : [body];
  const called: string[] = [];
  for (const message of messages) {
    const name = calledToolName(message);
    if (name !== undefined && (accessByName.get(name) ?? 'public') !== 'public') called.push(name);
  }
  return called;
}

export function toolAccessByName(tools: readonly McpTool[]): ReadonlyMap<string, ToolAccess> {
  return new Map(tools.map((tool) => [tool.name, tool.access]));
}

function calledToolName(message: unknown): string | undefined {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return undefined;
  return typeof message.params.name === 'string' ? message.params.name : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
