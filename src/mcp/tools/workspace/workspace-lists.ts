/** What the list tools add to a page: the workspaces the caller can read, so an agent learns their ids and its role. */
import type { WorkspaceActor } from '../../../kernel/workspaces/index.js';
import type { McpCallContext } from '../mcp-tool.js';
import { workspaceJson } from './workspace-views.js';

export async function readableWorkspacesJson(context: McpCallContext, actor: WorkspaceActor) {
  return (await context.gateway.workspaces.workspacesOf(actor)).map(({ workspace, role }) => workspaceJson(workspace, role));
}
