/**
 * Request rows and their state transitions. Every transition is a conditional UPDATE whose WHERE clause
 * states the state it expects, so two workers (or a redelivered job) can never both win a transition:
 * the loser sees 0 rows changed and walks away.
 */
import type { Knex } from 'knex';
import type { JsonObject, ProviderTask } from '../plugin-sdk/index.js';
import type { RequestRecord, RequestStatus } from './records.js';
import { toRequestRecord } from './row-mapping.js';

export interface NewRequest {
  id: string;
  accountId: string;
  apiKeyId: string;
  operation: string;
  model: string;
  billableCredits: number;
  input: JsonObject;
  webhookUrl: string | null;
  createdAtMs: number;
}

export type Executor = Knex | Knex.Transaction;

export class RequestStore {
  constructor(private readonly knex: Knex) {}

  async insert(db: Executor, request: NewRequest): Promise<void> {
    await db('requests').insert({
      id: request.id,
      account_id: request.accountId,
      api_key_id: request.apiKeyId,
      operation: request.operation,
      model: request.model,
      status: 'queued',
      billable_credits: request.billableCredits,
      input: JSON.stringify(request.input),
      output: null,
      webhook_url: request.webhookUrl,
      created_at_ms: request.createdAtMs,
      next_check_at_ms: request.createdAtMs,
    });
  }

  async get(id: string, db: Executor = this.knex): Promise<RequestRecord | undefined> {
    const row = await db('requests').where({ id }).first();
    return row ? toRequestRecord(row) : undefined;
  }

  /** A request as its creating API key sees it; another key's request does not exist for it. */
  async getForKey(id: string, apiKeyId: string): Promise<RequestRecord | undefined> {
    const row = await this.knex('requests').where({ id, api_key_id: apiKeyId }).first();
    return row ? toRequestRecord(row) : undefined;
  }

  /**
   * queued -> processing, or takes over a `processing` request that nobody holds (a re-poll is due) or
   * whose lease expired (its worker died). `phase` pins what the caller read: `start` only claims a
   * request without a vendor task (so a task is never submitted twice), `poll` only one with a task.
   * Start claims count an attempt; startedAtMs keeps the first start.
   */
  async claim(id: string, worker: string, nowMs: number, leaseMs: number, phase: 'start' | 'poll'): Promise<RequestRecord | undefined> {
    const query = this.knex('requests').where({ id });
    if (phase === 'start') query.whereNull('task');
    else query.whereNotNull('task');
    const changed = await query
      .andWhere((where) =>
        where.where({ status: 'queued' }).orWhere((expired) =>
          expired.where({ status: 'processing' }).andWhere((lease) => lease.whereNull('lease_owner').orWhere('lease_expires_at_ms', '<', nowMs)),
        ),
      )
      .update({
        status: 'processing',
        started_at_ms: this.knex.raw('COALESCE(started_at_ms, ?)', [nowMs]),
        lease_owner: worker,
        lease_expires_at_ms: nowMs + leaseMs,
        attempts: phase === 'start' ? this.knex.raw('attempts + 1') : this.knex.raw('attempts'),
        next_check_at_ms: null,
      });
    return changed === 1 ? this.get(id) : undefined;
  }

  /** Heartbeat of a worker still busy with a request: pushes its lease forward. False when it lost the lease. */
  async extendLease(id: string, worker: string, leaseExpiresAtMs: number): Promise<boolean> {
    const changed = await this.knex('requests').where({ id, lease_owner: worker, status: 'processing' }).update({ lease_expires_at_ms: leaseExpiresAtMs });
    return changed === 1;
  }

  /** Stores the vendor task so any worker can poll it later, and hands the lease back. */
  async recordTask(id: string, worker: string, update: { provider: string; task: ProviderTask; output: JsonObject; nextCheckAtMs: number; pollCount?: number }): Promise<boolean> {
    const changed = await this.knex('requests')
      .where({ id, status: 'processing', lease_owner: worker })
      .update({
        provider: update.provider,
        task: JSON.stringify(update.task),
        output: JSON.stringify(update.output),
        poll_count: update.pollCount ?? 0,
        lease_owner: null,
        lease_expires_at_ms: null,
        next_check_at_ms: update.nextCheckAtMs,
      });
    return changed === 1;
  }

  /**
   * Hands a request back without finishing it (vendor down, breaker open): it will be tried again later.
   * A deferred start gives its attempt back: attempts count lost workers, not vendor outages.
   */
  async release(id: string, worker: string, update: { status: RequestStatus; nextCheckAtMs: number; refundAttempt: boolean }): Promise<boolean> {
    const changed = await this.knex('requests')
      .where({ id, status: 'processing', lease_owner: worker })
      .update({
        status: update.status,
        lease_owner: null,
        lease_expires_at_ms: null,
        next_check_at_ms: update.nextCheckAtMs,
        attempts: update.refundAttempt ? this.knex.raw('attempts - 1') : this.knex.raw('attempts'),
      });
    return changed === 1;
  }

  /**
   * Terminal transition, inside the caller's transaction (with the credit settlement).
   * Only the lease holder can finish; returns false when someone else already did.
   */
  async finish(
    db: Executor,
    id: string,
    worker: string,
    result: { status: 'succeeded' | 'failed'; output: JsonObject | null; errorMessage: string | null; completedAtMs: number; billableCredits?: number },
  ): Promise<boolean> {
    const changed = await db('requests')
      .where({ id, lease_owner: worker })
      .whereIn('status', ['queued', 'processing'])
      .update({
        status: result.status,
        output: result.output ? JSON.stringify(result.output) : null,
        error_message: result.errorMessage,
        completed_at_ms: result.completedAtMs,
        started_at_ms: db.raw('COALESCE(started_at_ms, ?)', [result.completedAtMs]),
        lease_owner: null,
        lease_expires_at_ms: null,
        next_check_at_ms: null,
        ...(result.billableCredits !== undefined ? { billable_credits: result.billableCredits } : {}),
      });
    return changed === 1;
  }

  /**
   * Requests the sweeper must put back on the queue: due for a check and held by nobody, or held by a
   * worker whose lease ran out. `graceMs` leaves time for the job that is normally on its way.
   */
  async findNeedingAttention(nowMs: number, graceMs: number, limit: number): Promise<RequestRecord[]> {
    const rows = await this.knex('requests')
      .whereIn('status', ['queued', 'processing'])
      .andWhere((where) =>
        where
          .where((due) => due.whereNull('lease_owner').andWhere('next_check_at_ms', '<=', nowMs - graceMs))
          .orWhere((expired) => expired.whereNotNull('lease_owner').andWhere('lease_expires_at_ms', '<', nowMs)),
      )
      .orderBy('created_at_ms')
      .limit(limit);
    return rows.map(toRequestRecord);
  }

  /** Pushes a request's next expected check forward, so one sweep does not republish it again at once. */
  async postponeCheck(id: string, expected: number | null, nextCheckAtMs: number): Promise<void> {
    const query = this.knex('requests').where({ id }).whereNull('lease_owner');
    if (expected === null) query.whereNull('next_check_at_ms');
    else query.where({ next_check_at_ms: expected });
    await query.update({ next_check_at_ms: nextCheckAtMs });
  }
}
