/**
 * Settlement over real HTTP and SQLite: a metered operation (test/fixtures/settlement, served by the scripted
 * provider) is quoted from a declared length and settled, when it finishes, on the seconds the provider measured —
 * down (refunded), up (charged, the balance allowing) or not at all (the quote stands). Every single-request answer
 * shows what the request was charged and refunded, from the ledger, and the ledger always adds up to the balance.
 */
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { fixturePluginDir } from '../support/fixtures.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

const settlementManifestDir = fileURLToPath(new URL('../fixtures/settlement/manifests', import.meta.url));

describe('credit settlement (metered scripted provider)', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ manifest_dirs: [settlementManifestDir], plugin_dirs: [fixturePluginDir] });
  });
  after(async () => service.stop());

  async function balance(accountId: string): Promise<number> {
    return (await service.service.gateway.accounts.getAccount(accountId))!.creditsBalance;
  }

  async function expectBooksBalanced(accountId: string): Promise<void> {
    expect(await service.service.gateway.accounts.ledgerTotal(accountId)).to.equal(await balance(accountId));
  }

  async function create(key: string, input: Record<string, unknown>): Promise<string> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body.id;
  }

  /** The fields every finished detail shares, taken from the answer itself where they are times. */
  function head(done: any, input: Record<string, unknown>) {
    return {
      id: done.id,
      operation: 'test.echo',
      createdAtMs: done.createdAtMs,
      startedAtMs: done.startedAtMs,
      completedAtMs: done.completedAtMs,
      input,
      dataRemovedAtMs: null,
      urls: { get: `${service.url}/api/v1/requests/${done.id}` },
    };
  }

  it('settles down to the measured length and refunds the difference', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const input = { message: 'down', seconds: 10, script: { pending: 1, usage: { output_seconds: 3 } } };
    const id = await create(key, input);
    expect(await balance(accountId)).to.equal(80);

    const done = await pollUntilTerminal(service, key, id);

    expect(done).to.deep.equal({
      ...head(done, input),
      status: 'succeeded',
      billableCredits: 6,
      errorMessage: null,
      output: { status: 'succeeded', echo: 'down', task_id: 'scripted_task', provider: 'scripted', usage: { output_seconds: 3 }, exact_cost_credits: 6 },
      credits: {
        charged: 20,
        refunded: 14,
        net: 6,
        entries: [
          { kind: 'debit', amount: -20, note: null, atMs: done.createdAtMs },
          { kind: 'adjust', amount: 14, note: 'settled to measured usage', atMs: done.completedAtMs },
        ],
      },
    });
    expect(await balance(accountId)).to.equal(94);
    await expectBooksBalanced(accountId);
  });

  it('settles up when the balance covers the difference, and charges it', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const input = { message: 'up', seconds: 2, script: { usage: { output_seconds: 7.2 } } };
    const id = await create(key, input);

    const done = await pollUntilTerminal(service, key, id);

    // 7.2 s × 2 = 14.4, rounded up.
    expect(done).to.deep.include({ status: 'succeeded', billableCredits: 15 });
    expect(done.output.exact_cost_credits).to.equal(15);
    expect(done.credits).to.deep.equal({
      charged: 15,
      refunded: 0,
      net: 15,
      entries: [
        { kind: 'debit', amount: -4, note: null, atMs: done.createdAtMs },
        { kind: 'adjust', amount: -11, note: 'settled to measured usage', atMs: done.completedAtMs },
      ],
    });
    expect(await balance(accountId)).to.equal(85);
    await expectBooksBalanced(accountId);
  });

  it('keeps the quote when the balance cannot cover a higher exact cost', async () => {
    const { key, accountId } = await service.createKey({ credits: 5 });
    const input = { message: 'short of credits', seconds: 2, script: { usage: { output_seconds: 7.2 } } };
    const id = await create(key, input);
    expect(await balance(accountId)).to.equal(1);

    const done = await pollUntilTerminal(service, key, id);

    // The rule says 15; the client agreed to 4 and has 1 left, so 4 it is.
    expect(done).to.deep.include({ status: 'succeeded', billableCredits: 4 });
    expect(done.output.exact_cost_credits).to.equal(15);
    expect(done.credits).to.deep.equal({ charged: 4, refunded: 0, net: 4, entries: [{ kind: 'debit', amount: -4, note: null, atMs: done.createdAtMs }] });
    expect(await balance(accountId)).to.equal(1);
    await expectBooksBalanced(accountId);
  });

  it('keeps the quote when the provider measured nothing', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const id = await create(key, { message: 'unmeasured', seconds: 3 });

    const done = await pollUntilTerminal(service, key, id);

    expect(done).to.deep.include({ status: 'succeeded', billableCredits: 6 });
    expect(done.output).to.deep.equal({ status: 'succeeded', echo: 'unmeasured', task_id: 'scripted_task', provider: 'scripted', exact_cost_credits: 6 });
    expect(done.credits).to.deep.equal({ charged: 6, refunded: 0, net: 6, entries: [{ kind: 'debit', amount: -6, note: null, atMs: done.createdAtMs }] });
    await expectBooksBalanced(accountId);
  });

  it('shows a failed request\'s charge and refund, which sum to zero, and the ledger matches the balance', async () => {
    const { key, accountId } = await service.createKey({ credits: 10 });
    const input = { message: 'doomed', seconds: 2, script: { pending: 1, outcome: 'failed' } };
    const id = await create(key, input);

    const done = await pollUntilTerminal(service, key, id);

    expect(done).to.deep.equal({
      ...head(done, input),
      status: 'failed',
      // What was charged stays on the request; the refund is in its ledger entries.
      billableCredits: 4,
      errorMessage: 'vendor says no: doomed',
      // The last processing output (after one pending poll, half way), marked failed.
      output: { task_id: `scripted_${id}`, status: 'failed', provider: 'scripted', model: 'echo-v1', progress: 0.5 },
      credits: {
        charged: 4,
        refunded: 4,
        net: 0,
        entries: [
          { kind: 'debit', amount: -4, note: null, atMs: done.createdAtMs },
          { kind: 'refund', amount: 4, note: null, atMs: done.completedAtMs },
        ],
      },
    });
    expect(done.credits.entries.reduce((sum: number, entry: { amount: number }) => sum + entry.amount, 0)).to.equal(0);
    expect(await balance(accountId)).to.equal(10);
    await expectBooksBalanced(accountId);
  });

  it('fails a request whose provider reports malformed usage, refunded, naming the fault', async () => {
    const { key, accountId } = await service.createKey({ credits: 10 });
    const id = await create(key, { message: 'bad meter', seconds: 2, script: { usage: { output_seconds: -1 } } });

    const done = await pollUntilTerminal(service, key, id);

    expect(done).to.deep.include({ status: 'failed', errorMessage: 'the provider returned malformed output: usage.output_seconds must be a non-negative number' });
    expect(done.credits).to.deep.include({ charged: 4, refunded: 4, net: 0 });
    expect(await balance(accountId)).to.equal(10);
    await expectBooksBalanced(accountId);
  });

  it('answers a cancel and a Prefer: wait create with the ledger entries too, and a list without them', async () => {
    const { key, accountId } = await service.createKey({ credits: 100 });
    const waiting = await create(key, { message: 'forever', seconds: 1, script: { pending: 1_000_000 } });
    let cancelled;
    for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((resolve) => setTimeout(resolve, 50))) {
      cancelled = await service.api('POST', `/api/v1/requests/${waiting}/cancel`, { key });
      // 409 MG_REQUEST_BUSY while a worker holds the request for a poll: retried as a client would.
      if (cancelled.status !== 409) break;
    }
    expect(cancelled!.status).to.equal(200);
    expect(cancelled!.body.status).to.equal('failed');
    expect(cancelled!.body.credits).to.deep.include({ charged: 2, refunded: 2, net: 0 });

    const waited = await service.api('POST', '/api/v1/requests', { key, headers: { Prefer: 'wait=20' }, body: { operation: 'test.echo', input: { message: 'quick', seconds: 5, script: { usage: { output_seconds: 4 } } } } });
    expect(waited.status).to.equal(200);
    expect(waited.body).to.deep.include({ status: 'succeeded', billableCredits: 8 });
    expect(waited.body.credits).to.deep.equal({
      charged: 10,
      refunded: 2,
      net: 8,
      entries: [
        { kind: 'debit', amount: -10, note: null, atMs: waited.body.createdAtMs },
        { kind: 'adjust', amount: 2, note: 'settled to measured usage', atMs: waited.body.completedAtMs },
      ],
    });

    const list = await service.api('GET', '/api/v1/requests', { key });
    expect(list.body.data.map((item: { id: string }) => item.id)).to.deep.equal([waited.body.id, waiting]);
    for (const item of list.body.data) expect(item).to.not.have.property('credits');
    await expectBooksBalanced(accountId);
  });
});
