/** The 4 account tools (spec, "Authenticated tools"): the REST API's create, estimate, poll and status. */
import type { McpTool } from '../mcp-tool.js';

export const accountTools: McpTool[] = [];
