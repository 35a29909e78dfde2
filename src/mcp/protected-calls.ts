/**
 * Which tools a JSON-RPC body calls that need credentials. Read before the transport runs, so that such a call
 * without credentials is an HTTP 401 challenge (what makes clients start authorization), never a 200 tool error.
 */
import { scopeOfCall, type McpTool, type ToolAccess, type ToolScope } from './tools/index.js';

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

/** The scopes the called tools need that `granted` lacks, each once, in the tools' order. */
export function missingScopes(body: unknown, scopeByName: ReadonlyMap<string, ToolScope | undefined>, granted: readonly string[]): { scopes: string[]; tools: string[] } {
  const messages = Array.isArray(body) ? body : [body];
  const scopes = new Set<string>();
  const tools: string[] = [];
  for (const message of messages) {
    const name = calledToolName(message);
    const scope = name === undefined ? undefined : scopeOfCall(scopeByName.get(name), calledArguments(message));
    if (name !== undefined && scope !== undefined && !granted.includes(scope)) {
      scopes.add(scope);
      tools.push(name);
    }
  }
  return { scopes: [...scopes], tools };
}

export function toolScopeByName(tools: readonly McpTool[]): ReadonlyMap<string, ToolScope | undefined> {
  return new Map(tools.map((tool) => [tool.name, tool.scope]));
}

export function toolAccessByName(tools: readonly McpTool[]): ReadonlyMap<string, ToolAccess> {
  return new Map(tools.map((tool) => [tool.name, tool.access]));
}

function calledToolName(message: unknown): string | undefined {
  if (!isRecord(message) || message.method !== 'tools/call' || !isRecord(message.params)) return undefined;
  return typeof message.params.name === 'string' ? message.params.name : undefined;
}

function calledArguments(message: unknown): unknown {
  return isRecord(message) && isRecord(message.params) ? message.params.arguments : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
