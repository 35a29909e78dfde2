/**
 * A request's ledger entries, as its detail shows them (`credits`): read from the store, and kept in this process once
 * they can no longer change.
 *
 * A request's entries are written at two moments only: its debit in the admission, and its adjustment or refund in the
 * finishing transaction, the same one that writes its terminal status (lifecycle/finish-request.ts); none is ever
 * deleted. So once a read of the row shows a terminal status, the entries read after it are final, whichever process
 * finished the request, and every later detail of that request (a client polling a result again, a list, a stream's
 * last event) can use them without a query. An unfinished request's entries are read every time.
 */
import type { AccountStore, LedgerEntry } from '../store/account-store.js';
import { terminalStatuses, type RequestStatus } from '../store/records.js';

/** Finished requests whose entries one process keeps (a few hundred bytes each). */
const defaultCapacity = 10_000;

export class RequestLedgers {
  /** Least recently used first: a hit moves its request to the end. */
  private readonly finished = new Map<string, readonly LedgerEntry[]>();

  constructor(
    private readonly accounts: Pick<AccountStore, 'listRequestLedger' | 'listRequestLedgers'>,
    private readonly capacity = defaultCapacity,
  ) {}

  /**
   * The entries of the request whose row was just read as `record`; read the row first, then call this (the finish
   * writes the status and the entries together, so entries read after the row are never behind the status it shows).
   */
  async of(record: { id: string; status: RequestStatus }): Promise<readonly LedgerEntry[]> {
    const kept = this.finished.get(record.id);
    if (kept) {
      this.finished.delete(record.id);
      this.finished.set(record.id, kept);
      return kept;
    }
    const entries = await this.accounts.listRequestLedger(record.id);
    if (terminalStatuses.has(record.status)) this.keep(record.id, entries);
    return entries;
  }

  /**
   * Reads, in one statement, the entries of the finished requests among `records` (rows just read) that this process
   * does not keep yet, and keeps them: a change notice that wakes the long polls and streams of many requests costs
   * one ledger read, not one per answer (their `of` then finds the entries kept). Unfinished requests are left to
   * `of`, which reads them at each answer.
   */
  async keepFinished(records: readonly { id: string; status: RequestStatus }[]): Promise<void> {
    const missing = records.filter((record) => terminalStatuses.has(record.status) && !this.finished.has(record.id)).map((record) => record.id);
    if (missing.length === 0) return;
    const entries = await this.accounts.listRequestLedgers(missing);
    for (const id of missing) this.keep(id, entries.get(id) ?? []);
  }

  private keep(requestId: string, entries: readonly LedgerEntry[]): void {
    this.finished.set(requestId, entries);
    if (this.finished.size > this.capacity) this.finished.delete(this.finished.keys().next().value!);
  }
}
