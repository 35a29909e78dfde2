/**
 * The store contract: every database adapter (SQLite, MariaDB/MySQL) must pass these unchanged. They pin
 * the guarantees the lifecycle relies on: conditional transitions that exactly one caller wins, a guarded
 * debit that never overdraws, one debit and one refund per request at most, and Stripe-style idempotency keys.
 */
import { expect } from 'chai';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { AccountStore, IdempotencyStore, RequestAdmissions, RequestStore, migrateToLatest, newId, openDatabase, recordedTaskRow, type Database, type KnownRow, type SqlDatabase } from '../../../src/kernel/store/index.js';

export function describeStoreContract(name: string, open: (context: Mocha.Context) => Promise<{ url: string; cleanup(): Promise<void> }>): void {
  describe(`store contract: ${name}`, function () {
    this.timeout(60_000);
    let database: Database;
    let cleanup: () => Promise<void>;
    let requests: RequestStore;
    let accounts: AccountStore;
    let idempotency: IdempotencyStore;

    before(async function () {
      const opened = await open(this);
      cleanup = opened.cleanup;
      database = openDatabase(opened.url, { poolMax: 10 });
      expect(await migrateToLatest(database)).to.deep.equal(['0001_initial', '0002_webhooks', '0003_rate_limits', '0004_retention_index', '0005_users_sessions', '0006_oauth', '0007_workspaces', '0008_trace_context', '0009_cancel_requested']);
      expect(await migrateToLatest(database), 'migrating twice is a no-op').to.deep.equal([]);
      requests = new RequestStore(database.sql);
      accounts = new AccountStore(database.sql);
      idempotency = new IdempotencyStore(database.sql);
    });
    after(async () => {
      await database?.close();
      await cleanup?.();
    });

    async function account(credits: number): Promise<string> {
      const id = newId('acct');
      await accounts.createAccount({ id, email: 'a@example.com', plan: 'p', creditsBalance: credits, createdAtMs: Date.now() });
      return id;
    }

    async function request(accountId: string, fields: Partial<{ billableCredits: number }> = {}): Promise<string> {
      const id = newId('req');
      await requests.insert(database.sql, { id, accountId, apiKeyId: 'key_1', operation: 'test.echo', model: 'm', billableCredits: fields.billableCredits ?? 5, input: { prompt: 'ünïcödé ✓' }, webhookUrl: null, createdAtMs: Date.now() });
      return id;
    }

    it('stores and reads a request with JSON input intact', async () => {
      const id = await request(await account(0));
      const row = await requests.get(id);
      expect(row).to.include({ id, status: 'queued', operation: 'test.echo', billableCredits: 5, attempts: 0, pollCount: 0, leaseOwner: null, startedAtMs: null });
      expect(row!.input).to.deep.equal({ prompt: 'ünïcödé ✓' });
      expect(row!.createdAtMs).to.be.a('number');
      expect(await requests.getForKey(id, 'key_other')).to.equal(undefined);
      const view = await requests.viewForKey(id, 'key_1');
      expect(view).to.deep.equal({ id, operation: 'test.echo', status: 'queued', billableCredits: 5, input: { prompt: 'ünïcödé ✓' }, output: null, errorMessage: null, createdAtMs: row!.createdAtMs, startedAtMs: null, completedAtMs: null, dataRemovedAtMs: null });
      expect(await requests.viewForKey(id, 'key_other'), 'another key sees nothing').to.equal(undefined);
    });

    it('reads many requests\' views in one call (the long-poll re-read), whatever the list length', async () => {
      const owner = await account(0);
      const ids = [await request(owner), await request(owner), await request(owner)];
      expect(await requests.viewMany([])).to.deep.equal([]);
      const views = await requests.viewMany([...ids, 'req_missing']);
      expect(views.map((view) => view.id).sort()).to.deep.equal([...ids].sort());
      expect(views[0]).to.deep.equal(await requests.viewForKey(views[0].id, 'key_1'));
      expect((await requests.viewMany(ids.slice(0, 1))).map((view) => view.id)).to.deep.equal(ids.slice(0, 1));
    });

    it('lets exactly one of many concurrent claimers win a queued request', async () => {
      const id = await request(await account(0));
      const now = Date.now();
      const results = await Promise.all(Array.from({ length: 10 }, (_, index) => requests.claim(id, `worker-${index}`, now, 10_000, 'start')));
      const winners = results.filter(Boolean);
      expect(winners).to.have.length(1);
      expect(winners[0]!).to.include({ status: 'processing', attempts: 1, startedAtMs: now });
      // The claimed record is the row as committed (on SQLite the UPDATE's own RETURNING row, elsewhere a read).
      expect(winners[0]).to.deep.equal(await requests.get(id));
    });

    it('claims by phase: a start never claims a request that has a task, a poll only one that has', async () => {
      const id = await request(await account(0));
      expect(await requests.claim(id, 'w', Date.now(), 10_000, 'poll')).to.equal(undefined);
      await requests.claim(id, 'w', Date.now(), 10_000, 'start');
      expect(await requests.recordTask(id, 'w', { provider: 'p', task: { taskId: 't' }, output: { task_id: 't' }, nextCheckAtMs: Date.now() })).to.equal(true);
      expect(await requests.claim(id, 'w2', Date.now(), 10_000, 'start')).to.equal(undefined);
      const polled = await requests.claim(id, 'w2', Date.now(), 10_000, 'poll');
      expect(polled).to.include({ leaseOwner: 'w2', attempts: 1 });
      expect(polled!.task).to.deep.equal({ taskId: 't' });
    });

    it('claims a poll from the row its scheduling worker wrote: the same record a read gives, and only while the row is still that one', async () => {
      const id = await request(await account(0));
      const now = Date.now();
      const started = (await requests.claim(id, 'w', now, 10_000, 'start'))!;
      // A task whose JSON reads back differently from the object written (an undefined field, a date): known rows hold what a read would.
      const update = { provider: 'p', task: { taskId: 't', gone: undefined, at: new Date(0) } as never, output: { task_id: 't', status: 'processing' }, nextCheckAtMs: now + 1000, pollCount: 0 };
      expect(await requests.recordTask(id, 'w', update)).to.equal(true);
      const known = recordedTaskRow(started, update)!;
      expect(JSON.parse(known), 'the row as recordTask left it').to.deep.equal(await requests.get(id));
      // A row with a large input is not kept (every held poll would hold it): its poll reads the row back.
      expect(recordedTaskRow({ ...started, input: { prompt: 'x'.repeat(2_048) } }, update)).to.equal(undefined);

      const polled = await requests.claimPollOf(known, 'w2', now + 1000, 10_000);
      expect(polled).to.include({ leaseOwner: 'w2', leaseExpiresAtMs: now + 11_000, nextCheckAtMs: null, status: 'processing', attempts: 1 });
      expect(polled, 'the claimed record is the row as committed').to.deep.equal(await requests.get(id));
      expect(await requests.claimPollOf(known, 'w3', now + 2000, 10_000), 'held by w2').to.equal(undefined);
      // w2's lease runs out (it died): the poll is still the one known, so a later claim takes it over.
      const takenOver = await requests.claimPollOf(known, 'w3', now + 12_000, 10_000);
      expect(takenOver).to.deep.equal(await requests.get(id));

      // w3 polls and schedules the next poll: the row moved on, and the old known row claims nothing.
      const next = { ...update, task: { taskId: 't' }, output: { task_id: 't', status: 'processing', progress: 0.5 }, pollCount: 1 };
      expect(await requests.recordTask(id, 'w3', next)).to.equal(true);
      expect(await requests.claimPollOf(known, 'w4', now + 30_000, 10_000), 'a stale poll').to.equal(undefined);
      const nextKnown = recordedTaskRow(takenOver!, next)!;
      expect(JSON.parse(nextKnown)).to.deep.equal(await requests.get(id));
      // Once finished, nothing claims it.
      expect(await requests.finish(database.sql, id, 'cancel', { status: 'failed', output: null, errorMessage: 'x', completedAtMs: now }), 'only a holder finishes').to.equal(false);
      await requests.claimPollOf(nextKnown, 'w4', now + 30_000, 10_000);
      expect(await requests.finish(database.sql, id, 'w4', { status: 'failed', output: null, errorMessage: 'x', completedAtMs: now })).to.equal(true);
      expect(await requests.claimPollOf(nextKnown, 'w5', now + 60_000, 10_000), 'finished').to.equal(undefined);
    });

    it('claims a start from the row its admission wrote: the same record a read gives, and only a request never claimed before', async () => {
      const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency });
      const accountId = await account(100);
      const newRequest = (input: JsonObject) => ({ id: newId('req'), accountId, apiKeyId: 'key_start', operation: 'test.echo', model: 'm', billableCredits: 5, input, webhookUrl: 'https://example.com/hook', createdAtMs: Date.now() });
      const fresh = newRequest({ prompt: 'ünïcödé ✓ "quoted"', nested: { list: [1, 2.5, null, true] } });
      const admitted = await admissions.admit({ request: fresh });
      const known = 'known' in admitted ? admitted.known! : expect.fail('an admitted create carries its row');
      expect(JSON.parse(known), 'the row as the admission wrote it').to.deep.equal(await requests.get(fresh.id));
      // A row with a large input is not carried: its start reads the row back.
      expect(await admissions.admit({ request: newRequest({ prompt: 'x'.repeat(2_048) }) })).to.deep.equal({ admitted: true });

      // Not this request's row, or no row at all (a mangled message): nothing claimed, nothing written.
      const other = await request(accountId);
      expect(await requests.claimStartOf(other, known, 'w', Date.now(), 10_000)).to.equal(undefined);
      expect(await requests.claimStartOf(fresh.id, '{"id":' as KnownRow, 'w', Date.now(), 10_000)).to.equal(undefined);
      expect(await requests.get(other)).to.include({ status: 'queued', leaseOwner: null });

      const now = Date.now();
      const started = await requests.claimStartOf(fresh.id, known, 'w', now, 1_000);
      expect(started).to.include({ status: 'processing', leaseOwner: 'w', leaseExpiresAtMs: now + 1_000, startedAtMs: now, attempts: 1, nextCheckAtMs: null });
      expect(started, 'the claimed record is the row as committed').to.deep.equal(await requests.get(fresh.id));
      // A copy of the job (redelivered once the first claim went through): held, then the lease runs out; either way
      // the row is no longer as admitted, and only an ordinary claim takes it over (a second attempt).
      expect(await requests.claimStartOf(fresh.id, known, 'w2', now + 10, 10_000), 'held by w').to.equal(undefined);
      expect(await requests.claimStartOf(fresh.id, known, 'w2', now + 5_000, 10_000), 'claimed before').to.equal(undefined);
      expect(await requests.claim(fresh.id, 'w2', now + 5_000, 10_000, 'start')).to.include({ leaseOwner: 'w2', attempts: 2 });
      // Deferred back to queued, its attempt given back and its start forgotten: queued again, yet claimed before.
      expect(await requests.release(fresh.id, 'w2', { status: 'queued', nextCheckAtMs: now, refundAttempt: true, forgetStart: true })).to.equal(true);
      expect(await requests.get(fresh.id)).to.include({ status: 'queued', attempts: 1, leaseOwner: null });
      expect(await requests.claimStartOf(fresh.id, known, 'w3', now + 6_000, 10_000), 'deferred').to.equal(undefined);
      const finished = (await requests.claim(fresh.id, 'w3', now + 6_000, 10_000, 'start'))!;
      expect(await requests.finish(database.sql, fresh.id, 'w3', { status: 'succeeded', output: {}, errorMessage: null, completedAtMs: now + 7_000 })).to.equal(true);
      expect(finished.startedAtMs, 'the first start time kept').to.equal(now);
      expect(await requests.claimStartOf(fresh.id, known, 'w4', now + 60_000, 10_000), 'finished').to.equal(undefined);
    });

    it('takes over an expired lease, not a live one; heartbeats extend only the holder', async () => {
      const id = await request(await account(0));
      const now = Date.now();
      await requests.claim(id, 'a', now, 1000, 'start');
      expect(await requests.claim(id, 'b', now + 500, 1000, 'start')).to.equal(undefined);
      expect(await requests.extendLease(id, 'b', now + 5000)).to.equal(false);
      expect(await requests.extendLease(id, 'a', now + 1500)).to.equal(true);
      expect(await requests.claim(id, 'b', now + 1200, 1000, 'start')).to.equal(undefined);
      const taken = await requests.claim(id, 'b', now + 1600, 1000, 'start');
      expect(taken).to.include({ leaseOwner: 'b', attempts: 2 });
    });

    it('finishes once: the lease holder wins, anyone else changes nothing', async () => {
      const id = await request(await account(0));
      await requests.claim(id, 'a', Date.now(), 10_000, 'start');
      expect(await requests.finish(database.sql, id, 'b', { status: 'succeeded', output: {}, errorMessage: null, completedAtMs: Date.now() })).to.equal(false);
      expect(await requests.finish(database.sql, id, 'a', { status: 'failed', output: null, errorMessage: 'x', completedAtMs: 123 })).to.equal(true);
      expect(await requests.finish(database.sql, id, 'a', { status: 'succeeded', output: {}, errorMessage: null, completedAtMs: 456 })).to.equal(false);
      expect(await requests.get(id)).to.include({ status: 'failed', errorMessage: 'x', completedAtMs: 123, leaseOwner: null });
    });

    it('releases a deferred start back to queued and gives the attempt back', async () => {
      const id = await request(await account(0));
      await requests.claim(id, 'a', Date.now(), 10_000, 'start');
      expect(await requests.release(id, 'a', { status: 'queued', nextCheckAtMs: 99, refundAttempt: true })).to.equal(true);
      expect(await requests.get(id)).to.include({ status: 'queued', attempts: 0, nextCheckAtMs: 99, leaseOwner: null });
    });

    it('records a cancel asked for while a worker holds the request, and tells which unfinished requests have one', async () => {
      const accountId = await account(0);
      const [asked, notAsked, finished] = [await request(accountId), await request(accountId), await request(accountId)];
      await requests.claim(asked, 'a', Date.now(), 10_000, 'start');
      await requests.claim(finished, 'a', Date.now(), 10_000, 'start');
      expect(await requests.requestCancel(asked, 100)).to.equal(true);
      // A second ask (the canceller repeats while it waits, or the client retries) keeps the first time.
      expect(await requests.requestCancel(asked, 200)).to.equal(true);
      expect(await requests.requestCancel(finished, 100)).to.equal(true);
      await requests.finish(database.sql, finished, 'a', { status: 'failed', output: null, errorMessage: 'x', completedAtMs: 300 });
      expect(await requests.withCancelRequested([asked, notAsked, finished, 'req_absent'])).to.deep.equal([asked]);
      expect(await requests.withCancelRequested([])).to.deep.equal([]);
      expect(await requests.requestCancel(finished, 400), 'a finished request takes no cancel').to.equal(false);
      const column = await database.sql.first<{ at: number | string }>('SELECT cancel_requested_at_ms AS at FROM requests WHERE id = ?', [asked]);
      expect(Number(column?.at)).to.equal(100);
      // The lease holder is not disturbed: the record and the claims read as before.
      expect(await requests.get(asked)).to.include({ status: 'processing', leaseOwner: 'a' });
    });

    it('finds requests that are due and unattended, or whose lease expired', async () => {
      const accountId = await account(0);
      const due = await request(accountId);
      const leased = await request(accountId);
      const expired = await request(accountId);
      const now = Date.now();
      await requests.claim(leased, 'a', now, 60_000, 'start');
      await requests.claim(expired, 'a', now - 60_000, 1000, 'start');
      const found = (await requests.findNeedingAttention(now + 10, 0, 1000)).map((row) => row.id);
      expect(found).to.include(due).and.include(expired).and.not.include(leased);
      await requests.postponeCheck(due, (await requests.get(due))!.nextCheckAtMs, now + 60_000);
      expect((await requests.findNeedingAttention(now + 10, 0, 1000)).map((row) => row.id)).to.not.include(due);
    });

    it('offers only finished requests to retention, and removes their data once', async () => {
      const id = await request(await account(0));
      const future = Date.now() + 1000;
      expect((await requests.findPastRetention(future, 1000)).map((row) => row.id)).to.not.include(id);
      await requests.claim(id, 'w', Date.now(), 10_000, 'start');
      await requests.finish(database.sql, id, 'w', { status: 'succeeded', output: { ok: true }, errorMessage: null, completedAtMs: Date.now() });
      expect((await requests.findPastRetention(future, 1000)).map((row) => row.id)).to.include(id);
      expect(await requests.removeData(id, 42)).to.equal(true);
      expect(await requests.removeData(id, 43)).to.equal(false);
      expect(await requests.get(id)).to.include({ input: null, output: null, dataRemovedAtMs: 42, status: 'succeeded' });
      expect((await requests.findPastRetention(future, 1000)).map((row) => row.id)).to.not.include(id);
    });

    it('never overdraws: concurrent guarded debits take exactly what the balance covers', async () => {
      const accountId = await account(10);
      const results = await Promise.all(Array.from({ length: 8 }, () => database.sql.transaction((trx) => accounts.debit(trx, accountId, 3))));
      expect(results.filter(Boolean)).to.have.length(3);
      expect((await accounts.getAccount(accountId))!.creditsBalance).to.equal(1);
    });

    it('allows one debit and one refund per request, never two', async () => {
      const accountId = await account(10);
      const id = await request(accountId);
      await accounts.appendLedger(database.sql, { accountId, requestId: id, kind: 'debit', amount: -5, atMs: 1 });
      await accounts.appendLedger(database.sql, { accountId, requestId: id, kind: 'refund', amount: 5, atMs: 2 });
      let refused = 0;
      for (const kind of ['debit', 'refund'] as const) {
        await accounts.appendLedger(database.sql, { accountId, requestId: id, kind, amount: 5, atMs: 3 }).catch(() => (refused += 1));
      }
      expect(refused).to.equal(2);
      expect(await accounts.ledgerTotal(accountId)).to.equal(10);
    });

    it("lists one request's ledger entries oldest first, and only that request's", async () => {
      const accountId = await account(20);
      const id = await request(accountId);
      const other = await request(accountId);
      await accounts.appendLedger(database.sql, { accountId, requestId: id, kind: 'debit', amount: -8, atMs: 10 });
      await accounts.appendLedger(database.sql, { accountId, requestId: other, kind: 'debit', amount: -5, atMs: 11 });
      await accounts.appendLedger(database.sql, { accountId, requestId: id, kind: 'adjust', amount: 3, note: 'settled to measured usage', atMs: 12 });
      expect(await accounts.listRequestLedger(id)).to.deep.equal([
        { accountId, requestId: id, kind: 'debit', amount: -8, note: undefined, atMs: 10 },
        { accountId, requestId: id, kind: 'adjust', amount: 3, note: 'settled to measured usage', atMs: 12 },
      ]);
      expect(await accounts.listRequestLedger(newId('req'))).to.deep.equal([]);
    });

    it("lists several requests' ledger entries in one read, each request's oldest first, none for a request without entries", async () => {
      const accountId = await account(40);
      const [first, second, third, without] = [await request(accountId), await request(accountId), await request(accountId), await request(accountId)];
      await accounts.appendLedger(database.sql, { accountId, requestId: first, kind: 'debit', amount: -8, atMs: 10 });
      await accounts.appendLedger(database.sql, { accountId, requestId: second, kind: 'debit', amount: -5, atMs: 11 });
      await accounts.appendLedger(database.sql, { accountId, requestId: first, kind: 'refund', amount: 8, note: 'the vendor failed', atMs: 12 });
      await accounts.appendLedger(database.sql, { accountId, requestId: third, kind: 'debit', amount: -2, atMs: 13 });
      // Three ids: padded to four inside the statement, which must not repeat an entry.
      const listed = await accounts.listRequestLedgers([first, second, without]);
      expect([...listed.keys()].sort()).to.deep.equal([first, second].sort());
      expect(listed.get(first)).to.deep.equal(await accounts.listRequestLedger(first));
      expect(listed.get(first)!.map((entry) => entry.kind)).to.deep.equal(['debit', 'refund']);
      expect(listed.get(second)).to.deep.equal([{ accountId, requestId: second, kind: 'debit', amount: -5, note: undefined, atMs: 11 }]);
      expect(await accounts.listRequestLedgers([])).to.deep.equal(new Map());
    });

    it('rolls back a whole create transaction: no request row without its debit', async () => {
      const accountId = await account(1);
      const id = newId('req');
      await database.sql
        .transaction(async (trx) => {
          await requests.insert(trx, { id, accountId, apiKeyId: 'k', operation: 'o', model: 'm', billableCredits: 5, input: {}, webhookUrl: null, createdAtMs: 1 });
          if (!(await accounts.debit(trx, accountId, 5))) throw new Error('insufficient');
        })
        .catch(() => undefined);
      expect(await requests.get(id)).to.equal(undefined);
      expect((await accounts.getAccount(accountId))!.creditsBalance).to.equal(1);
    });

    it('admits creates that arrive together in one batch: each account pays for exactly what its balance covers', async () => {
      const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency });
      const rich = await account(100);
      const poor = await account(12);
      const admission = (accountId: string, credits: number, key?: string) => {
        const request = { id: newId('req'), accountId, apiKeyId: 'key_batch', operation: 'test.echo', model: 'm', billableCredits: credits, input: { n: credits }, webhookUrl: null, createdAtMs: Date.now() };
        const held = key ? { apiKeyId: 'key_batch', key, response: { status: 202, body: { id: request.id } } } : undefined;
        return { request, idempotency: held };
      };
      await idempotency.acquire('key_batch', 'batch-order', 'hash', Date.now(), 60_000);
      const batch = [admission(rich, 10, 'batch-order'), admission(poor, 5), admission(rich, 0), admission(poor, 5), admission(poor, 5), admission(rich, 20)];
      const results = await Promise.all(batch.map((item) => admissions.admit(item)));
      // Each admitted create comes back with its row as written (for its start job): compared below, left out here.
      const outcomes = results.map((result) => ('known' in result ? { admitted: result.admitted } : result));
      expect(outcomes).to.deep.equal([{ admitted: true }, { admitted: true }, { admitted: true }, { admitted: true }, { admitted: false, creditsBalance: 2 }, { admitted: true }]);
      for (const [index, result] of results.entries()) {
        if ('known' in result) expect(JSON.parse(result.known!), `admission ${index}`).to.deep.equal(await requests.get(batch[index].request.id));
      }
      expect((await accounts.getAccount(rich))!.creditsBalance).to.equal(70);
      expect((await accounts.getAccount(poor))!.creditsBalance).to.equal(2);
      expect(await accounts.ledgerTotal(rich)).to.equal(70);
      expect(await accounts.ledgerTotal(poor)).to.equal(2);
      expect(await requests.get(batch[4].request.id), 'a refused create writes nothing').to.equal(undefined);
      expect(await requests.get(batch[2].request.id)).to.include({ status: 'queued', billableCredits: 0 });
      expect(await idempotency.acquire('key_batch', 'batch-order', 'hash', Date.now(), 60_000)).to.include({ state: 'completed', responseStatus: 202 });
    });

    it('debits every account of a batch in one guarded statement, or reports that one of them cannot pay', async () => {
      const [first, second, third] = [await account(30), await account(10), await account(5)];
      const liveKey = newId('key');
      const revokedKey = newId('key');
      for (const [id, hash] of [[liveKey, 'a'], [revokedKey, 'b']]) {
        await accounts.insertApiKey({ id, accountId: first, name: 'n', keyPrefix: `mg_${hash.repeat(8)}`, scopes: ['requests:write'], createdAtMs: 1, lastUsedAtMs: null, revokedAtMs: null, keyHash: hash.repeat(64) });
      }
      await accounts.revokeApiKey(revokedKey, 1_000);
      const balances = async () => Promise.all([first, second, third].map(async (id) => (await accounts.getAccount(id))!.creditsBalance));
      const statements: string[] = [];
      const attempt = (debits: { accountId: string; amount: number }[], keys: string[]) =>
        database.sql
          .transaction(async (tx) => {
            const counted = { ...tx, run: (sql: string, params?: unknown[]) => (statements.push(sql.trim().split(/\s+/).slice(0, 2).join(' ')), tx.run(sql, params)) };
            if (!(await accounts.debitForKeys(counted, debits, keys))) throw new Error('refused');
            return true;
          })
          .catch(() => false);

      expect(await attempt([{ accountId: first, amount: 12 }, { accountId: second, amount: 10 }, { accountId: third, amount: 0 }], [liveKey])).to.equal(true);
      expect(statements, 'three accounts, one statement').to.deep.equal(['UPDATE accounts']);
      expect(await balances()).to.deep.equal([18, 0, 5]);
      expect(await attempt([{ accountId: first, amount: 1 }, { accountId: third, amount: 6 }], [liveKey]), 'one account short').to.equal(false);
      expect(await attempt([{ accountId: first, amount: 1 }, { accountId: third, amount: 1 }], [liveKey, revokedKey]), 'a revoked key').to.equal(false);
      expect(await attempt([{ accountId: first, amount: 1 }], [revokedKey]), 'a revoked key, one account').to.equal(false);
      expect(await balances(), 'the refused debits were rolled back').to.deep.equal([18, 0, 5]);
      expect(await attempt([{ accountId: second, amount: 0 }, { accountId: third, amount: 5 }], []), 'no keys to check').to.equal(true);
      expect(await balances()).to.deep.equal([18, 0, 0]);
    });

    it('fails only the faulty admission of a batch; the others are written', async () => {
      const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency });
      const accountId = await account(50);
      const taken = await request(accountId);
      const fresh = (id: string) => ({ request: { id, accountId, apiKeyId: 'key_batch', operation: 'test.echo', model: 'm', billableCredits: 10, input: {}, webhookUrl: null, createdAtMs: Date.now() } });
      const outcomes = await Promise.allSettled([admissions.admit(fresh(newId('req'))), admissions.admit(fresh(taken)), admissions.admit(fresh(newId('req')))]);
      expect(outcomes.map((outcome) => outcome.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
      expect((await accounts.getAccount(accountId))!.creditsBalance, 'the failed one was not charged').to.equal(30);
      expect(await accounts.ledgerTotal(accountId)).to.equal(30);
    });

    it('holds idempotency keys per API key: acquire, conflict, complete, replay, release, take over', async () => {
      const now = Date.now();
      expect(await idempotency.acquire('k1', 'order', 'hash-a', now, 60_000)).to.equal('acquired');
      const held = await idempotency.acquire('k1', 'order', 'hash-a', now, 60_000);
      expect(held).to.include({ state: 'in_flight', requestHash: 'hash-a' });
      expect(await idempotency.acquire('k2', 'order', 'hash-a', now, 60_000), 'another API key').to.equal('acquired');
      await idempotency.complete(database.sql, 'k1', 'order', { requestId: 'req_1', status: 202, body: { id: 'req_1' } });
      expect(await idempotency.acquire('k1', 'order', 'hash-b', now, 60_000)).to.include({ state: 'completed', responseStatus: 202, requestHash: 'hash-a' });
      await idempotency.release('k2', 'order');
      expect(await idempotency.acquire('k2', 'order', 'hash-c', now, 60_000)).to.equal('acquired');
      expect(await idempotency.acquire('k2', 'order', 'hash-c', now + 120_000, 60_000), 'an abandoned in-flight key is taken over').to.equal('acquired');
    });

    it('lets exactly one of many concurrent acquirers hold a new idempotency key', async () => {
      const results = await Promise.all(Array.from({ length: 20 }, () => idempotency.acquire('k3', 'race', 'h', Date.now(), 60_000)));
      expect(results.filter((result) => result === 'acquired')).to.have.length(1);
    });

    it('stores API keys by hash, revokes them, and throttles last-used writes', async () => {
      const accountId = await account(0);
      const id = newId('key');
      await accounts.insertApiKey({ id, accountId, name: 'n', keyPrefix: 'mg_abcdefgh', scopes: ['requests:read'], createdAtMs: 1, lastUsedAtMs: null, revokedAtMs: null, keyHash: 'f'.repeat(64) });
      expect(await accounts.findApiKeyByHash('f'.repeat(64))).to.include({ id, name: 'n' });
      await accounts.touchApiKeys(new Map([[id, 10_000]]), 1000);
      await accounts.touchApiKeys(new Map([[id, 10_500]]), 1000);
      expect((await accounts.findApiKeyByHash('f'.repeat(64)))!.lastUsedAtMs, 'within the resolution of the last write').to.equal(10_000);
      await accounts.touchApiKeys(new Map([[id, 9_000]]), 1000);
      expect((await accounts.findApiKeyByHash('f'.repeat(64)))!.lastUsedAtMs, 'never backwards').to.equal(10_000);
      expect(await accounts.revokeApiKey(id, 20_000)).to.equal(1);
      expect(await accounts.revokeApiKey(id, 30_000)).to.equal(0);
    });

    it("writes many keys' last use in one statement, each its own time, forward only", async () => {
      const accountId = await account(0);
      const ids = Array.from({ length: 600 }, () => newId('key'));
      for (const [index, id] of ids.entries()) {
        const hash = index.toString(16).padStart(64, '0');
        await accounts.insertApiKey({ id, accountId, name: `k${index}`, keyPrefix: `mg_${index}`, scopes: ['requests:read'], createdAtMs: 1, lastUsedAtMs: null, revokedAtMs: null, keyHash: hash });
      }
      await accounts.touchApiKeys(new Map([[ids[0]!, 50_000]]), 1000);
      const statements: string[] = [];
      const counting = new AccountStore(Object.assign(Object.create(database.sql) as SqlDatabase, { run: (sql: string, params?: unknown[]) => (statements.push(sql), database.sql.run(sql, params)) }));
      // Three keys (a count padded to four) and then 600, more than one statement holds.
      await counting.touchApiKeys(new Map([[ids[0]!, 40_000], [ids[1]!, 41_000], [ids[2]!, 42_000]]), 1000);
      expect(statements).to.have.length(1);
      await counting.touchApiKeys(new Map(ids.map((id, index) => [id, 60_000 + index])), 1000);
      expect(statements).to.have.length(3);
      const lastUses = new Map((await accounts.listApiKeysOfAccount(accountId)).map((key) => [key.id, key.lastUsedAtMs]));
      expect(ids.map((id) => lastUses.get(id))).to.deep.equal(ids.map((_, index) => 60_000 + index));
      await counting.touchApiKeys(new Map([[ids[0]!, 60_500], [ids[1]!, 70_000]]), 1000);
      const after = new Map((await accounts.listApiKeysOfAccount(accountId)).map((key) => [key.id, key.lastUsedAtMs]));
      expect([after.get(ids[0]!), after.get(ids[1]!)], 'within the resolution: kept; past it: moved').to.deep.equal([60_000, 70_000]);
    });
  });
}
