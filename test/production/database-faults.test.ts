/**
 * A database connection dropped in the middle of a transaction (a real `KILL` of the MariaDB connection
 * that holds it): nothing of the transaction is written, and the create path's retry then writes the
 * request exactly once, with exactly one debit.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { pino } from 'pino';
import { RequestCreator } from '../../src/kernel/lifecycle/index.js';
import { loadManifests, OperationRegistry } from '../../src/kernel/manifests/index.js';
import { PluginRegistry } from '../../src/kernel/plugins/index.js';
import { MemoryQueue } from '../../src/kernel/queue/index.js';
import { AccountStore, IdempotencyStore, RequestAdmissions, RequestStore, migrateToLatest, newId, openDatabase, type Database, type SqlDatabase, type SqlExecutor } from '../../src/kernel/store/index.js';
import { createTestDatabase } from '../support/mariadb.js';
import { fixtureManifestDir, fixturePluginDir } from '../support/fixtures.js';

describe('database connection dropped mid-transaction (MariaDB)', function () {
  this.timeout(60_000);
  let database: Database;
  let admin: Knex;
  let drop: () => Promise<void>;

  before(async function () {
    const created = await createTestDatabase(this);
    drop = created.drop;
    database = openDatabase(created.url, { poolMax: 4 });
    await migrateToLatest(database);
    admin = knexFactory({ client: 'mysql2', connection: { uri: created.url } as never, pool: { min: 0, max: 1 } });
  });
  after(async () => {
    await admin?.destroy();
    await database?.close();
    await drop?.();
  });

  /** Kills the server-side connection that runs `tx`, from another connection. */
  async function killConnectionOf(tx: SqlExecutor): Promise<void> {
    const row = await tx.first<{ id: number }>('SELECT CONNECTION_ID() AS id');
    await admin.raw(`KILL ${Number(row!.id)}`);
  }

  it('writes nothing of a transaction whose connection is killed half-way', async () => {
    const accounts = new AccountStore(database.sql);
    const requests = new RequestStore(database.sql);
    const accountId = newId('acct');
    await accounts.createAccount({ id: accountId, email: 'a@example.com', plan: 'p', creditsBalance: 10, createdAtMs: Date.now() });
    const id = newId('req');
    const outcome = await database.sql
      .transaction(async (tx) => {
        await requests.insert(tx, { id, accountId, apiKeyId: 'k', operation: 'test.echo', model: 'echo-1', billableCredits: 5, input: {}, webhookUrl: null, createdAtMs: Date.now() });
        await killConnectionOf(tx);
        await accounts.debit(tx, accountId, 5);
      })
      .then(() => 'committed', (error: Error) => error.message);
    expect(outcome).to.not.equal('committed');
    expect(await requests.get(id)).to.equal(undefined);
    expect((await accounts.getAccount(accountId))!.creditsBalance).to.equal(10);
    expect(await accounts.ledgerTotal(accountId)).to.equal(10);
  });

  it('retries a create whose transaction lost its connection, and writes it exactly once', async () => {
    let sabotaged = false;
    // The real database, except that the first transaction loses its connection right after its first statement.
    const sabotaging = withTransactions((work) =>
      database.sql.transaction(async (tx) => {
        if (sabotaged) return work(tx);
        sabotaged = true;
        // Killed once, whichever statement answers first (an admission issues its statements together).
        let killed: Promise<void> | undefined;
        const wrapped: SqlExecutor = {
          all: tx.all.bind(tx),
          first: tx.first.bind(tx),
          run: async (sql, params) => {
            const result = await tx.run(sql, params);
            await (killed ??= killConnectionOf(tx));
            return result;
          },
        };
        return work(wrapped);
      }),
    );
    const { creator, shutdown } = await creatorOn(sabotaging);
    const accountId = newId('acct');
    await new AccountStore(database.sql).createAccount({ id: accountId, email: 'a@example.com', plan: 'p', creditsBalance: 10, createdAtMs: Date.now() });
    sabotaged = false;
    const outcome = await creator.create({ apiKeyId: 'key_x', accountId }, { operation: 'test.echo', input: { message: 'once' } });
    expect(sabotaged, 'the first try lost its connection').to.equal(true);
    expect(outcome.status).to.equal(202);
    const rows = await admin('requests').where({ account_id: accountId });
    expect(rows).to.have.length(1);
    expect(rows[0].id).to.equal(outcome.body.id);
    expect(await admin('credit_ledger').where({ account_id: accountId, kind: 'debit' })).to.have.length(1);
    expect((await new AccountStore(database.sql).getAccount(accountId))!.creditsBalance).to.equal(8);
    shutdown();
  });

  it('answers every create of a batch whose COMMIT went through but whose acknowledgement was lost, writing each once', async () => {
    let lost = false;
    // The real database, except that the first transaction commits and then reports a lost connection.
    const forgetful = withTransactions(async (work) => {
      const result = await database.sql.transaction(work);
      if (lost) return result;
      lost = true;
      throw Object.assign(new Error('Connection lost: The server closed the connection.'), { code: 'PROTOCOL_CONNECTION_LOST' });
    });
    const { creator, shutdown } = await creatorOn(forgetful);
    const accountId = newId('acct');
    await new AccountStore(database.sql).createAccount({ id: accountId, email: 'a@example.com', plan: 'p', creditsBalance: 100, createdAtMs: Date.now() });
    // Submitted together, so they share one admission batch: the one whose acknowledgement is lost.
    const outcomes = await Promise.all(['a', 'b', 'c'].map((message) => creator.create({ apiKeyId: 'key_x', accountId }, { operation: 'test.echo', input: { message } })));
    expect(lost, 'the batch lost its acknowledgement').to.equal(true);
    expect(outcomes.map((outcome) => outcome.status)).to.deep.equal([202, 202, 202]);
    const rows = await admin('requests').where({ account_id: accountId }).orderBy('id');
    expect(rows.map((row) => row.id)).to.have.members(outcomes.map((outcome) => outcome.body.id));
    expect(await admin('credit_ledger').where({ account_id: accountId, kind: 'debit' })).to.have.length(3);
    expect((await new AccountStore(database.sql).getAccount(accountId))!.creditsBalance).to.equal(94);
    shutdown();
  });

  /** The real database, with its transactions run by `transaction` instead. */
  function withTransactions(transaction: SqlDatabase['transaction']): SqlDatabase {
    return {
      all: (sql, params) => database.sql.all(sql, params),
      first: (sql, params) => database.sql.first(sql, params),
      run: (sql, params) => database.sql.run(sql, params),
      close: () => database.sql.close(),
      transaction,
    };
  }

  /** A RequestCreator on `db` with the fixture manifests and plugins. */
  async function creatorOn(db: SqlDatabase): Promise<{ creator: RequestCreator; shutdown: () => void }> {
    const plugins = new PluginRegistry({ timeout_ms: 1000, error_threshold_percentage: 50, reset_timeout_ms: 1000, volume_threshold: 5, rolling_count_timeout_ms: 1000 });
    await plugins.loadFolders([fixturePluginDir], {});
    const accounts = new AccountStore(db);
    const requests = new RequestStore(db);
    const idempotency = new IdempotencyStore(db);
    const creator = new RequestCreator({
      registry: new OperationRegistry(await loadManifests([fixtureManifestDir])),
      plugins,
      requests,
      idempotency,
      admissions: new RequestAdmissions({ db, requests, accounts, idempotency }),
      queue: new MemoryQueue(),
      clock: { now: () => Date.now() },
      publicUrl: 'http://gateway.test',
      log: pino({ level: 'silent' }),
    });
    return { creator, shutdown: () => plugins.shutdown() };
  }
});
