/**
 * Idempotency records (Stripe semantics), scoped to the API key. A key is first taken `in_flight` in its
 * own short transaction so a concurrent duplicate sees it and gets 409; the create transaction then
 * completes it together with the request row and the debit, storing the response to replay.
 */
import type { Knex } from 'knex';
import type { Executor } from './request-store.js';
import { isDuplicateKeyError } from './transient-retry.js';

export interface IdempotencyRecord {
  requestHash: string;
  state: 'in_flight' | 'completed';
  responseStatus: number | null;
  responseBody: unknown;
  lockedUntilMs: number;
}

export class IdempotencyStore {
  constructor(private readonly knex: Knex) {}

  /** Takes the key; returns the existing record instead when someone holds or has used it. */
  async acquire(apiKeyId: string, key: string, requestHash: string, nowMs: number, lockMs: number): Promise<IdempotencyRecord | 'acquired'> {
    try {
      await this.knex('idempotency_keys').insert({
        api_key_id: apiKeyId,
        idempotency_key: key,
        request_hash: requestHash,
        state: 'in_flight',
        created_at_ms: nowMs,
        locked_until_ms: nowMs + lockMs,
      });
      return 'acquired';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
    const existing = await this.find(apiKeyId, key);
    if (!existing) return this.acquire(apiKeyId, key, requestHash, nowMs, lockMs);
    // A holder that died mid-create leaves an expired lock: take the key over (its transaction never committed).
    if (existing.state === 'in_flight' && existing.lockedUntilMs < nowMs) {
      const taken = await this.knex('idempotency_keys')
        .where({ api_key_id: apiKeyId, idempotency_key: key, state: 'in_flight', locked_until_ms: existing.lockedUntilMs })
        .update({ request_hash: requestHash, created_at_ms: nowMs, locked_until_ms: nowMs + lockMs });
      if (taken === 1) return 'acquired';
      return (await this.find(apiKeyId, key)) ?? this.acquire(apiKeyId, key, requestHash, nowMs, lockMs);
    }
    return existing;
  }

  async complete(db: Executor, apiKeyId: string, key: string, result: { requestId: string; status: number; body: unknown }): Promise<void> {
    await db('idempotency_keys')
      .where({ api_key_id: apiKeyId, idempotency_key: key })
      .update({ state: 'completed', request_id: result.requestId, response_status: result.status, response_body: JSON.stringify(result.body) });
  }

  /** Lets the key be used again: the create failed before anything was written (e.g. 402), as Stripe does for errors raised before execution. */
  async release(apiKeyId: string, key: string): Promise<void> {
    await this.knex('idempotency_keys').where({ api_key_id: apiKeyId, idempotency_key: key, state: 'in_flight' }).delete();
  }

  private async find(apiKeyId: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = await this.knex('idempotency_keys').where({ api_key_id: apiKeyId, idempotency_key: key }).first();
    if (!row) return undefined;
    return {
      requestHash: String(row.request_hash),
      state: row.state,
      responseStatus: row.response_status === null ? null : Number(row.response_status),
      responseBody: row.response_body ? JSON.parse(String(row.response_body)) : null,
      lockedUntilMs: Number(row.locked_until_ms),
    };
  }
}

