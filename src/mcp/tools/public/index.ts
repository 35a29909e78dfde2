/** The 11 public, read-only tools (spec, "Public read-only tools"). */
import type { McpTool } from '../mcp-tool.js';
import { getModelAvailabilityTool } from './availability-tool.js';
import { getApiOperationTool, listCapabilitiesTool } from './capability-tools.js';
import { getCheckoutLinkTool, listOfferingsTool } from './offering-tools.js';
import { compareAlternativesTool, recommendWorkflowTool } from './planning-tools.js';
import { getPricingContextTool } from './pricing-tool.js';
import { fetchTool, searchTool } from './search-tools.js';
import { listToolkitsTool } from './toolkits-tool.js';

export const publicTools: McpTool[] = [
  searchTool,
  fetchTool,
  listCapabilitiesTool,
  recommendWorkflowTool,
  compareAlternativesTool,
  getPricingContextTool,
  listOfferingsTool,
  getCheckoutLinkTool,
  getModelAvailabilityTool,
  listToolkitsTool,
  getApiOperationTool,
];
