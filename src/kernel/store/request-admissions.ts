/**
 * Admission: a new `queued` request row, the guarded debit that pays for it, its ledger entry and its
 * idempotency completion, written in one transaction, so a request never exists unpaid and credits are
 * never taken for nothing. The debit is also guarded by the API keys of the batch: a key revoked before
 * the transaction admits nothing, in any process, whatever that process's key cache still holds.
 *
 * Admissions that arrive together are written together: one multi-row INSERT of requests, one of ledger
 * entries, then one guarded UPDATE of every account of the batch, each for its part of the batch's total. On a
 * server database every create of an account queues on that account's row lock until the COMMIT, so what bounds
 * create throughput is the statements per batch (not per request) and how long the lock is held (measured on
 * MariaDB: five statements per create, debit first, capped one API process at ~450 creates/s; docs/BENCHMARKS.md).
 * When an account cannot cover the batch's total (or one of its keys is revoked), the batch is written
 * again debiting request by request in arrival order, and only those that do not fit (or whose key is
 * revoked) are refused. When the shared transaction fails (one bad row, a deadlock, a lost connection),
 * each admission is written again on its own, so one fault fails one request, and callers retry transient
 * errors as they would alone.
 */
import { tracing } from '../observability/tracing.js';
import type { AccountStore, LedgerEntry } from './account-store.js';
import type { IdempotencyStore } from './idempotency-store.js';
import { MicroBatcher, type Outcome } from './micro-batcher.js';
import { admittedRow, type KnownRow } from './known-rows.js';
import type { NewRequest, RequestStore } from './request-store.js';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';

export interface Admission {
  request: NewRequest;
  /** The idempotency key this create holds, completed with the response to replay. */
  idempotency?: { apiKeyId: string; key: string; response: { status: number; body: unknown } };
}

/** `known`: the row as written (admittedRow), for the start job; absent when the row is too large to carry. */
export type AdmissionResult = { admitted: true; known?: KnownRow } | { admitted: false; creditsBalance: number } | { admitted: false; keyRevoked: true };

export interface AdmissionStores {
  db: SqlDatabase;
  requests: RequestStore;
  accounts: AccountStore;
  idempotency: IdempotencyStore;
}

export class RequestAdmissions {
  private readonly batcher: MicroBatcher<Admission, AdmissionResult>;

  constructor(
    private readonly stores: AdmissionStores,
    options: { maxBatch?: number; maxInputBytes?: number } = {},
  ) {
    // One batch at a time: the next one gathers while this one commits, and they would queue on the
    // account row lock anyway. Inputs may be up to the body limit each, so a batch is also capped by the
    // size of its inputs, well under a server's packet limit (MySQL's max_allowed_packet defaults to 16-64 MB).
    this.batcher = new MicroBatcher((batch) => this.writeBatch(batch), {
      parallel: 1,
      maxBatch: options.maxBatch ?? 64,
      maxWeight: options.maxInputBytes ?? 4 * 1024 * 1024,
      weigh: (admission) => admission.request.inputJson?.length ?? 0,
    });
  }

  /** Resolves once the admission is committed (or refused for want of credits, with nothing written). */
  async admit(admission: Admission): Promise<AdmissionResult> {
    // Serialised once: the batch is capped by its size, and the insert sends it.
    const inputJson = admission.request.inputJson ?? JSON.stringify(admission.request.input);
    // Read here, in the create's own context: the batch is written later, in whichever create's context started it.
    const traceContext = tracing.enabled ? tracing.activeTraceparent() : undefined;
    // Object.assign, not `{ ...admission.request, inputJson }`: see toRequestRecord (row-mapping.ts) on Node 20's spreads.
    const request = Object.assign({}, admission.request, traceContext ? { inputJson, traceContext } : { inputJson });
    const result = await this.batcher.submit({ ...admission, request });
    if (!result.admitted) return result;
    const known = admittedRow(request);
    return known === undefined ? result : { admitted: true, known };
  }

  idle(): Promise<void> {
    return this.batcher.idle();
  }

  private async writeBatch(batch: Admission[]): Promise<Outcome<AdmissionResult>[]> {
    try {
      return (await this.write(batch)).map((value) => ({ ok: true, value }));
    } catch (error) {
      if (batch.length === 1) throw error;
      return Promise.all(
        batch.map((admission) =>
          this.write([admission]).then(
            ([value]): Outcome<AdmissionResult> => ({ ok: true, value }),
            (failure: unknown): Outcome<AdmissionResult> => ({ ok: false, error: failure }),
          ),
        ),
      );
    }
  }

  private async write(batch: Admission[]): Promise<AdmissionResult[]> {
    try {
      return await this.writeDebitingLast(batch);
    } catch (error) {
      if (!(error instanceof DebitRefused)) throw error;
      return this.writeDebitingEach(batch);
    }
  }

  /**
   * The common case, every account covers its total and every key is live: rows first, the debit last, so the
   * account rows are locked only from its UPDATE to the COMMIT right after it — the locks other API processes
   * queue on.
   */
  private writeDebitingLast(batch: Admission[]): Promise<AdmissionResult[]> {
    const { db, accounts } = this.stores;
    return db.transaction(async (tx) => {
      const debits = [...groupByAccount(batch)].map(([accountId, group]) => ({ accountId, amount: totalCredits(group) }));
      // Issued together, in this order: on MySQL one round trip for the batch's statements (coalescingOn in
      // mysql-statements.ts).
      const [, debited] = await Promise.all([this.insertRows(tx, batch), accounts.debitForKeys(tx, debits, keyIdsOf(batch))]);
      if (!debited) throw new DebitRefused();
      return batch.map((): AdmissionResult => ({ admitted: true }));
    });
  }

  /**
   * Some account is short or some key revoked: refuse the revoked keys' admissions, then debit request by
   * request, in arrival order, and admit only those that fit.
   */
  private writeDebitingEach(batch: Admission[]): Promise<AdmissionResult[]> {
    const { db, accounts } = this.stores;
    return db.transaction(async (tx) => {
      const revoked = await accounts.revokedKeyIds(tx, keyIdsOf(batch));
      const short = new Set<Admission>();
      for (const [accountId, group] of groupByAccount(batch.filter((admission) => !revoked.has(admission.request.apiKeyId)))) {
        for (const admission of group) {
          if (!(await accounts.debit(tx, accountId, admission.request.billableCredits))) short.add(admission);
        }
      }
      await this.insertRows(tx, batch.filter((admission) => !short.has(admission) && !revoked.has(admission.request.apiKeyId)));
      const balances = new Map<string, number>();
      for (const { request } of short) {
        if (!balances.has(request.accountId)) balances.set(request.accountId, (await accounts.getAccount(request.accountId, tx))?.creditsBalance ?? 0);
      }
      return batch.map((admission): AdmissionResult => {
        if (revoked.has(admission.request.apiKeyId)) return { admitted: false, keyRevoked: true };
        if (short.has(admission)) return { admitted: false, creditsBalance: balances.get(admission.request.accountId) ?? 0 };
        return { admitted: true };
      });
    });
  }

  /** Issues every statement at once (see writeDebitingLast): none needs another's answer. */
  private async insertRows(tx: SqlExecutor, admitted: Admission[]): Promise<void> {
    const { requests, accounts, idempotency } = this.stores;
    await Promise.all([
      requests.insertMany(tx, admitted.map((admission) => admission.request)),
      accounts.appendLedgerMany(tx, admitted.filter((admission) => admission.request.billableCredits > 0).map(debitEntry)),
      ...admitted.flatMap(({ request, idempotency: held }) => (held ? [idempotency.complete(tx, held.apiKeyId, held.key, { requestId: request.id, ...held.response })] : [])),
    ]);
  }
}

/** Rolls back the debit-last write: an account cannot cover its part of the batch, or a key is revoked. */
class DebitRefused extends Error {}

function totalCredits(group: Admission[]): number {
  return group.reduce((sum, admission) => sum + admission.request.billableCredits, 0);
}

function keyIdsOf(admissions: Admission[]): string[] {
  return [...new Set(admissions.map((admission) => admission.request.apiKeyId))];
}

function groupByAccount(batch: Admission[]): Map<string, Admission[]> {
  const groups = new Map<string, Admission[]>();
  for (const admission of batch) {
    const group = groups.get(admission.request.accountId);
    if (group) group.push(admission);
    else groups.set(admission.request.accountId, [admission]);
  }
  return groups;
}

function debitEntry({ request }: Admission): LedgerEntry {
  return { accountId: request.accountId, requestId: request.id, kind: 'debit', amount: -request.billableCredits, atMs: request.createdAtMs };
}
