/**
 * What every account tool does before and around its kernel call, the way the REST routes' middleware does it
 * (`authenticate(apiKeys, scope)`, `rateLimit(...)`): the principal's scope, the key's rate-limit bucket, and the
 * kernel's `ApiError`s turned into tool errors with the same stable codes.
 */
import { ApiError } from '../../../kernel/errors/index.js';
import type { Caller } from '../../../kernel/lifecycle/index.js';
import type { RateBucket } from '../../../kernel/rate-limits/rate-limiter.js';
import type { Scope } from '../../../kernel/store/index.js';
import { hasScope, type Principal } from '../../principal.js';
import { ToolError, type McpCallContext } from '../mcp-tool.js';

export interface AccountNeeds {
  /** The REST endpoint's scope; omitted where REST accepts any valid key (status, estimates). */
  scope?: Scope;
  /** The REST endpoint's rate-limit bucket; omitted where REST does not limit (status). */
  rateBucket?: Extract<RateBucket, 'create' | 'read'>;
}

/** The caller as the kernel knows it, plus the principal it came from. */
export interface AccountCaller extends Caller {
  principal: Principal;
}

/**
 * Runs `work` for the call's principal after the same checks as REST, so an account tool can never do what the
 * same key could not do over HTTP. Kernel errors leave as `ToolError`s; anything else is a defect and propagates.
 */
export async function asAccount<T>(context: McpCallContext, needs: AccountNeeds, work: (caller: AccountCaller) => Promise<T>): Promise<T> {
  try {
    const principal = requirePrincipal(context);
    if (needs.scope && !hasScope(principal, needs.scope)) {
      throw new ToolError('MG_FORBIDDEN_SCOPE', `this tool needs the ${needs.scope} scope; the credential has ${principal.scopes.join(', ') || 'none'}`);
    }
    if (needs.rateBucket) await takeRateLimit(context, principal, needs.rateBucket);
    return await work(callerOf(principal));
  } catch (error) {
    if (error instanceof ApiError) throw toolErrorOf(error);
    throw error;
  }
}

/** The same code and message as the REST problem document; `errors` and a `Retry-After` carried as details. */
export function toolErrorOf(error: ApiError): ToolError {
  const details: Record<string, unknown> = {};
  if (error.extras.errors) details.errors = error.extras.errors;
  const retryAfter = error.extras.headers?.['Retry-After'];
  if (retryAfter !== undefined) details.retry_after_seconds = Number(retryAfter);
  return new ToolError(error.code, error.message, details);
}

function requirePrincipal(context: McpCallContext): Principal {
  // The HTTP layer answers 401 before the transport runs when an account tool has no credentials; reaching
  // here without a principal means a caller bypassed it, and the answer must still be a refusal.
  if (!context.principal) throw new ApiError('MG_UNAUTHENTICATED', 'this tool needs an API key: send it as Authorization: Bearer <key> or x-api-key');
  return context.principal;
}

/**
 * Requests belong to the API key that created them (REST: polling uses the creating key), so the kernel caller
 * needs a key id. An OAuth principal carries its link's internal key (kernel/oauth/oauth-links.ts), so a linked
 * client owns its requests by the same rule; a principal without a key is refused.
 */
function callerOf(principal: Principal): AccountCaller {
  if (!principal.keyId) throw new ToolError('MG_FORBIDDEN_SCOPE', 'the generation tools need a developer API key; this credential is not one');
  const asUser = principal.kind === 'oauth' && principal.userId ? { userId: principal.userId, workspaceWrite: hasScope(principal, 'workspace:write') } : {};
  return { apiKeyId: principal.keyId, accountId: principal.accountId, ...asUser, principal };
}

async function takeRateLimit(context: McpCallContext, principal: Principal, bucket: 'create' | 'read'): Promise<void> {
  const { rateLimiter, settings } = context.gateway;
  const limit = bucket === 'create' ? settings.rate_limits.creates_per_minute : settings.rate_limits.reads_per_minute;
  if (limit <= 0) return;
  // Counted under the key, in the same buckets as REST: MCP is another door to the same budget, not a second one.
  const decision = await rateLimiter.take(principal.keyId ?? principal.accountId, bucket, limit, Date.now());
  if (!decision.allowed) {
    throw new ApiError('MG_RATE_LIMITED', `this key may make ${decision.limit} ${bucket} calls a minute; retry in ${decision.resetSeconds} s`, {
      headers: { 'Retry-After': String(decision.resetSeconds) },
    });
  }
}
