/**
 * Request rows and their state transitions. Every transition is a conditional UPDATE whose WHERE clause
 * states the state it expects, so two workers (or a redelivered job) can never both win a transition:
 * the loser sees 0 rows changed and walks away.
 */
import type { JsonObject, ProviderTask } from '../plugin-sdk/index.js';
import type { RequestRecord, RequestStatus, RequestViewRecord } from './records.js';
import { paddedIdList } from './id-lists.js';
import { parseKnownRow, type KnownRow } from './known-rows.js';
import { requestViewColumns, toRequestRecord, toRequestViewRecord } from './row-mapping.js';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';

// The hottest statements are built once: executors cache prepared statements by their text, and a text built
// per call is a new string to flatten and hash on every request.
const viewForKeySql = `SELECT ${requestViewColumns} FROM requests WHERE id = ? AND api_key_id = ?`;
const claimSql = (taskCondition: 'NULL' | 'NOT NULL') => `UPDATE requests
    SET status = 'processing', started_at_ms = COALESCE(started_at_ms, ?), lease_owner = ?, lease_expires_at_ms = ?,
        attempts = attempts + ?, next_check_at_ms = NULL
  WHERE id = ? AND task IS ${taskCondition}
    AND (status = 'queued' OR (status = 'processing' AND (lease_owner IS NULL OR lease_expires_at_ms < ?)))`;
const claimSqlByPhase = { start: claimSql('NULL'), poll: claimSql('NOT NULL') };
/**
 * The first claim of a request as its admission wrote it (claimStartOf): every claim sets `started_at_ms`, so a
 * `queued` row without one was never claimed, and nothing but a claim writes the columns a worker reads.
 */
const claimAdmittedSql = `UPDATE requests
    SET status = 'processing', started_at_ms = ?, lease_owner = ?, lease_expires_at_ms = ?, attempts = 1, next_check_at_ms = NULL
  WHERE id = ? AND status = 'queued' AND started_at_ms IS NULL`;
const claimPollNumberSql = `${claimSqlByPhase.poll} AND poll_count = ?`;
/** claimSql's parameters, in its order; a poll pinned to its number adds `poll_count` (claimPollNumberSql). */
const claimParams = (id: string, worker: string, nowMs: number, leaseExpiresAtMs: number, phase: 'start' | 'poll') => [nowMs, worker, leaseExpiresAtMs, phase === 'start' ? 1 : 0, id, nowMs];
/** The claims that answer the claimed row themselves, where the dialect can (SqlDatabase.updateReturning). */
const returningRow = (sql: string) => `${sql} RETURNING *`;
const claimReturningSqlByPhase = { start: returningRow(claimSqlByPhase.start), poll: returningRow(claimSqlByPhase.poll) };
const claimPollNumberReturningSql = returningRow(claimPollNumberSql);

const backlogSummarySql = `SELECT status, provider, COUNT(*) AS requests, COUNT(task) AS vendor_tasks, MIN(created_at_ms) AS oldest_created_at_ms
  FROM requests WHERE status IN ('queued', 'processing') GROUP BY status, provider`;

/** One group of `backlogSummary()`. */
export interface BacklogGroup {
  status: 'queued' | 'processing';
  provider: string | null;
  requests: number;
  vendorTasks: number;
  oldestCreatedAtMs: number;
}

export interface NewRequest {
  id: string;
  accountId: string;
  apiKeyId: string;
  operation: string;
  model: string;
  billableCredits: number;
  input: JsonObject;
  /** `input` already serialised, when the caller had to serialise it anyway. */
  inputJson?: string;
  webhookUrl: string | null;
  createdAtMs: number;
  /** The create's W3C traceparent; only when tracing is on (docs/tracing.md). */
  traceContext?: string;
}

/** What recordTask writes. */
export interface TaskUpdate {
  provider: string;
  task: ProviderTask;
  output: JsonObject;
  nextCheckAtMs: number;
  pollCount?: number;
}

/** Either the database or an open transaction on it. */
export type Executor = SqlExecutor;

/** A vendor poll waiting for its due time (RequestStore.findWaitingPolls). */
export interface WaitingPoll {
  id: string;
  pollCount: number;
  dueAtMs: number;
  traceContext: string | null;
}

export class RequestStore {
  constructor(private readonly db: SqlDatabase) {}

  async insert(db: Executor, request: NewRequest): Promise<void> {
    await this.insertMany(db, [request]);
  }

  /** Several new `queued` requests in one multi-row statement (request admission writes them in batches). */
  async insertMany(db: Executor, requests: readonly NewRequest[]): Promise<void> {
    if (requests.length === 0) return;
    // The trace column is written only by a process that traces, in the same statement: with tracing off the
    // statement is the one from before the column existed.
    const traced = requests.some((request) => request.traceContext !== undefined);
    const params: unknown[] = [];
    for (const request of requests) {
      params.push(request.id, request.accountId, request.apiKeyId, request.operation, request.model, request.billableCredits, request.inputJson ?? JSON.stringify(request.input), request.webhookUrl, request.createdAtMs, request.createdAtMs);
      if (traced) params.push(request.traceContext ?? null);
    }
    const row = traced ? "(?, ?, ?, ?, ?, 'queued', ?, ?, NULL, ?, ?, ?, 0, 0, ?)" : "(?, ?, ?, ?, ?, 'queued', ?, ?, NULL, ?, ?, ?, 0, 0)";
    await db.run(
      `INSERT INTO requests (id, account_id, api_key_id, operation, model, status, billable_credits, input, output, webhook_url, created_at_ms, next_check_at_ms, attempts, poll_count${traced ? ', trace_context' : ''})
       VALUES ${requests.map(() => row).join(', ')}`,
      params,
    );
  }

  async get(id: string, db: Executor = this.db): Promise<RequestRecord | undefined> {
    const row = await db.first('SELECT * FROM requests WHERE id = ?', [id]);
    return row ? toRequestRecord(row) : undefined;
  }

  /** A request as its creating API key sees it; another key's request does not exist for it. */
  async getForKey(id: string, apiKeyId: string): Promise<RequestRecord | undefined> {
    const row = await this.db.first('SELECT * FROM requests WHERE id = ? AND api_key_id = ?', [id, apiKeyId]);
    return row ? toRequestRecord(row) : undefined;
  }

  /** The poll answer's columns only: half the row, and the hottest read of the API. */
  async viewForKey(id: string, apiKeyId: string): Promise<RequestViewRecord | undefined> {
    const row = await this.db.first(viewForKeySql, [id, apiKeyId]);
    return row ? toRequestViewRecord(row) : undefined;
  }

  /**
   * Several requests' views in one statement: a process's long polls and event streams re-read what changed in one
   * batch (lifecycle/request-watches.ts).
   */
  async viewMany(ids: readonly string[]): Promise<RequestViewRecord[]> {
    if (ids.length === 0) return [];
    const { placeholders, params } = paddedIdList(ids);
    const rows = await this.db.all(`SELECT ${requestViewColumns} FROM requests WHERE id IN (${placeholders})`, params);
    return rows.map(toRequestViewRecord);
  }

  /**
   * An API key's requests, newest first, for list pages: `startingAfter` is the last id of the previous
   * page (ids sort by creation time, so the id is the cursor). Scoped to the key, like polling: a list must
   * not show ids its caller could not read.
   */
  async listForKey(
    apiKeyId: string,
    filter: { status?: RequestStatus; operation?: string; createdFromMs?: number; createdToMs?: number; startingAfter?: string; limit: number },
  ): Promise<RequestRecord[]> {
    const where = ['api_key_id = ?'];
    const params: unknown[] = [apiKeyId];
    if (filter.status) (where.push('status = ?'), params.push(filter.status));
    if (filter.operation) (where.push('operation = ?'), params.push(filter.operation));
    if (filter.createdFromMs !== undefined) (where.push('created_at_ms >= ?'), params.push(filter.createdFromMs));
    if (filter.createdToMs !== undefined) (where.push('created_at_ms < ?'), params.push(filter.createdToMs));
    if (filter.startingAfter) (where.push('id < ?'), params.push(filter.startingAfter));
    const rows = await this.db.all(`SELECT * FROM requests WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${Math.max(1, Math.floor(filter.limit))}`, params);
    return rows.map(toRequestRecord);
  }

  /**
   * An account's requests (whichever key or token made them), newest first, for the console's request log.
   * Served by the (account_id, created_at_ms) index; `createdFromMs` bounds the log to its window.
   */
  async listForAccount(
    accountId: string,
    filter: { status?: RequestStatus; operation?: string; createdFromMs: number; limit: number },
  ): Promise<RequestRecord[]> {
    const where = ['account_id = ?', 'created_at_ms >= ?'];
    const params: unknown[] = [accountId, filter.createdFromMs];
    if (filter.status) (where.push('status = ?'), params.push(filter.status));
    if (filter.operation) (where.push('operation = ?'), params.push(filter.operation));
    const rows = await this.db.all(`SELECT * FROM requests WHERE ${where.join(' AND ')} ORDER BY created_at_ms DESC, id DESC LIMIT ${Math.max(1, Math.floor(filter.limit))}`, params);
    return rows.map(toRequestRecord);
  }

  /** A request as a member of its account sees it; another account's request does not exist for them. */
  async getForAccount(id: string, accountId: string): Promise<RequestRecord | undefined> {
    const row = await this.db.first('SELECT * FROM requests WHERE id = ? AND account_id = ?', [id, accountId]);
    return row ? toRequestRecord(row) : undefined;
  }

  /**
   * queued -> processing, or takes over a `processing` request that nobody holds (a re-poll is due) or
   * whose lease expired (its worker died). `phase` pins what the caller expects: `start` only claims a
   * request without a vendor task (so a task is never submitted twice), `poll` only one with a task.
   * Start claims count an attempt; startedAtMs keeps the first start. `pollCount` pins a poll claim to one poll:
   * it claims nothing once the request is past it.
   */
  async claim(id: string, worker: string, nowMs: number, leaseMs: number, phase: 'start' | 'poll', pollCount?: number): Promise<RequestRecord | undefined> {
    const params = claimParams(id, worker, nowMs, nowMs + leaseMs, phase);
    const pinned = phase === 'poll' && pollCount !== undefined;
    const args = pinned ? [...params, pollCount] : params;
    // One statement where the dialect returns the updated row (SQLite), else the UPDATE and a read of the row.
    if (this.db.updateReturning) {
      const row = await this.db.updateReturning(pinned ? claimPollNumberReturningSql : claimReturningSqlByPhase[phase], args);
      return row ? toRequestRecord(row) : undefined;
    }
    const { changes } = await this.db.run(pinned ? claimPollNumberSql : claimSqlByPhase[phase], args);
    return changes === 1 ? this.get(id) : undefined;
  }

  /**
   * The start claim of a worker handed the row as its admission wrote it (admittedRow, carried by the start job):
   * pinned to a request never claimed before, so the claimed record is that row with the claim's own changes and no
   * read follows the UPDATE, on MariaDB too. Anything else (a redelivered job whose first claim went through, a
   * deferred start, a finished request) claims nothing here; the caller then claims as it would without the row.
   */
  async claimStartOf(requestId: string, admitted: KnownRow, worker: string, nowMs: number, leaseMs: number): Promise<RequestRecord | undefined> {
    const known = parseKnownRow(admitted);
    // A row that is not this request's (a mangled message) is no row: the caller claims as without one.
    if (known?.id !== requestId) return undefined;
    const leaseExpiresAtMs = nowMs + leaseMs;
    const { changes } = await this.db.run(claimAdmittedSql, [nowMs, worker, leaseExpiresAtMs, requestId]);
    if (changes !== 1) return undefined;
    known.status = 'processing';
    known.startedAtMs = nowMs;
    known.leaseOwner = worker;
    known.leaseExpiresAtMs = leaseExpiresAtMs;
    known.attempts = 1;
    known.nextCheckAtMs = null;
    return known;
  }

  /**
   * The poll claim of a worker that knows the row: `knownRow` is what its own recordTask left (recordedTaskRow), and the
   * claim is pinned to that poll (`poll_count`), so it succeeds only while the row is still that one. Nothing else
   * writes a request's columns between that update and the poll's claim: every other transition either needs the
   * lease (which the claim takes only when nobody holds it) and ends in a finish or a later poll (which the pin or
   * the status refuses), or touches only the lease and the due time, which the claim sets itself. So the claimed
   * record is the known row with the claim's own changes, and no read follows the UPDATE, on MariaDB too.
   */
  async claimPollOf(knownRow: KnownRow, worker: string, nowMs: number, leaseMs: number): Promise<RequestRecord | undefined> {
    const known = JSON.parse(knownRow) as RequestRecord;
    const leaseExpiresAtMs = nowMs + leaseMs;
    const { changes } = await this.db.run(claimPollNumberSql, [...claimParams(known.id, worker, nowMs, leaseExpiresAtMs, 'poll'), known.pollCount]);
    if (changes !== 1) return undefined;
    known.status = 'processing';
    known.startedAtMs ??= nowMs;
    known.leaseOwner = worker;
    known.leaseExpiresAtMs = leaseExpiresAtMs;
    known.nextCheckAtMs = null;
    return known;
  }

  /** Heartbeat of a worker still busy with a request: pushes its lease forward. False when it lost the lease. */
  async extendLease(id: string, worker: string, leaseExpiresAtMs: number): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE requests SET lease_expires_at_ms = ? WHERE id = ? AND lease_owner = ? AND status = 'processing'`, [leaseExpiresAtMs, id, worker]);
    return changes === 1;
  }

  /**
   * What a client sees while a start runs (`output`: task_id, status, provider, model), written as the
   * worker calls a provider. Only the lease holder of a `processing` request writes it, so a late write can
   * never overwrite a stored task's output or a finished request.
   */
  async recordStartAttempt(id: string, worker: string, output: JsonObject): Promise<boolean> {
    const { changes } = await this.db.run(`UPDATE requests SET output = ? WHERE id = ? AND status = 'processing' AND lease_owner = ? AND task IS NULL`, [JSON.stringify(output), id, worker]);
    return changes === 1;
  }

  /**
   * Records, before a plugin sends a submission the vendor cannot dedupe, which provider it goes to: from
   * then on a job may exist, and a worker that takes the request over (this one died) must reconcile with
   * that provider instead of starting again. False when the caller no longer holds the request. `startOutput`:
   * the start attempt's output (recordStartAttempt), when it is written in the same statement.
   */
  async recordSubmission(id: string, worker: string, provider: string, startOutput?: JsonObject): Promise<boolean> {
    const { changes } = startOutput
      ? await this.db.run(`UPDATE requests SET provider = ?, output = ? WHERE id = ? AND status = 'processing' AND lease_owner = ? AND task IS NULL`, [provider, JSON.stringify(startOutput), id, worker])
      : await this.db.run(`UPDATE requests SET provider = ? WHERE id = ? AND status = 'processing' AND lease_owner = ? AND task IS NULL`, [provider, id, worker]);
    return changes === 1;
  }

  /** Stores the vendor task so any worker can poll it later, and hands the lease back. */
  async recordTask(id: string, worker: string, update: TaskUpdate): Promise<boolean> {
    const { changes } = await this.db.run(
      `UPDATE requests SET provider = ?, task = ?, output = ?, poll_count = ?, lease_owner = NULL, lease_expires_at_ms = NULL, next_check_at_ms = ?
        WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
      [update.provider, JSON.stringify(update.task), JSON.stringify(update.output), update.pollCount ?? 0, update.nextCheckAtMs, id, worker],
    );
    return changes === 1;
  }

  /**
   * Hands a request back without finishing it (vendor down, breaker open): it will be tried again later.
   * A deferred start gives its attempt back: attempts count lost workers, not vendor outages.
   * `forgetStart` drops the start attempt's output and submission record (no vendor job exists); a request
   * still to be reconciled keeps them, and keeps its attempt, so the next claim reconciles again.
   */
  async release(id: string, worker: string, update: { status: RequestStatus; nextCheckAtMs: number; refundAttempt: boolean; forgetStart?: boolean }): Promise<boolean> {
    const forget = update.forgetStart ? ', output = NULL, provider = NULL' : '';
    const { changes } = await this.db.run(
      `UPDATE requests SET status = ?, lease_owner = NULL, lease_expires_at_ms = NULL, next_check_at_ms = ?, attempts = attempts - ?${forget}
        WHERE id = ? AND status = 'processing' AND lease_owner = ?`,
      [update.status, update.nextCheckAtMs, update.refundAttempt ? 1 : 0, id, worker],
    );
    return changes === 1;
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
    const { changes } = await db.run(
      `UPDATE requests
          SET status = ?, output = ?, error_message = ?, completed_at_ms = ?, started_at_ms = COALESCE(started_at_ms, ?),
              lease_owner = NULL, lease_expires_at_ms = NULL, next_check_at_ms = NULL, billable_credits = COALESCE(?, billable_credits)
        WHERE id = ? AND lease_owner = ? AND status IN ('queued', 'processing')`,
      [
        result.status,
        result.output ? JSON.stringify(result.output) : null,
        result.errorMessage,
        result.completedAtMs,
        result.completedAtMs,
        result.billableCredits ?? null,
        id,
        worker,
      ],
    );
    return changes === 1;
  }

  /**
   * Requests the sweeper must put back on the queue: due for a check and held by nobody, or held by a
   * worker whose lease ran out. `graceMs` leaves time for the job that is normally on its way. `skipWaitingPolls`
   * leaves out unleased rows with a vendor task (a starting worker that adopted them, Sweeper.startUp).
   */
  async findNeedingAttention(nowMs: number, graceMs: number, limit: number, { skipWaitingPolls = false } = {}): Promise<RequestRecord[]> {
    const rows = await this.db.all(
      `SELECT * FROM requests
        WHERE status IN ('queued', 'processing')
          AND ((lease_owner IS NULL AND next_check_at_ms <= ?${skipWaitingPolls ? ' AND task IS NULL' : ''}) OR (lease_owner IS NOT NULL AND lease_expires_at_ms < ?))
        ORDER BY created_at_ms
        LIMIT ${Math.max(1, Math.floor(limit))}`,
      [nowMs - graceMs, nowMs],
    );
    return rows.map(toRequestRecord);
  }

  /**
   * Vendor polls waiting for their due time and held by nobody, due after `afterMs` (or at it, past `afterId`): a page
   * in due-time order, for a starting worker to schedule (Sweeper.adoptWaitingPolls). Reads the (status,
   * next_check_at_ms) index.
   */
  async findWaitingPolls(after: { dueAtMs: number; id: string }, limit: number): Promise<WaitingPoll[]> {
    const rows = await this.db.all(
      `SELECT id, poll_count, next_check_at_ms, trace_context FROM requests
        WHERE status = 'processing' AND task IS NOT NULL AND lease_owner IS NULL
          AND (next_check_at_ms > ? OR (next_check_at_ms = ? AND id > ?))
        ORDER BY next_check_at_ms, id
        LIMIT ${Math.max(1, Math.floor(limit))}`,
      [after.dueAtMs, after.dueAtMs, after.id],
    );
    return rows.map((row) => ({ id: row.id as string, pollCount: Number(row.poll_count), dueAtMs: Number(row.next_check_at_ms), traceContext: (row.trace_context as string | null) ?? null }));
  }

  /**
   * The unfinished requests for the metrics, per status and provider: how many, how many hold a vendor task, and
   * the oldest create time. One range scan of a status-leading index over unfinished rows only (finished rows,
   * nearly the whole table, are never read); run on a timer, never per request.
   */
  async backlogSummary(): Promise<BacklogGroup[]> {
    const rows = await this.db.all(backlogSummarySql);
    return rows.map((row) => ({
      status: row.status as BacklogGroup['status'],
      provider: (row.provider as string | null) ?? null,
      requests: Number(row.requests),
      vendorTasks: Number(row.vendor_tasks),
      oldestCreatedAtMs: Number(row.oldest_created_at_ms),
    }));
  }

  /**
   * Records that the client asked to cancel a request that another process is working on (cancel-request.ts), so
   * a worker told of it over the cancel notices reads the request from the store before stopping a start: the store,
   * not a broker message, says that the client wants it stopped. The first request's time is kept. False when the
   * request is already finished.
   */
  async requestCancel(id: string, nowMs: number): Promise<boolean> {
    const { changes } = await this.db.run(
      `UPDATE requests SET cancel_requested_at_ms = COALESCE(cancel_requested_at_ms, ?) WHERE id = ? AND status IN ('queued', 'processing')`,
      [nowMs, id],
    );
    return changes === 1;
  }

  /** Of these requests, the ones a client asked to cancel that are not finished yet. */
  async withCancelRequested(ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<{ id: string }>(
      `SELECT id FROM requests WHERE id IN (${ids.map(() => '?').join(', ')}) AND cancel_requested_at_ms IS NOT NULL AND status IN ('queued', 'processing')`,
      [...ids],
    );
    return rows.map((row) => row.id);
  }

  /** Finished requests whose input and output are past retention and still stored (oldest first). */
  async findPastRetention(createdBeforeMs: number, limit: number): Promise<{ id: string }[]> {
    return this.db.all<{ id: string }>(
      `SELECT id FROM requests WHERE created_at_ms < ? AND data_removed_at_ms IS NULL AND status IN ('succeeded', 'failed') ORDER BY created_at_ms LIMIT ${Math.max(1, Math.floor(limit))}`,
      [createdBeforeMs],
    );
  }

  /** Drops a request's input and output, keeping the row (status, credits, times) with a removal marker. */
  async removeData(id: string, atMs: number): Promise<boolean> {
    const { changes } = await this.db.run(
      `UPDATE requests SET input = NULL, output = NULL, data_removed_at_ms = ? WHERE id = ? AND data_removed_at_ms IS NULL AND status IN ('succeeded', 'failed')`,
      [atMs, id],
    );
    return changes === 1;
  }

  /** Pushes a request's next expected check forward, so one sweep does not republish it again at once. */
  async postponeCheck(id: string, expected: number | null, nextCheckAtMs: number): Promise<void> {
    if (expected === null) {
      await this.db.run('UPDATE requests SET next_check_at_ms = ? WHERE id = ? AND lease_owner IS NULL AND next_check_at_ms IS NULL', [nextCheckAtMs, id]);
    } else {
      await this.db.run('UPDATE requests SET next_check_at_ms = ? WHERE id = ? AND lease_owner IS NULL AND next_check_at_ms = ?', [nextCheckAtMs, id, expected]);
    }
  }
}
