import { expect } from 'chai';
import { RequestLedgers } from '../../../src/kernel/credits/index.js';
import type { LedgerEntry } from '../../../src/kernel/store/account-store.js';

/** A ledger store that counts its reads, with a debit per request and a refund once `refunded` names it. */
function countingStore() {
  const reads: string[] = [];
  /** The id lists of batched reads (listRequestLedgers), one per statement. */
  const batches: string[][] = [];
  const refunded = new Set<string>();
  /** Requests that have no entries at all (a free one). */
  const free = new Set<string>();
  const entriesOf = (requestId: string): LedgerEntry[] => {
    if (free.has(requestId)) return [];
    const debit: LedgerEntry = { accountId: 'acct', requestId, kind: 'debit', amount: -4, atMs: 1 };
    return refunded.has(requestId) ? [debit, { accountId: 'acct', requestId, kind: 'refund', amount: 4, atMs: 2 }] : [debit];
  };
  const store = {
    async listRequestLedger(requestId: string): Promise<LedgerEntry[]> {
      reads.push(requestId);
      return entriesOf(requestId);
    },
    async listRequestLedgers(requestIds: readonly string[]): Promise<Map<string, LedgerEntry[]>> {
      batches.push([...requestIds]);
      return new Map(requestIds.filter((id) => !free.has(id)).map((id) => [id, entriesOf(id)]));
    },
  };
  return { store, reads, batches, refunded, free };
}

describe('RequestLedgers', () => {
  it('reads an unfinished request’s entries every time: its finish may add one at any moment', async () => {
    const { store, reads, refunded } = countingStore();
    const ledgers = new RequestLedgers(store);
    expect(await ledgers.of({ id: 'req_a', status: 'processing' })).to.have.length(1);
    refunded.add('req_a');
    expect(await ledgers.of({ id: 'req_a', status: 'processing' })).to.have.length(2);
    expect(reads).to.deep.equal(['req_a', 'req_a']);
  });

  it('keeps a finished request’s entries after one read: they never change again', async () => {
    const { store, reads, refunded } = countingStore();
    refunded.add('req_b');
    const ledgers = new RequestLedgers(store);
    const first = await ledgers.of({ id: 'req_b', status: 'failed' });
    const again = await ledgers.of({ id: 'req_b', status: 'failed' });
    expect(again).to.equal(first);
    expect(again.map((entry) => entry.kind)).to.deep.equal(['debit', 'refund']);
    expect(reads).to.deep.equal(['req_b']);
  });

  it('reads the entries of the finished requests a notice woke in one statement, and answers each of them without a read', async () => {
    const { store, reads, batches, refunded, free } = countingStore();
    refunded.add('req_failed');
    free.add('req_free');
    const ledgers = new RequestLedgers(store);
    await ledgers.of({ id: 'req_kept', status: 'succeeded' });
    await ledgers.keepFinished([
      { id: 'req_done', status: 'succeeded' },
      { id: 'req_failed', status: 'failed' },
      { id: 'req_free', status: 'succeeded' },
      { id: 'req_running', status: 'processing' },
      { id: 'req_kept', status: 'succeeded' },
    ]);
    // One statement, for the finished requests not kept yet: not the unfinished one, not the one already kept.
    expect(batches).to.deep.equal([['req_done', 'req_failed', 'req_free']]);
    expect((await ledgers.of({ id: 'req_done', status: 'succeeded' })).map((entry) => entry.kind)).to.deep.equal(['debit']);
    expect((await ledgers.of({ id: 'req_failed', status: 'failed' })).map((entry) => entry.kind)).to.deep.equal(['debit', 'refund']);
    expect(await ledgers.of({ id: 'req_free', status: 'succeeded' })).to.deep.equal([]);
    expect(reads).to.deep.equal(['req_kept']);
    // The unfinished request is still read at its answer, every time.
    await ledgers.of({ id: 'req_running', status: 'processing' });
    expect(reads).to.deep.equal(['req_kept', 'req_running']);
    // Nothing left to read: no statement at all.
    await ledgers.keepFinished([{ id: 'req_done', status: 'succeeded' }, { id: 'req_running', status: 'processing' }]);
    expect(batches).to.have.length(1);
  });

  it('keeps at most its capacity, dropping the request used longest ago', async () => {
    const { store, reads } = countingStore();
    const ledgers = new RequestLedgers(store, 2);
    await ledgers.of({ id: 'req_1', status: 'succeeded' });
    await ledgers.of({ id: 'req_2', status: 'succeeded' });
    await ledgers.of({ id: 'req_1', status: 'succeeded' });
    await ledgers.of({ id: 'req_3', status: 'succeeded' });
    // req_2 was used longest ago: read again; req_1 and req_3 are kept.
    await ledgers.of({ id: 'req_2', status: 'succeeded' });
    await ledgers.of({ id: 'req_3', status: 'succeeded' });
    expect(reads).to.deep.equal(['req_1', 'req_2', 'req_3', 'req_2']);
  });
});
