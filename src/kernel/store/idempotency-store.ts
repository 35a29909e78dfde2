/**
 * Idempotency records (Stripe semantics), scoped to the API key. A key is first taken `in_flight` in its
 * own short statement so a concurrent duplicate sees it and gets 409; the create transaction then
 * completes it together with the request row and the debit, storing the response to replay.
 */
import type { Executor } from './request-store.js';
import type { SqlDatabase } from './sql-executor.js';
import { isDuplicateKeyError } from './transient-retry.js';

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  lockedUntilMs: number;
}

export class IdempotencyStore {
  constructor(private readonly db: SqlDatabase) {}

  /** Takes the key; returns the existing record instead when someone holds or has used it. */
  async acquire(apiKeyId: string, key: string, requestHash: string, nowMs: number, lockMs: number): Promise<IdempotencyRecord | 'acquired'> {
    try {
      await this.db.run(
        `INSERT INTO idempotency_keys (api_key_id, idempotency_key, request_hash, state, created_at_ms, locked_until_ms) VALUES (?, ?, ?, 'in_flight', ?, ?)`,
        [apiKeyId, key, requestHash, nowMs, nowMs + lockMs],
      );
      return 'acquired';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const existing = await this.find(apiKeyId, key);
    if (!existing) return this.acquire(apiKeyId, key, requestHash, nowMs, lockMs);
    // A holder that died mid-create leaves an expired lock: take the key over (its transaction never committed).
    if (existing.state === 'in_flight' && existing.lockedUntilMs < nowMs) {
      const { changes } = await this.db.run(
        `UPDATE idempotency_keys SET request_hash = ?, created_at_ms = ?, locked_until_ms = ?
          WHERE api_key_id = ? AND idempotency_key = ? AND state = 'in_flight' AND locked_until_ms = ?`,
        [requestHash, nowMs, nowMs + lockMs, apiKeyId, key, existing.lockedUntilMs],
      );
      if (changes === 1) return 'acquired';
      return (await this.find(apiKeyId, key)) ?? this.acquire(apiKeyId, key, requestHash, nowMs, lockMs);
    }
    return existing;
  }

  async complete(db: Executor, apiKeyId: string, key: string, result: { requestId: string; status: number; body: unknown }): Promise<void> {
    await db.run(`UPDATE idempotency_keys SET state = 'completed', request_id = ?, response_status = ?, response_body = ? WHERE api_key_id = ? AND idempotency_key = ?`, [
      result.requestId,
      result.status,
      JSON.stringify(result.body),
      apiKeyId,
      key,
    ]);
  }

  /** Lets the key be used again: the create failed before anything was written (e.g. 402), as Stripe does for errors raised before execution. */
  async release(apiKeyId: string, key: string): Promise<void> {
    await this.db.run(`DELETE FROM idempotency_keys WHERE api_key_id = ? AND idempotency_key = ? AND state = 'in_flight'`, [apiKeyId, key]);
  }

  /** Forgets keys older than the retention period (Stripe keeps them 24 h; we keep them as long as the request data). */
  async purgeOlderThan(createdBeforeMs: number): Promise<number> {
    const { changes } = await this.db.run('DELETE FROM idempotency_keys WHERE created_at_ms < ?', [createdBeforeMs]);
    return changes;
  }

  private async find(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.db.first<Record<string, unknown>>('SELECT * FROM idempotency_keys WHERE api_key_id = ? AND idempotency_key = ?', [apiKeyId, key]);
    if (!row) return undefined;
    return {
      requestHash: String(row.request_hash),
      state: row.state as IdempotencyRecord['state'],
      responseStatus: row.response_status === null ? null : Number(row.response_status),
      responseBody: row.response_body ? JSON.parse(String(row.response_body)) : null,
      lockedUntilMs: Number(row.locked_until_ms),
    };
  }
}
