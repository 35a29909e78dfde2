/**
 * Accounts, API keys and the credit ledger. The balance on `accounts` is the fast path (a guarded
 * UPDATE, no read-modify-write); the ledger is the audit trail, and its unique (request_id, kind)
 * index makes a second debit or refund of one request impossible rather than unlikely.
 */
import { paddedIdList } from './id-lists.js';
import { writeLastUses } from './last-uses.js';
import type { Executor } from './request-store.js';
import type { AccountRecord, ApiKeyRecord, Scope } from './records.js';
import { toAccountRecord, toApiKeyRecord } from './row-mapping.js';
import type { SqlDatabase } from './sql-executor.js';

export type LedgerKind = 'grant' | 'debit' | 'refund' | 'adjust';

export interface LedgerEntry {
  accountId: string;
  requestId: string | null;
  kind: LedgerKind;
  amount: number;
  note?: string;
  atMs: number;
}

/** Credits an admission takes from one account (request-admissions.ts). */
export interface AccountDebit {
  accountId: string;
  amount: number;
}

/** A request's ledger entry as its detail shows it: every column but the entry's own id. */
const requestEntryColumns = 'request_id, account_id, kind, amount, note, created_at_ms';
const toRequestEntry = (row: Record<string, unknown>): LedgerEntry => ({
  accountId: String(row.account_id),
  requestId: String(row.request_id),
  kind: row.kind as LedgerKind,
  amount: Number(row.amount),
  note: (row.note as string | null) ?? undefined,
  atMs: Number(row.created_at_ms),
});

export class AccountStore {
  constructor(readonly db: SqlDatabase) {}

  async createAccount(account: AccountRecord): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.run('INSERT INTO accounts (id, email, plan, credits_balance, created_at_ms) VALUES (?, ?, ?, ?, ?)', [
        account.id,
        account.email,
        account.plan,
        account.creditsBalance,
        account.createdAtMs,
      ]);
      if (account.creditsBalance > 0) {
        await this.appendLedger(tx, { accountId: account.id, requestId: null, kind: 'grant', amount: account.creditsBalance, note: 'opening balance', atMs: account.createdAtMs });
      }
    });
  }

  async getAccount(id: string, db: Executor = this.db): Promise<AccountRecord | undefined> {
    const row = await db.first('SELECT * FROM accounts WHERE id = ?', [id]);
    return row ? toAccountRecord(row) : undefined;
  }

  async countAccounts(): Promise<number> {
    const row = await this.db.first<{ n: number }>('SELECT COUNT(*) AS n FROM accounts');
    return Number(row?.n ?? 0);
  }

  async insertApiKey(key: ApiKeyRecord & { keyHash: string }): Promise<void> {
    await this.db.run(
      'INSERT INTO api_keys (id, account_id, name, key_hash, key_prefix, scopes, created_at_ms, last_used_at_ms, revoked_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, NULL, NULL)',
      [key.id, key.accountId, key.name, key.keyHash, key.keyPrefix, JSON.stringify(key.scopes), key.createdAtMs],
    );
  }

  async findApiKeyByHash(keyHash: string): Promise<(ApiKeyRecord & { keyHash: string }) | undefined> {
    const row = await this.db.first('SELECT * FROM api_keys WHERE key_hash = ?', [keyHash]);
    return row ? { ...toApiKeyRecord(row), keyHash: String(row.key_hash) } : undefined;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.db.all('SELECT * FROM api_keys ORDER BY created_at_ms');
    return rows.map(toApiKeyRecord);
  }

  /** An account's keys, newest first, revoked ones included (the console shows when they were revoked). */
  async listApiKeysOfAccount(accountId: string): Promise<ApiKeyRecord[]> {
    const rows = await this.db.all('SELECT * FROM api_keys WHERE account_id = ? ORDER BY created_at_ms DESC, id DESC', [accountId]);
    return rows.map(toApiKeyRecord);
  }

  async getApiKeyOfAccount(id: string, accountId: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.first('SELECT * FROM api_keys WHERE id = ? AND account_id = ?', [id, accountId]);
    return row ? toApiKeyRecord(row) : undefined;
  }

  /** Revokes one key of one account by id: another account's key id changes nothing. */
  async revokeApiKeyOfAccount(id: string, accountId: string, atMs: number): Promise<number> {
    const { changes } = await this.db.run('UPDATE api_keys SET revoked_at_ms = ? WHERE id = ? AND account_id = ? AND revoked_at_ms IS NULL', [atMs, id, accountId]);
    return changes;
  }

  async revokeApiKey(idOrPrefix: string, atMs: number): Promise<number> {
    const { changes } = await this.db.run('UPDATE api_keys SET revoked_at_ms = ? WHERE (id = ? OR key_prefix = ?) AND revoked_at_ms IS NULL', [atMs, idOrPrefix, idOrPrefix]);
    return changes;
  }

  /** Records the last use of keys, each by its id, in one statement (accounts/last-use-recorder.ts gathers them). */
  async touchApiKeys(uses: ReadonlyMap<string, number>, resolutionMs: number): Promise<void> {
    await writeLastUses(this.db, 'api_keys', uses, resolutionMs);
  }

  /** Takes `amount` credits if the balance covers it; false (and nothing written) when it does not. */
  async debit(db: Executor, accountId: string, amount: number): Promise<boolean> {
    if (amount === 0) return true;
    const { changes } = await db.run('UPDATE accounts SET credits_balance = credits_balance - ? WHERE id = ? AND credits_balance >= ?', [amount, accountId, amount]);
    return changes === 1;
  }

  /**
   * The admission's debit: takes each account's `amount` (even 0) only if every balance covers its amount AND none
   * of `apiKeyIds` is revoked, in one statement for all the accounts of a batch. Checking the keys here, inside the
   * admission transaction, is what makes a revocation bind creates at once in every process, whatever their key
   * caches hold, at no extra round trip. False when any check fails, and the caller rolls the transaction back
   * (`revokedKeyIds` and `debit` then tell which); the statement may have debited the accounts that passed.
   * One statement rather than one per account: InnoDB locks the rows of `id IN (...)` in key order, so two API
   * processes debiting overlapping accounts queue instead of deadlocking, and the lock is held one round trip.
   */
  async debitForKeys(db: Executor, debits: readonly AccountDebit[], apiKeyIds: readonly string[]): Promise<boolean> {
    // Without keys to check, a zero debit has nothing to check either (as `debit`).
    const charged = apiKeyIds.length === 0 ? debits.filter((debit) => debit.amount !== 0) : debits;
    if (charged.length === 0) return true;
    const keyCheck = apiKeyIds.length === 0 ? '' : ` AND NOT EXISTS (SELECT 1 FROM api_keys WHERE id IN (${apiKeyIds.map(() => '?').join(', ')}) AND revoked_at_ms IS NOT NULL)`;
    const amountOfRow = `CASE id ${charged.map(() => 'WHEN ? THEN ?').join(' ')} END`;
    const amounts = charged.flatMap(({ accountId, amount }) => [accountId, amount]);
    const { changes } = await db.run(
      `UPDATE accounts SET credits_balance = credits_balance - ${amountOfRow}
        WHERE id IN (${charged.map(() => '?').join(', ')}) AND credits_balance >= ${amountOfRow}${keyCheck}`,
      [...amounts, ...charged.map((debit) => debit.accountId), ...amounts, ...apiKeyIds],
    );
    return changes === charged.length;
  }

  /** Which of `apiKeyIds` are revoked (the slow path after a refused admission debit). */
  async revokedKeyIds(db: Executor, apiKeyIds: readonly string[]): Promise<Set<string>> {
    if (apiKeyIds.length === 0) return new Set();
    const rows = await db.all<{ id: string }>(`SELECT id FROM api_keys WHERE id IN (${apiKeyIds.map(() => '?').join(', ')}) AND revoked_at_ms IS NOT NULL`, [...apiKeyIds]);
    return new Set(rows.map((row) => row.id));
  }

  async credit(db: Executor, accountId: string, amount: number): Promise<void> {
    if (amount === 0) return;
    await db.run('UPDATE accounts SET credits_balance = credits_balance + ? WHERE id = ?', [amount, accountId]);
  }

  async appendLedger(db: Executor, entry: LedgerEntry): Promise<void> {
    await this.appendLedgerMany(db, [entry]);
  }

  /** Several ledger entries in one multi-row statement. */
  async appendLedgerMany(db: Executor, entries: readonly LedgerEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const params: unknown[] = [];
    for (const entry of entries) params.push(entry.accountId, entry.requestId, entry.kind, entry.amount, entry.note ?? null, entry.atMs);
    await db.run(`INSERT INTO credit_ledger (account_id, request_id, kind, amount, note, created_at_ms) VALUES ${entries.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`, params);
  }

  /** Sum of ledger entries per account: equals the balance when the books are consistent. */
  async ledgerTotal(accountId: string): Promise<number> {
    const row = await this.db.first<{ total: number | string | null }>('SELECT SUM(amount) AS total FROM credit_ledger WHERE account_id = ?', [accountId]);
    return Number(row?.total ?? 0);
  }

  /** An account's ledger, newest first; `beforeId` is the last entry id of the previous page. */
  async listLedger(accountId: string, page: { beforeId?: number; limit: number }): Promise<(LedgerEntry & { id: number })[]> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (page.beforeId !== undefined) (where.push('id < ?'), params.push(page.beforeId));
    const rows = await this.db.all<Record<string, unknown>>(`SELECT * FROM credit_ledger WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ${Math.max(1, Math.floor(page.limit))}`, params);
    return rows.map((row) => ({
      id: Number(row.id),
      accountId: String(row.account_id),
      requestId: (row.request_id as string | null) ?? null,
      kind: row.kind as LedgerKind,
      amount: Number(row.amount),
      note: (row.note as string | null) ?? undefined,
      atMs: Number(row.created_at_ms),
    }));
  }

  /**
   * One request's entries (its debit, then a refund or a settlement), oldest first. The lookup runs on the
   * (request_id, kind) unique index, so a request's detail costs one indexed read more than its poll row.
   */
  async listRequestLedger(requestId: string, db: Executor = this.db): Promise<LedgerEntry[]> {
    const rows = await db.all<Record<string, unknown>>(`SELECT ${requestEntryColumns} FROM credit_ledger WHERE request_id = ? ORDER BY id`, [requestId]);
    return rows.map(toRequestEntry);
  }

  /**
   * Several requests' entries in one statement, each request's oldest first, keyed by request id (a request with no
   * entries has no key): the details of requests that finished together, answered to the long polls and streams
   * their change woke (credits/request-ledgers.ts).
   */
  async listRequestLedgers(requestIds: readonly string[]): Promise<Map<string, LedgerEntry[]>> {
    const byRequest = new Map<string, LedgerEntry[]>();
    if (requestIds.length === 0) return byRequest;
    const { placeholders, params } = paddedIdList(requestIds);
    const rows = await this.db.all<Record<string, unknown>>(`SELECT ${requestEntryColumns} FROM credit_ledger WHERE request_id IN (${placeholders}) ORDER BY id`, params);
    for (const row of rows) {
      const entry = toRequestEntry(row);
      const entries = byRequest.get(entry.requestId!);
      if (entries) entries.push(entry);
      else byRequest.set(entry.requestId!, [entry]);
    }
    return byRequest;
  }

  async grantCredits(accountId: string, amount: number, note: string, atMs: number): Promise<void> {
    await this.db.transaction(async (tx) => {
      await this.credit(tx, accountId, amount);
      await this.appendLedger(tx, { accountId, requestId: null, kind: 'grant', amount, note, atMs });
    });
  }
}

export type { Scope };
