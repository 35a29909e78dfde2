/**
 * Credentials on `/mcp`: a developer API key as `Authorization: Bearer <key>` (what MCP clients and
 * `mcp-remote` send) or `x-api-key` (as over REST), resolved through the same key store and scopes as REST into
 * a `Principal`. OAuth access tokens join here in the next issue, producing the same type.
 */
import type { Context } from 'koa';
import type { ApiKeys } from '../kernel/accounts/index.js';
import { ApiError } from '../kernel/errors/index.js';
import type { Principal } from './principal.js';

/** The credential the request carries, if any; `Authorization` wins over `x-api-key` when both are sent. */
export function presentedCredential(ctx: Context): string | undefined {
  const bearer = /^Bearer[ \t]+(\S+)\s*$/i.exec(ctx.get('authorization'));
  return bearer?.[1] ?? (ctx.get('x-api-key') || undefined);
}

/**
 * The principal of a presented credential; undefined when none was sent. An invalid, revoked or expired one
 * is a 401 with the challenge, whatever the call: RFC 6750 refuses a bad token rather than ignoring it, and
 * that is what tells a client to fix or refresh its credential.
 */
export async function resolvePrincipal(ctx: Context, apiKeys: ApiKeys, challenge: (invalid: boolean) => string): Promise<Principal | undefined> {
  const credential = presentedCredential(ctx);
  if (!credential) return undefined;
  try {
    const key = await apiKeys.authenticate(credential);
    return { kind: 'api_key', accountId: key.accountId, keyId: key.apiKeyId, name: key.name, scopes: key.scopes };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MG_UNAUTHENTICATED') throw unauthenticated(error.detail ?? 'the credential is invalid', challenge(true));
    throw error;
  }
}

export function unauthenticated(detail: string, challenge: string): ApiError {
  return new ApiError('MG_UNAUTHENTICATED', detail, { headers: { 'WWW-Authenticate': challenge } });
}

/** `Bearer resource_metadata="..."` (MCP authorization spec), plus `error="invalid_token"` when one was sent. */
export function bearerChallenge(resourceMetadataUrl: string, invalid: boolean): string {
  const error = invalid ? ', error="invalid_token", error_description="the credential is invalid, expired or revoked"' : '';
  return `Bearer resource_metadata="${resourceMetadataUrl}"${error}`;
}
