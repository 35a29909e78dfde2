/**
 * One `McpServer` per POST (stateless transport: the SDK refuses to reuse one), with every tool of the list
 * registered from its record. A tool's result goes out as `structuredContent` plus the same JSON as one text
 * item (older clients read only `content`); a `ToolError` or a kernel `ApiError` becomes an `isError` result
 * with its stable code; anything else is a defect: logged, and answered with a message that leaks nothing.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from 'pino';
import { ApiError } from '../kernel/errors/index.js';
import type { Gateway } from '../kernel/gateway.js';
import type { KnowledgeSource } from './knowledge-source.js';
import type { Principal } from './principal.js';
import type { ServerIdentity } from './server-identity.js';
import { ToolError, type McpCallContext, type McpTool } from './tools/index.js';

export interface ToolCallEnvironment {
  gateway: Gateway;
  knowledge: KnowledgeSource;
  identity: ServerIdentity;
  /** The caller, when the request carried valid credentials. */
  principal?: Principal;
}

export function createMcpServer(tools: readonly McpTool[], environment: ToolCallEnvironment): McpServer {
  const { identity } = environment;
  const server = new McpServer({ name: identity.name, version: identity.version }, { capabilities: { tools: {} } });
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations },
      // The SDK has validated the arguments against the tool's own input shape before this runs.
      (args: unknown) => callTool(tool, args as Parameters<McpTool['handler']>[0], environment),
    );
  }
  return server;
}

async function callTool(tool: McpTool, args: Parameters<McpTool['handler']>[0], environment: ToolCallEnvironment): Promise<CallToolResult> {
  const { gateway } = environment;
  const count = (outcome: string) => gateway.metrics.mcpToolCalls.inc({ tool: tool.name, outcome });
  try {
    const context: McpCallContext = { gateway, knowledge: await environment.knowledge(), publicUrl: environment.identity.publicUrl, principal: environment.principal };
    const structuredContent = await tool.handler(args, context);
    count('ok');
    const extra = tool.extraContent?.(structuredContent, context) ?? [];
    return { structuredContent, content: [{ type: 'text', text: JSON.stringify(structuredContent) }, ...extra] };
  } catch (error) {
    const failure = toolFailure(error, tool.name, gateway.log);
    count(failure.code === 'MG_INTERNAL' ? 'internal_error' : 'tool_error');
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(failure) }] };
  }
}

/** `{code, message, ...details}`: the same stable codes as the REST API's problem documents. */
function toolFailure(error: unknown, toolName: string, log: Logger): { code: string; message: string } & Record<string, unknown> {
  if (error instanceof ToolError) return { code: error.code, message: error.message, ...error.details };
  if (error instanceof ApiError) return { code: error.code, message: error.detail ?? error.message, ...(error.extras.errors ? { errors: error.extras.errors } : {}) };
  log.error({ err: error, tool: toolName }, 'MCP tool failed');
  return { code: 'MG_INTERNAL', message: 'the tool failed unexpectedly; the details are in the server log' };
}
