/**
 * Links: an OAuth client approved by a member to act on an account. Each link owns an internal API key
 * (no one ever sees its secret) so the requests the client makes are owned exactly like a developer key's:
 * one ownership rule for REST and MCP, the console's request log shows them under the key's name, and
 * revoking the link revokes the key, which the admission transaction checks on every create.
 */
import { createHash } from 'node:crypto';
import { LastUseRecorder, type ApiKeys } from '../accounts/index.js';
import { newId, writeLastUses } from '../store/index.js';
import type { SqlDatabase } from '../store/sql-executor.js';
import { requestScopesOf, parseOAuthScopes, type OAuthScope } from './oauth-scopes.js';

export interface OAuthLink {
  id: string;
  grantId: string;
  accountId: string;
  userId: string;
  clientId: string;
  clientName: string;
  apiKeyId: string;
  scopes: OAuthScope[];
  redirectUrisHash: string;
  createdAtMs: number;
  lastUsedAtMs: number | null;
  revokedAtMs: number | null;
}

export interface NewLink {
  grantId: string;
  accountId: string;
  userId: string;
  clientId: string;
  clientName: string;
  scopes: OAuthScope[];
  redirectUris: readonly string[];
}

/** How long a verified link is trusted without reading it again (the same bound as API keys). */
const linkCacheMs = 2_000;

export class OAuthLinks {
  private readonly cache = new Map<string, { link: OAuthLink | undefined; expiresAtMs: number }>();
  /** Each link's last use, to the minute, written with the others' (accounts/last-use-recorder.ts). */
  private readonly uses: LastUseRecorder;

  constructor(
    private readonly db: SqlDatabase,
    private readonly apiKeys: ApiKeys,
    private readonly clock: { now(): number },
    options: { onTouchError?: (error: unknown) => void } = {},
  ) {
    this.uses = new LastUseRecorder((uses, resolutionMs) => writeLastUses(db, 'oauth_links', uses, resolutionMs), {
      resolutionMs: 60_000,
      onError: (error) => options.onTouchError?.(error),
    });
  }

  /** Records an approval: a new link (and its key), or the same grant's link with the newly approved scopes. */
  async approve(approval: NewLink): Promise<OAuthLink> {
    const now = this.clock.now();
    const existing = await this.findByGrant(approval.grantId);
    const redirectUrisHash = hashRedirectUris(approval.redirectUris);
    if (existing && existing.revokedAtMs === null && existing.accountId === approval.accountId) {
      await this.db.run('UPDATE oauth_links SET scopes = ?, redirect_uris_hash = ?, client_name = ? WHERE id = ?', [approval.scopes.join(' '), redirectUrisHash, approval.clientName, existing.id]);
      await this.db.run('UPDATE api_keys SET scopes = ? WHERE id = ?', [JSON.stringify(requestScopesOf(approval.scopes)), existing.apiKeyId]);
      this.cache.delete(existing.id);
      return { ...existing, scopes: approval.scopes, redirectUrisHash, clientName: approval.clientName };
    }
    const { record } = await this.apiKeys.create(approval.accountId, `OAuth: ${approval.clientName}`.slice(0, 200), requestScopesOf(approval.scopes));
    const link: OAuthLink = { ...approval, id: newId('link', now), apiKeyId: record.id, redirectUrisHash, createdAtMs: now, lastUsedAtMs: null, revokedAtMs: null };
    await this.db.run(
      `INSERT INTO oauth_links (id, grant_id, account_id, user_id, client_id, client_name, api_key_id, scopes, redirect_uris_hash, created_at_ms, last_used_at_ms, revoked_at_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL)`,
      [link.id, link.grantId, link.accountId, link.userId, link.clientId, link.clientName, link.apiKeyId, link.scopes.join(' '), redirectUrisHash, now],
    );
    return link;
  }

  /** The link, if it is still active; cached briefly so a tool call does not cost a read each. */
  async active(id: string): Promise<OAuthLink | undefined> {
    const now = this.clock.now();
    const cached = this.cache.get(id);
    if (cached && cached.expiresAtMs > now) return cached.link;
    const row = await this.db.first('SELECT * FROM oauth_links WHERE id = ?', [id]);
    const link = row && row.revoked_at_ms === null ? toLink(row) : undefined;
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(id, { link, expiresAtMs: now + linkCacheMs });
    return link;
  }

  async findByGrant(grantId: string): Promise<OAuthLink | undefined> {
    const row = await this.db.first('SELECT * FROM oauth_links WHERE grant_id = ?', [grantId]);
    return row ? toLink(row) : undefined;
  }

  /** The account's active links, newest first (the linked-apps page). */
  async listForAccount(accountId: string): Promise<OAuthLink[]> {
    const rows = await this.db.all('SELECT * FROM oauth_links WHERE account_id = ? AND revoked_at_ms IS NULL ORDER BY created_at_ms DESC', [accountId]);
    return rows.map(toLink);
  }

  /**
   * Ids of the API keys that own linked applications' requests (revoked links included): they are managed on the
   * linked-apps page, not among the developer keys, so revoking one always goes through its link.
   */
  async keyIdsOfAccount(accountId: string): Promise<Set<string>> {
    const rows = await this.db.all<{ api_key_id: string }>('SELECT api_key_id FROM oauth_links WHERE account_id = ?', [accountId]);
    return new Set(rows.map((row) => row.api_key_id));
  }

  /** Revokes the link and its key; effective at once in this process, within the cache time elsewhere. */
  async revoke(id: string): Promise<OAuthLink | undefined> {
    const row = await this.db.first('SELECT * FROM oauth_links WHERE id = ? AND revoked_at_ms IS NULL', [id]);
    if (!row) return undefined;
    const link = toLink(row);
    await this.db.run('UPDATE oauth_links SET revoked_at_ms = ? WHERE id = ? AND revoked_at_ms IS NULL', [this.clock.now(), id]);
    await this.apiKeys.revoke(link.apiKeyId);
    this.cache.delete(id);
    return link;
  }

  /** The grant behind a link went away (revoked, refresh token reused, expired): so does the link. */
  async revokeForGrant(grantId: string): Promise<void> {
    const link = await this.findByGrant(grantId);
    if (link && link.revokedAtMs === null) await this.revoke(link.id);
  }

  /** Records use, to the minute, never awaited by the caller's request. */
  touch(id: string): void {
    this.uses.record(id, this.clock.now());
  }

  /** Writes the last uses still held; at shutdown, before the store closes. */
  close(): Promise<void> {
    return this.uses.close();
  }
}

/** Order-independent fingerprint of a client's redirect URIs. */
export function hashRedirectUris(redirectUris: readonly string[]): string {
  return createHash('sha256').update(JSON.stringify([...redirectUris].sort())).digest('hex');
}

function toLink(row: Record<string, unknown>): OAuthLink {
  const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));
  return {
    id: String(row.id),
    grantId: String(row.grant_id),
    accountId: String(row.account_id),
    userId: String(row.user_id),
    clientId: String(row.client_id),
    clientName: String(row.client_name),
    apiKeyId: String(row.api_key_id),
    scopes: parseOAuthScopes(String(row.scopes)),
    redirectUrisHash: String(row.redirect_uris_hash),
    createdAtMs: Number(row.created_at_ms),
    lastUsedAtMs: numOrNull(row.last_used_at_ms),
    revokedAtMs: numOrNull(row.revoked_at_ms),
  };
}
