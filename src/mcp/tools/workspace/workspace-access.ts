/**
 * What every workspace tool does around its kernel call: only an OAuth principal with a signed-in user reaches
 * the workspace domain (developer API keys never do, as the spec says), it acts as that user, and the kernel's
 * `ApiError`s leave as tool errors with the same stable codes.
 */
import { ApiError } from '../../../kernel/errors/index.js';
import type { WorkspaceActor } from '../../../kernel/workspaces/index.js';
import { hasScope } from '../../principal.js';
import { toolErrorOf } from '../account/account-access.js';
import { ToolError, type McpCallContext } from '../mcp-tool.js';

export async function asWorkspaceUser<T>(context: McpCallContext, scope: 'workspace:read' | 'workspace:write', work: (actor: WorkspaceActor) => Promise<T>): Promise<T> {
  const principal = context.principal;
  if (!principal || principal.kind !== 'oauth' || !principal.userId) {
    throw new ToolError('MG_FORBIDDEN_SCOPE', 'workspace tools need an OAuth connection of a signed-in user with the workspace:read / workspace:write scopes; developer API keys do not grant workspace access');
  }
  // The HTTP layer already answered 403 insufficient_scope for a token without it; this is the same rule kept
  // where the work happens.
  if (!hasScope(principal, scope)) throw new ToolError('MG_INSUFFICIENT_SCOPE', `this call needs the ${scope} scope; approve the application again with it`);
  try {
    return await work({ userId: principal.userId, accountId: principal.accountId });
  } catch (error) {
    if (error instanceof ApiError) throw toolErrorOf(error);
    throw error;
  }
}
