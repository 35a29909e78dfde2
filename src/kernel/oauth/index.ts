/**
 * The kernel's side of OAuth account linking: persistence for the authorization server, its keys, the links
 * between clients and accounts, and verification of the access tokens it issues. The HTTP side (oidc-provider,
 * the consent page) is in `src/http/oauth`.
 */
import type { ApiKeys } from '../accounts/index.js';
import type { SqlDatabase } from '../store/sql-executor.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { OAuthKeys, type OAuthKeyMaterial } from './oauth-keys.js';
import { OAuthLinks } from './oauth-links.js';
import { OAuthModelStore } from './oauth-model-store.js';

export interface OAuthKernel {
  /** The issuer: the public URL's origin, so RFC 8414 metadata is at the root. */
  issuer: string;
  /** The one resource tokens are issued for: `<public_url>/mcp`. */
  mcpResource: string;
  /**
   * The signing and cookie keys, read (or generated) on first use rather than at start: an API process that
   * starts while its database is away comes up and answers 503 until it is back, as it did before OAuth.
   * A failed read is tried again by the next caller.
   */
  keys(): Promise<OAuthKeyMaterial>;
  keyStore: OAuthKeys;
  models: OAuthModelStore;
  links: OAuthLinks;
  /** Verifies access tokens against the keys above. */
  verifier(): Promise<AccessTokenVerifier>;
}

export function openOAuth(db: SqlDatabase, apiKeys: ApiKeys, clock: { now(): number }, publicUrl: string, options: { onTouchError?: (error: unknown) => void } = {}): OAuthKernel {
  const issuer = new URL(publicUrl).origin;
  const mcpResource = `${publicUrl}/mcp`;
  const keyStore = new OAuthKeys(db, clock);
  const links = new OAuthLinks(db, apiKeys, clock, options);
  const models = new OAuthModelStore(db, clock, (grantId) => links.revokeForGrant(grantId));
  const keys = retryingOnce(() => keyStore.load());
  const verifier = retryingOnce(async () => new AccessTokenVerifier((await keys()).signingKeys, { issuer, audience: mcpResource }, clock));
  return { issuer, mcpResource, keys, keyStore, models, links, verifier };
}

/** A memoised async value whose failure is not memoised. */
function retryingOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

/** Revokes an account's link from the console: the link, its key, its grant and every token of it. */
export async function revokeLinkOfAccount(oauth: OAuthKernel, linkId: string, accountId: string): Promise<boolean> {
  const link = (await oauth.links.listForAccount(accountId)).find((candidate) => candidate.id === linkId);
  if (!link) return false;
  await oauth.links.revoke(link.id);
  await oauth.models.revokeGrant(link.grantId);
  return true;
}

export { AccessTokenRejected, AccessTokenVerifier, type VerifiedAccessToken } from './access-token-verifier.js';
export { OAuthKeys, publicJwk, type SigningJwk, type OAuthKeyMaterial } from './oauth-keys.js';
export { OAuthLinks, hashRedirectUris, type OAuthLink } from './oauth-links.js';
export { OAuthModelStore, type OAuthModelPayload } from './oauth-model-store.js';
export * from './oauth-scopes.js';
