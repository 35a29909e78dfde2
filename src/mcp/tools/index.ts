/** Every MCP tool the server offers, in the order `tools/list` shows them. */
import { accountTools } from './account/index.js';
import type { McpTool } from './mcp-tool.js';
import { publicTools } from './public/index.js';

export const allTools: readonly McpTool[] = [...publicTools, ...accountTools];
export { defineTool, ToolError, type McpCallContext, type McpTool, type ToolAccess } from './mcp-tool.js';
