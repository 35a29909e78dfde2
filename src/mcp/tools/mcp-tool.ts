/**
 * An MCP tool as data: name, texts written for a model, zod input and output shapes, who may call it, and a
 * handler over the kernel. The server registers every tool from these records, the HTTP layer reads `access`
 * to challenge unauthenticated calls before the transport runs, and `docs/mcp.md` is checked against them.
 */
import type { ContentBlock, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod/v4';
import type { Gateway } from '../../kernel/gateway.js';
import type { KnowledgeRegistry } from '../knowledge/knowledge-registry.js';
import type { Principal } from '../principal.js';

/** `public`: anyone; `account`: an API key or OAuth token of the account; `workspace`: OAuth with workspace scopes. */
export type ToolAccess = 'public' | 'account' | 'workspace';

export interface McpCallContext {
  gateway: Gateway;
  knowledge: KnowledgeRegistry;
  /** Base of every absolute URL a tool hands out (`server.public_url`). */
  publicUrl: string;
  /** Present when the call carried valid credentials; `account` tools always get one (the HTTP layer checks). */
  principal?: Principal;
}

export interface McpTool<Input extends z.ZodRawShape = z.ZodRawShape, Output extends z.ZodRawShape = z.ZodRawShape> {
  name: string;
  title: string;
  /** Written for a model: what the tool is for, when to use it, what it never does. */
  description: string;
  access: ToolAccess;
  /**
   * The scope a credential needs for this tool. An OAuth token without it is refused at the HTTP layer with 403
   * `insufficient_scope` naming it (so the client can ask the user for more); an API key gets a tool error.
   */
  scope?: ToolScope;
  inputSchema: Input;
  outputSchema: Output;
  annotations?: ToolAnnotations;
  /**
   * Returns the structured result (validated against `outputSchema` by the SDK and also sent as one JSON text
   * item). Throw a `ToolError` for an answer the model should read as a failed call (e.g. a validation error).
   */
  handler(args: z.infer<z.ZodObject<Input>>, context: McpCallContext): Promise<z.infer<z.ZodObject<Output>>>;
  /**
   * Content items sent after the JSON text of the result (e.g. an embedded HTML resource); the structured
   * result stays the machine-readable answer.
   */
  extraContent?(result: z.infer<z.ZodObject<Output>>, context: McpCallContext): ContentBlock[];
}

/**
 * A fixed scope, or one that depends on the call's arguments (a delete previews with `workspace:read` and runs
 * with `workspace:write`): read from the raw arguments before validation, so it must not trust their shape.
 */
export type ToolScope = string | ((args: Record<string, unknown>) => string);

export function scopeOfCall(scope: ToolScope | undefined, args: unknown): string | undefined {
  if (typeof scope !== 'function') return scope;
  return scope(typeof args === 'object' && args !== null && !Array.isArray(args) ? (args as Record<string, unknown>) : {});
}

/** A failed tool call the model should see (`isError: true`), with a stable code like the REST API's. */
export class ToolError extends Error {
  override readonly name = 'ToolError';
  constructor(
    readonly code: string,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** Keeps each tool's own input/output types while collecting tools of different shapes in one list. */
export function defineTool<Input extends z.ZodRawShape, Output extends z.ZodRawShape>(tool: McpTool<Input, Output>): McpTool {
  return tool as unknown as McpTool;
}
