/** Webhook secrets, the delivery outbox and its attempts. Claims of due deliveries are conditional updates. */
import type { Executor } from '../store/request-store.js';
import type { SqlDatabase } from '../store/sql-executor.js';
import { isDuplicateKeyError } from '../store/transient-retry.js';

export type DeliveryState = 'pending' | 'delivered' | 'failed' | 'disabled';

export interface DeliveryRecord {
  id: string;
  requestId: string;
  accountId: string;
  url: string;
  eventType: string;
  payload: string;
  state: DeliveryState;
  attempts: number;
  nextAttemptAtMs: number | null;
  lastStatusCode: number | null;
  lastError: string | null;
  createdAtMs: number;
  deliveredAtMs: number | null;
}

/** A delivery due now, with the trace context its request's create stored (docs/tracing.md): its attempt continues that trace. */
export interface DueDelivery extends DeliveryRecord {
  traceContext: string | null;
}

export interface AttemptRecord {
  attemptedAtMs: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

const numOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

function toDelivery(row: Record<string, unknown>): DeliveryRecord {
  return {
    id: String(row.id),
    requestId: String(row.request_id),
    accountId: String(row.account_id),
    url: String(row.url),
    eventType: String(row.event_type),
    payload: String(row.payload),
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAtMs: numOrNull(row.next_attempt_at_ms),
    lastStatusCode: numOrNull(row.last_status_code),
    lastError: (row.last_error as string | null) ?? null,
    createdAtMs: Number(row.created_at_ms),
    deliveredAtMs: numOrNull(row.delivered_at_ms),
  };
}

export class WebhookStore {
  constructor(private readonly db: SqlDatabase) {}

  async secretRow(accountId: string): Promise<{ secret: string; previousSecret: string | null; previousExpiresAtMs: number | null } | undefined> {
    const row = await this.db.first<Record<string, unknown>>('SELECT * FROM webhook_secrets WHERE account_id = ?', [accountId]);
    return row ? { secret: String(row.secret), previousSecret: (row.previous_secret as string | null) ?? null, previousExpiresAtMs: numOrNull(row.previous_expires_at_ms) } : undefined;
  }

  /** Creates the account's secret if it has none; concurrent callers end up with the same one (the first insert wins). */
  async ensureSecret(accountId: string, candidate: string, nowMs: number): Promise<void> {
    try {
      await this.db.run('INSERT INTO webhook_secrets (account_id, secret, created_at_ms) VALUES (?, ?, ?)', [accountId, candidate, nowMs]);
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
    }
  }

  async rotateSecret(accountId: string, next: string, nowMs: number, graceMs: number): Promise<void> {
    await this.db.run('UPDATE webhook_secrets SET previous_secret = secret, previous_expires_at_ms = ?, secret = ?, created_at_ms = ? WHERE account_id = ?', [nowMs + graceMs, next, nowMs, accountId]);
  }

  /** The outbox row, written inside the finishing transaction. */
  async enqueue(db: Executor, delivery: { id: string; requestId: string; accountId: string; url: string; eventType: string; payload: string; nowMs: number }): Promise<void> {
    await db.run(
      `INSERT INTO webhook_deliveries (id, request_id, account_id, url, event_type, payload, state, attempts, next_attempt_at_ms, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)`,
      [delivery.id, delivery.requestId, delivery.accountId, delivery.url, delivery.eventType, delivery.payload, delivery.nowMs, delivery.nowMs],
    );
  }

  /** Deliveries waiting to be sent or retried, for the metrics: a count over the (state, next_attempt_at_ms) index. */
  async pendingCount(): Promise<number> {
    const row = await this.db.first<{ pending: number }>(`SELECT COUNT(*) AS pending FROM webhook_deliveries WHERE state = 'pending'`);
    return Number(row?.pending ?? 0);
  }

  async due(nowMs: number, limit: number): Promise<DueDelivery[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT d.*, r.trace_context FROM webhook_deliveries d LEFT JOIN requests r ON r.id = d.request_id
        WHERE d.state = 'pending' AND d.next_attempt_at_ms <= ? ORDER BY d.next_attempt_at_ms LIMIT ${Math.floor(limit)}`,
      [nowMs],
    );
    return rows.map((row) => Object.assign(toDelivery(row), { traceContext: (row.trace_context as string | null) ?? null }));
  }

  /** Takes a due delivery for one attempt: pushes its next attempt past the attempt's timeout so no one else sends it meanwhile. */
  async claim(id: string, expectedNextAttemptAtMs: number, leaseUntilMs: number): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE webhook_deliveries SET next_attempt_at_ms = ? WHERE id = ? AND state = 'pending' AND next_attempt_at_ms = ?`, [leaseUntilMs, id, expectedNextAttemptAtMs]);
    return changes === 1;
  }

  async recordAttempt(id: string, attempt: AttemptRecord, outcome: { state: DeliveryState; nextAttemptAtMs: number | null }): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('INSERT INTO webhook_attempts (delivery_id, attempted_at_ms, status_code, error, duration_ms) VALUES (?, ?, ?, ?, ?)', [id, attempt.attemptedAtMs, attempt.statusCode, attempt.error, attempt.durationMs]);
      await tx.run(
        `UPDATE webhook_deliveries SET attempts = attempts + 1, state = ?, next_attempt_at_ms = ?, last_status_code = ?, last_error = ?, delivered_at_ms = ? WHERE id = ?`,
        [outcome.state, outcome.nextAttemptAtMs, attempt.statusCode, attempt.error, outcome.state === 'delivered' ? attempt.attemptedAtMs : null, id],
      );
    });
  }

  async forRequest(requestId: string): Promise<(DeliveryRecord & { attemptLog: AttemptRecord[] })[]> {
    const deliveries = (await this.db.all<Record<string, unknown>>('SELECT * FROM webhook_deliveries WHERE request_id = ? ORDER BY created_at_ms', [requestId])).map(toDelivery);
    const result = [];
    for (const delivery of deliveries) {
      const attempts = await this.db.all<Record<string, unknown>>('SELECT * FROM webhook_attempts WHERE delivery_id = ? ORDER BY id', [delivery.id]);
      result.push({
        ...delivery,
        attemptLog: attempts.map((row) => ({ attemptedAtMs: Number(row.attempted_at_ms), statusCode: numOrNull(row.status_code), error: (row.error as string | null) ?? null, durationMs: Number(row.duration_ms) })),
      });
    }
    return result;
  }

  /**
   * An account's deliveries for requests created since `sinceMs`, newest first, for the console. Goes through
   * the requests' (account_id, created_at_ms) index and the deliveries' request_id index.
   */
  async recentForAccount(accountId: string, sinceMs: number, limit: number): Promise<DeliveryRecord[]> {
    const rows = await this.db.all<Record<string, unknown>>(
      `SELECT d.* FROM webhook_deliveries d JOIN requests r ON r.id = d.request_id
        WHERE r.account_id = ? AND r.created_at_ms >= ? AND d.account_id = ?
        ORDER BY d.created_at_ms DESC, d.id DESC LIMIT ${Math.max(1, Math.floor(limit))}`,
      [accountId, sinceMs, accountId],
    );
    return rows.map(toDelivery);
  }

  async getForAccount(id: string, accountId: string): Promise<DeliveryRecord | undefined> {
    const row = await this.db.first<Record<string, unknown>>('SELECT * FROM webhook_deliveries WHERE id = ? AND account_id = ?', [id, accountId]);
    return row ? toDelivery(row) : undefined;
  }

  /** Retention: a finished delivery's payload carries the request's output, so it goes with it. */
  async dropPayloads(requestId: string): Promise<void> {
    await this.db.run(`UPDATE webhook_deliveries SET payload = '{}' WHERE request_id = ? AND state <> 'pending'`, [requestId]);
  }

  /** Redeliver: a finished delivery goes back to pending, due now (its id stays: receivers deduplicate by it). */
  async redeliver(id: string, nowMs: number): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE webhook_deliveries SET state = 'pending', next_attempt_at_ms = ? WHERE id = ? AND state <> 'pending'`, [nowMs, id]);
    return changes === 1;
  }
}
