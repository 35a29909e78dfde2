/**
 * Accounts, API keys and the credit ledger. The balance on `accounts` is the fast path (a guarded
 * UPDATE, no read-modify-write); the ledger is the audit trail, and its unique (request_id, kind)
 * index makes a second debit or refund of one request impossible rather than unlikely.
 */
import type { Knex } from 'knex';
import type { Executor } from './request-store.js';
import type { AccountRecord, ApiKeyRecord, Scope } from './records.js';
import { toAccountRecord, toApiKeyRecord } from './row-mapping.js';

export type LedgerKind = 'grant' | 'debit' | 'refund' | 'adjust';

export class AccountStore {
  constructor(private readonly knex: Knex) {}

  async createAccount(account: AccountRecord): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await trx('accounts').insert({
        id: account.id,
        email: account.email,
        plan: account.plan,
        credits_balance: account.creditsBalance,
        created_at_ms: account.createdAtMs,
      });
      if (account.creditsBalance > 0) {
        await this.appendLedger(trx, { accountId: account.id, requestId: null, kind: 'grant', amount: account.creditsBalance, note: 'opening balance', atMs: account.createdAtMs });
      }
    });
  }

  async getAccount(id: string, db: Executor = this.knex): Promise<AccountRecord | undefined> {
    const row = await db('accounts').where({ id }).first();
    return row ? toAccountRecord(row) : undefined;
  }

  async countAccounts(): Promise<number> {
    const row = await this.knex('accounts').count({ n: '*' }).first();
    return Number(row?.n ?? 0);
  }

  async insertApiKey(key: ApiKeyRecord & { keyHash: string }): Promise<void> {
    await this.knex('api_keys').insert({
      id: key.id,
      account_id: key.accountId,
      name: key.name,
      key_hash: key.keyHash,
      key_prefix: key.keyPrefix,
      scopes: JSON.stringify(key.scopes),
      created_at_ms: key.createdAtMs,
      last_used_at_ms: null,
      revoked_at_ms: null,
    });
  }

  async findApiKeyByHash(keyHash: string): Promise<(ApiKeyRecord & { keyHash: string }) | undefined> {
    const row = await this.knex('api_keys').where({ key_hash: keyHash }).first();
    return row ? { ...toApiKeyRecord(row), keyHash: String(row.key_hash) } : undefined;
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.knex('api_keys').orderBy('created_at_ms');
    return rows.map(toApiKeyRecord);
  }

  async revokeApiKey(idOrPrefix: string, atMs: number): Promise<number> {
    return this.knex('api_keys')
      .where((where) => where.where({ id: idOrPrefix }).orWhere({ key_prefix: idOrPrefix }))
      .whereNull('revoked_at_ms')
      .update({ revoked_at_ms: atMs });
  }

  /** Records use of a key, at most once per `resolutionMs`, so reads do not turn into a write each. */
  async touchApiKey(id: string, atMs: number, resolutionMs: number): Promise<void> {
    await this.knex('api_keys')
      .where({ id })
      .andWhere((where) => where.whereNull('last_used_at_ms').orWhere('last_used_at_ms', '<', atMs - resolutionMs))
      .update({ last_used_at_ms: atMs });
  }

  /** Takes `amount` credits if the balance covers it; false (and nothing written) when it does not. */
  async debit(db: Executor, accountId: string, amount: number): Promise<boolean> {
    if (amount === 0) return true;
    const changed = await db('accounts')
      .where({ id: accountId })
      .andWhere('credits_balance', '>=', amount)
      .update({ credits_balance: db.raw('credits_balance - ?', [amount]) });
    return changed === 1;
  }

  async credit(db: Executor, accountId: string, amount: number): Promise<void> {
    if (amount === 0) return;
    await db('accounts').where({ id: accountId }).update({ credits_balance: db.raw('credits_balance + ?', [amount]) });
  }

  async appendLedger(db: Executor, entry: { accountId: string; requestId: string | null; kind: LedgerKind; amount: number; note?: string; atMs: number }): Promise<void> {
    await db('credit_ledger').insert({
      account_id: entry.accountId,
      request_id: entry.requestId,
      kind: entry.kind,
      amount: entry.amount,
      note: entry.note ?? null,
      created_at_ms: entry.atMs,
    });
  }

  /** Sum of ledger entries per account: equals the balance when the books are consistent. */
  async ledgerTotal(accountId: string): Promise<number> {
    const row = await this.knex('credit_ledger').where({ account_id: accountId }).sum({ total: 'amount' }).first();
    return Number(row?.total ?? 0);
  }

  async grantCredits(accountId: string, amount: number, note: string, atMs: number): Promise<void> {
    await this.knex.transaction(async (trx) => {
      await this.credit(trx, accountId, amount);
      await this.appendLedger(trx, { accountId, requestId: null, kind: 'grant', amount, note, atMs });
    });
  }

  get db(): Knex {
    return this.knex;
  }
}

export type { Scope };
