/** The 11 public, read-only tools (spec, "Public read-only tools"). */
import type { McpTool } from '../mcp-tool.js';

export const publicTools: McpTool[] = [];
