/** The 4 account tools (spec, "Authenticated tools"): the REST API's create, estimate, poll and status. */
import type { McpTool } from '../mcp-tool.js';
import { apiStatusTool } from './api-status-tool.js';
import { createRequestTool } from './create-request-tool.js';
import { estimateCostTool } from './estimate-cost-tool.js';
import { getRequestTool } from './get-request-tool.js';

export const accountTools: McpTool[] = [apiStatusTool, estimateCostTool, createRequestTool, getRequestTool];
