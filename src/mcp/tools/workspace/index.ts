/**
 * The 16 workspace tools (spec, "MCP server endpoints"): creator-flow projects, worlds and world assets, for an
 * OAuth client acting as its signed-in user. Reads need `workspace:read`; drafts, edits and confirmed deletes
 * need `workspace:write`; developer API keys never reach them.
 */
import type { McpTool } from '../mcp-tool.js';
import { createAssetTool, deleteAssetTool, getAssetTool, listAssetsTool, updateAssetTool } from './asset-tools.js';
import { exportProjectTool } from './project-export-tool.js';
import { createProjectTool, deleteProjectTool, getProjectTool, listProjectsTool, updateProjectTool } from './project-tools.js';
import { createWorldTool, deleteWorldTool, getWorldTool, listWorldsTool, updateWorldTool } from './world-tools.js';

export const workspaceTools: McpTool[] = [
  listProjectsTool,
  getProjectTool,
  createProjectTool,
  updateProjectTool,
  deleteProjectTool,
  exportProjectTool,
  listWorldsTool,
  getWorldTool,
  createWorldTool,
  updateWorldTool,
  deleteWorldTool,
  listAssetsTool,
  getAssetTool,
  createAssetTool,
  updateAssetTool,
  deleteAssetTool,
];
