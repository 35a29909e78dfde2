/**
 * Credentials on `/mcp`: a developer API key as `Authorization: Bearer <key>` (what MCP clients and
 * `mcp-remote` send) or `x-api-key` (as over REST), or an OAuth access token from our authorization server
 * (a JWT bound to this resource). Both resolve into the same `Principal`.
 */
import type { Context } from 'koa';
import type { ApiKeys } from '../kernel/accounts/index.js';
import { ApiError } from '../kernel/errors/index.js';
import { AccessTokenRejected, AccessTokenVerifier, type OAuthKernel } from '../kernel/oauth/index.js';
import type { Principal } from './principal.js';

/** What resolving a credential reads: the key store, the OAuth links and keys. */
export interface CredentialSources {
  apiKeys: ApiKeys;
  oauth: OAuthKernel;
}

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
export async function resolvePrincipal(ctx: Context, sources: CredentialSources, challenge: (invalid: boolean) => string): Promise<Principal | undefined> {
  const credential = presentedCredential(ctx);
  if (!credential) return undefined;
  // API keys are `mg_` + base62: never three dot-separated parts, so the shape alone says which it is.
  if (AccessTokenVerifier.looksLikeJwt(credential)) return oauthPrincipal(credential, sources, challenge);
  try {
    const key = await sources.apiKeys.authenticate(credential);
    return { kind: 'api_key', accountId: key.accountId, keyId: key.apiKeyId, name: key.name, scopes: key.scopes };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'MG_UNAUTHENTICATED') throw unauthenticated(error.detail ?? 'the credential is invalid', challenge(true));
    throw error;
  }
}

/**
 * An access token: verified against our keys, issuer and this resource as audience, then its link must still be
 * active. The link names the account and the internal key that owns the client's requests, so the account tools
 * treat an OAuth client exactly like a developer key of the same account.
 */
async function oauthPrincipal(token: string, sources: CredentialSources, challenge: (invalid: boolean) => string): Promise<Principal> {
  const { oauth } = sources;
  let verified;
  try {
    verified = (await oauth.verifier()).verify(token);
  } catch (error) {
    if (error instanceof AccessTokenRejected) throw unauthenticated(rejectionDetail[error.reason], challenge(true));
    throw error;
  }
  const link = await oauth.links.active(verified.linkId);
  if (!link || link.clientId !== verified.clientId || link.userId !== verified.subject) {
    throw unauthenticated('the access to this account was revoked; connect the application again', challenge(true));
  }
  oauth.links.touch(link.id);
  return {
    kind: 'oauth',
    accountId: link.accountId,
    userId: link.userId,
    clientId: link.clientId,
    keyId: link.apiKeyId,
    name: link.clientName,
    // A link re-approved with fewer scopes narrows tokens issued before it.
    scopes: verified.scopes.filter((scope) => (link.scopes as readonly string[]).includes(scope)),
  };
}

const rejectionDetail: Record<AccessTokenRejected['reason'], string> = {
  malformed: 'the access token is malformed',
  signature: 'the access token was not issued by this server',
  issuer: 'the access token was not issued by this server',
  audience: 'the access token is for another resource',
  expired: 'the access token has expired; refresh it',
};

export function unauthenticated(detail: string, challenge: string): ApiError {
  return new ApiError('MG_UNAUTHENTICATED', detail, { headers: { 'WWW-Authenticate': challenge } });
}

/**
 * `Bearer resource_metadata="...", scope="..."` (MCP authorization spec: the scope tells a client what to ask
 * for), plus `error="invalid_token"` when one was sent.
 */
export function bearerChallenge(resourceMetadataUrl: string, scopes: readonly string[], invalid: boolean): string {
  const error = invalid ? ', error="invalid_token", error_description="the credential is invalid, expired or revoked"' : '';
  return `Bearer resource_metadata="${resourceMetadataUrl}", scope="${scopes.join(' ')}"${error}`;
}

/** RFC 6750 §3.1 step-up: the token is fine but lacks `scopes`; the client may ask the user for more. */
export function insufficientScope(resourceMetadataUrl: string, scopes: readonly string[], tools: readonly string[]): ApiError {
  const challenge = `Bearer resource_metadata="${resourceMetadataUrl}", scope="${scopes.join(' ')}", error="insufficient_scope", error_description="${tools.join(', ')} needs ${scopes.join(' ')}"`;
  return new ApiError('MG_INSUFFICIENT_SCOPE', `${tools.join(', ')} needs the ${scopes.join(', ')} scope; approve the application again with it`, { headers: { 'WWW-Authenticate': challenge } });
}
