/**
 * Key revocation across API processes on one MariaDB: two gateways, each with its own key cache. Once
 * `revoke` returns in one, the other admits (and charges) no create at all, and refuses reads within the
 * key cache time.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { apiKeyCacheMs } from '../../src/kernel/accounts/api-keys.js';
import { errorTypeUri } from '../../src/kernel/errors/index.js';
import { newId, openDatabase, RequestAdmissions, RequestStore, AccountStore, IdempotencyStore, migrateToLatest, type Admission, type Database } from '../../src/kernel/store/index.js';
import { withFixtures } from '../support/fixtures.js';
import { createTestDatabase } from '../support/mariadb.js';
import { startTestService, type TestService } from '../support/test-service.js';

const unauthenticated = (instance: string) => ({
  type: errorTypeUri('MG_UNAUTHENTICATED'),
  title: 'API key missing, invalid or revoked',
  status: 401,
  detail: 'the API key is invalid or has been revoked',
  code: 'MG_UNAUTHENTICATED',
  instance,
});

describe('key revocation across API processes (MariaDB)', function () {
  this.timeout(60_000);
  let revoking: TestService;
  let other: TestService;
  let admin: Knex;
  let databaseUrl: string;
  let drop: () => Promise<void>;

  before(async function () {
    const database = await createTestDatabase(this);
    drop = database.drop;
    databaseUrl = database.url;
    admin = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 1 } });
    // One after the other: both would run the migrations.
    revoking = await startTestService({ ...withFixtures, database: { url: database.url } });
    other = await startTestService({ ...withFixtures, database: { url: database.url } });
  });
  after(async () => {
    await other?.stop();
    await revoking?.stop();
    await admin?.destroy();
    await drop?.();
  });

  it('refuses a create with 401 in the other process at once, writing nothing, and its reads within the cache time', async () => {
    const { key, keyId, accountId } = await revoking.createKey({ credits: 10 });
    const echo = { operation: 'test.echo', input: { message: 'hello' } };
    // The other process verifies (and caches) the key, and spends with it.
    expect((await other.api('POST', '/api/v1/requests', { key, body: echo })).status).to.equal(202);

    expect(await revoking.service.gateway.apiKeys.revoke(keyId)).to.equal(1);
    const revokedAt = Date.now();
    const refused = await other.api('POST', '/api/v1/requests', { key, body: echo, headers: { 'x-idempotency-key': 'after-revoke' } });
    expect({ status: refused.status, body: refused.body }).to.deep.equal({ status: 401, body: unauthenticated('/api/v1/requests') });
    expect(Date.now() - revokedAt, 'the refusal came while the other process still had the key cached').to.be.below(apiKeyCacheMs);

    expect(await admin('requests').where({ account_id: accountId })).to.have.length(1);
    expect(await admin('credit_ledger').where({ account_id: accountId, kind: 'debit' })).to.have.length(1);
    expect((await admin('accounts').where({ id: accountId }).first()).credits_balance).to.equal(8);
    // The refused create did not hold on to its idempotency key.
    expect(await admin('idempotency_keys').where({ api_key_id: keyId, idempotency_key: 'after-revoke' })).to.have.length(0);

    // Reads: at most the key cache time, then 401.
    const until = revokedAt + apiKeyCacheMs + 1_000;
    let read = await other.api('GET', '/api/v1/status', { key });
    while (read.status === 200 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      read = await other.api('GET', '/api/v1/status', { key });
    }
    const refusedReadAfterMs = Date.now() - revokedAt;
    console.log(`      reads of a revoked key refused by the other process ${refusedReadAfterMs} ms after revoke (bound ${apiKeyCacheMs} ms)`);
    expect({ status: read.status, body: read.body }).to.deep.equal({ status: 401, body: unauthenticated('/api/v1/status') });
    expect(refusedReadAfterMs).to.be.at.most(apiKeyCacheMs + 250);
  });

  it('admits the live keys of a batch and refuses only the revoked one', async () => {
    const database: Database = openDatabase(databaseUrl, { poolMax: 2 });
    try {
      await migrateToLatest(database);
      const accounts = new AccountStore(database.sql);
      const requests = new RequestStore(database.sql);
      const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency: new IdempotencyStore(database.sql) });
      const accountId = newId('acct');
      await accounts.createAccount({ id: accountId, email: 'batch@example.com', plan: 'p', creditsBalance: 10, createdAtMs: Date.now() });
      const keyIds = [newId('key'), newId('key')];
      for (const [index, id] of keyIds.entries()) {
        await accounts.insertApiKey({ id, accountId, name: `k${index}`, keyHash: `hash_${id}`, keyPrefix: `mg_${index}`, scopes: ['requests:write'], createdAtMs: Date.now(), lastUsedAtMs: null, revokedAtMs: null });
      }
      await accounts.revokeApiKey(keyIds[1], Date.now());
      const admission = (apiKeyId: string): Admission => ({
        request: { id: newId('req'), accountId, apiKeyId, operation: 'test.echo', model: 'echo-1', billableCredits: 2, input: {}, webhookUrl: null, createdAtMs: Date.now() },
      });
      const batch = [admission(keyIds[0]), admission(keyIds[1]), admission(keyIds[0])];
      // Submitted together, so they share one admission batch.
      const results = await Promise.all(batch.map((item) => admissions.admit(item)));
      expect(results.map((result) => ('known' in result ? { admitted: result.admitted } : result))).to.deep.equal([{ admitted: true }, { admitted: false, keyRevoked: true }, { admitted: true }]);
      expect((await admin('requests').where({ account_id: accountId }).orderBy('id')).map((row) => row.id)).to.have.members([batch[0].request.id, batch[2].request.id]);
      expect((await accounts.getAccount(accountId))!.creditsBalance).to.equal(6);
      expect(await accounts.ledgerTotal(accountId)).to.equal(6);
    } finally {
      await database.close();
    }
  });
});
