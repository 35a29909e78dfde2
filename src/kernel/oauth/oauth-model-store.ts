/**
 * oidc-provider's persistence (its `Adapter` interface) over the project's store: every model in the one
 * `oauth_models` table, on SQLite and MySQL alike. Payloads are opaque JSON to us; only the lookup fields the
 * interface searches by (grant id, user code, uid) get columns of their own.
 */
import { isDuplicateKeyError } from '../store/transient-retry.js';
import type { SqlDatabase } from '../store/sql-executor.js';

/** What oidc-provider stores: an object we keep as JSON, with the fields it looks records up by. */
export interface OAuthModelPayload {
  grantId?: string;
  userCode?: string;
  uid?: string;
  consumed?: unknown;
  [field: string]: unknown;
}

/** Told when a grant goes away (revoked, reused refresh token, expired), so the link it backs goes too. */
export type GrantRemovedListener = (grantId: string) => Promise<void>;

interface ModelRow {
  payload: string;
  expires_at_ms: number | string | null;
  consumed_at_ms: number | string | null;
}

export class OAuthModelStore {
  constructor(
    private readonly db: SqlDatabase,
    private readonly clock: { now(): number },
    private readonly onGrantRemoved: GrantRemovedListener = async () => {},
  ) {}

  /** The adapter oidc-provider constructs per model name (`Session`, `Grant`, `RefreshToken`, ...). */
  adapterFor(model: string) {
    return {
      upsert: (id: string, payload: OAuthModelPayload, expiresIn?: number) => this.upsert(model, id, payload, expiresIn),
      find: (id: string) => this.findBy(model, 'id', id),
      findByUserCode: (userCode: string) => this.findBy(model, 'user_code', userCode),
      findByUid: (uid: string) => this.findBy(model, 'uid', uid),
      consume: (id: string) => this.consume(model, id),
      destroy: (id: string) => this.destroy(model, id),
      revokeByGrantId: (grantId: string) => this.revokeByGrantId(model, grantId),
    };
  }

  async upsert(model: string, id: string, payload: OAuthModelPayload, expiresIn?: number): Promise<void> {
    const expiresAtMs = expiresIn ? this.clock.now() + expiresIn * 1000 : null;
    const values = [JSON.stringify(payload), payload.grantId ?? null, payload.userCode ?? null, payload.uid ?? null, expiresAtMs];
    const update = () => this.db.run('UPDATE oauth_models SET payload = ?, grant_id = ?, user_code = ?, uid = ?, expires_at_ms = ? WHERE model = ? AND id = ?', [...values, model, id]);
    if ((await update()).changes > 0) return;
    try {
      await this.db.run('INSERT INTO oauth_models (model, id, payload, grant_id, user_code, uid, expires_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?)', [model, id, ...values]);
    } catch (error) {
      // Two processes saving the same new record: the second one's save is an update after all.
      if (!isDuplicateKeyError(error)) throw error;
      await update();
    }
  }

  async findBy(model: string, column: 'id' | 'user_code' | 'uid', value: string): Promise<OAuthModelPayload | undefined> {
    const row = await this.db.first<ModelRow>(`SELECT payload, expires_at_ms, consumed_at_ms FROM oauth_models WHERE model = ? AND ${column} = ?`, [model, value]);
    if (!row) return undefined;
    if (row.expires_at_ms !== null && Number(row.expires_at_ms) <= this.clock.now()) return undefined;
    const payload = JSON.parse(row.payload) as OAuthModelPayload;
    // oidc-provider reads `consumed` to detect a second use of a code or a rotated refresh token.
    return row.consumed_at_ms === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_at_ms) / 1000) };
  }

  async consume(model: string, id: string): Promise<void> {
    await this.db.run('UPDATE oauth_models SET consumed_at_ms = ? WHERE model = ? AND id = ?', [this.clock.now(), model, id]);
  }

  async destroy(model: string, id: string): Promise<void> {
    await this.db.run('DELETE FROM oauth_models WHERE model = ? AND id = ?', [model, id]);
    if (model === 'Grant') await this.onGrantRemoved(id);
  }

  /**
   * Ends the authorization server's sessions of a user (console sign-out): without this, a client the user had
   * approved could be re-authorized silently from the same browser after the user signed out of the console.
   */
  async endSessionsOf(userId: string): Promise<number> {
    const rows = await this.db.all<{ id: string; payload: string }>("SELECT id, payload FROM oauth_models WHERE model = 'Session'");
    const ids = rows.filter((row) => (JSON.parse(row.payload) as { accountId?: string }).accountId === userId).map((row) => row.id);
    for (const id of ids) await this.db.run("DELETE FROM oauth_models WHERE model = 'Session' AND id = ?", [id]);
    return ids.length;
  }

  async revokeByGrantId(model: string, grantId: string): Promise<void> {
    await this.db.run('DELETE FROM oauth_models WHERE model = ? AND grant_id = ?', [model, grantId]);
  }

  /** Removes a grant and every code and token issued under it (the linked-apps page's revoke). */
  async revokeGrant(grantId: string): Promise<void> {
    await this.db.run("DELETE FROM oauth_models WHERE grant_id = ? OR (model = 'Grant' AND id = ?)", [grantId, grantId]);
  }

  /** Drops records expired before `nowMs` (oidc-provider never deletes them itself). */
  async purgeExpired(nowMs: number): Promise<number> {
    const { changes } = await this.db.run('DELETE FROM oauth_models WHERE expires_at_ms IS NOT NULL AND expires_at_ms < ?', [nowMs]);
    return changes;
  }
}
