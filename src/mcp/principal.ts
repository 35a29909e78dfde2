/**
 * Who is calling an MCP tool: one type for developer API keys (this issue) and OAuth access tokens (account
 * linking, next issue), so every tool checks the same thing whatever the credential was.
 */
export type PrincipalKind = 'api_key' | 'oauth';

export interface Principal {
  kind: PrincipalKind;
  accountId: string;
  /** The API key's id (kind `api_key`); for kind `oauth`, the link's internal key that owns the client's requests. */
  keyId?: string;
  /** The credential's human label (the API key's name), shown back by `api_status`. */
  name?: string;
  /** The OAuth client's id (kind `oauth`). */
  clientId?: string;
  /** The signed-in user an OAuth token was issued to (kind `oauth`). */
  userId?: string;
  /** `requests:read`, `requests:write` (API keys); `workspace:read`, `workspace:write` (OAuth). */
  scopes: readonly string[];
}

export function hasScope(principal: Principal, scope: string): boolean {
  return principal.scopes.includes(scope);
}
