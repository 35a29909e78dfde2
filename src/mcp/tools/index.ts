/** Every MCP tool the server offers, in the order `tools/list` shows them. */
import { accountTools } from './account/index.js';
import type { McpTool } from './mcp-tool.js';
import { publicTools } from './public/index.js';
import { workspaceTools } from './workspace/index.js';

export const allTools: readonly McpTool[] = [...publicTools, ...accountTools, ...workspaceTools];
export { defineTool, scopeOfCall, ToolError, type McpCallContext, type McpTool, type ToolAccess, type ToolScope } from './mcp-tool.js';
