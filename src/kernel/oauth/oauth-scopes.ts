/**
 * The scopes an OAuth client may ask for. `requests:*` are the API-key scopes (the account tools);
 * `workspace:*` exist only for OAuth: developer API keys never carry them.
 */
import { allScopes, type Scope } from '../store/index.js';

export const workspaceScopes = ['workspace:read', 'workspace:write'] as const;
export type WorkspaceScope = (typeof workspaceScopes)[number];
export type OAuthScope = Scope | WorkspaceScope;
export const oauthScopes: readonly OAuthScope[] = [...allScopes, ...workspaceScopes];

/** What each scope lets a client do, as the consent page says it. */
export const scopeDescriptions: Record<OAuthScope, string> = {
  'requests:read': 'read the generation requests it made and their results',
  'requests:write': 'create generation requests that spend the account’s credits',
  'workspace:read': 'read the account’s workspaces: projects, worlds and assets',
  'workspace:write': 'change the account’s workspaces',
};

export function isOAuthScope(scope: string): scope is OAuthScope {
  return (oauthScopes as readonly string[]).includes(scope);
}

/** The known scopes of a space-separated `scope` value, in our canonical order. */
export function parseOAuthScopes(text: string | undefined): OAuthScope[] {
  const asked = new Set((text ?? '').split(/\s+/).filter(Boolean));
  return oauthScopes.filter((scope) => asked.has(scope));
}

/** The API-key scopes among `scopes`: what the link's internal key may do over the request tools. */
export function requestScopesOf(scopes: readonly OAuthScope[]): Scope[] {
  return allScopes.filter((scope) => scopes.includes(scope));
}
