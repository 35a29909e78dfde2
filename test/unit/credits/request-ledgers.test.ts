import { expect } from 'chai';
import { RequestLedgers } from '../../../src/kernel/credits/index.js';
import type { LedgerEntry } from '../../../src/kernel/store/account-store.js';

/** A ledger store that counts its reads, with a debit per request and a refund once `refunded` names it. */
function countingStore() {
  const reads: string[] = [];
  const refunded = new Set<string>();
  const store = {
    async listRequestLedger(requestId: string): Promise<LedgerEntry[]> {
      reads.push(requestId);
      const debit: LedgerEntry = { accountId: 'acct', requestId, kind: 'debit', amount: -4, atMs: 1 };
      return refunded.has(requestId) ? [debit, { accountId: 'acct', requestId, kind: 'refund', amount: 4, atMs: 2 }] : [debit];
    },
  };
  return { store, reads, refunded };
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
