/**
 * The store gauges' two queries stay cheap: each is answered from an index that leads with the state (only
 * unfinished requests and pending deliveries are read, never the finished bulk of the table), on SQLite and on
 * MariaDB, and the backlog summary groups what the gauges need. The statements are the ones the stores really
 * run, recorded on their way to the database.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import { migrateToLatest, openDatabase, RequestStore, type Database, type SqlDatabase } from '../../src/kernel/store/index.js';
import { WebhookStore } from '../../src/kernel/webhooks/index.js';
import { createTestDatabase } from '../support/mariadb.js';

/** The database, telling `statements` what it reads. */
function recording(db: SqlDatabase, statements: string[]): SqlDatabase {
  return {
    all: (sql, params) => (statements.push(sql), db.all(sql, params)),
    first: (sql, params) => (statements.push(sql), db.first(sql, params)),
    run: (sql, params) => db.run(sql, params),
    transaction: (work) => db.transaction(work),
    close: () => db.close(),
  };
}

async function gaugeStatements(database: Database): Promise<string[]> {
  const statements: string[] = [];
  const sql = recording(database.sql, statements);
  await new RequestStore(sql).backlogSummary();
  await new WebhookStore(sql).pendingCount();
  expect(statements).to.have.length(2);
  return statements;
}

describe('metrics: the store gauges read indexes only', function () {
  this.timeout(60_000);

  describe('on SQLite', () => {
    let dir: string;
    let database: Database;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mediagate-gauge-queries-'));
      database = openDatabase(`sqlite:${join(dir, 'store.sqlite')}`);
      await migrateToLatest(database);
    });
    after(async () => {
      await database.close();
      await rm(dir, { recursive: true, force: true });
    });

    it('searches the state-leading indexes, never scans a table', async () => {
      const [backlog, outbox] = await gaugeStatements(database);
      const plan = async (sql: string) => (await database.sql.all<{ detail: string }>(`EXPLAIN QUERY PLAN ${sql}`)).map((step) => step.detail);
      expect((await plan(backlog)).filter((step) => step.startsWith('SEARCH') || step.startsWith('SCAN'))).to.satisfy((steps: string[]) => steps.length === 1 && /^SEARCH requests USING INDEX requests_status_\w+ \(status=\?\)$/.test(steps[0]));
      expect(await plan(outbox)).to.deep.equal(['SEARCH webhook_deliveries USING COVERING INDEX webhook_deliveries_state_next_attempt_at_ms_index (state=?)']);
    });

    it('groups the unfinished requests by state and provider: counts, vendor tasks and the oldest create', async () => {
      const requests = new RequestStore(database.sql);
      const base = { accountId: 'acct_1', apiKeyId: 'key_1', operation: 'test.echo', model: 'echo-1', billableCredits: 2, input: {}, webhookUrl: null };
      await requests.insertMany(database.sql, [
        { ...base, id: 'req_a', createdAtMs: 1_000 },
        { ...base, id: 'req_b', createdAtMs: 2_000 },
        { ...base, id: 'req_c', createdAtMs: 3_000 },
        { ...base, id: 'req_d', createdAtMs: 4_000 },
      ]);
      // req_c: a vendor task held by scripted; req_d: finished (never counted).
      await requests.claim('req_c', 'worker', 5_000, 30_000, 'start');
      await requests.recordTask('req_c', 'worker', { provider: 'scripted', task: { taskId: 't1' }, output: { status: 'processing' }, nextCheckAtMs: 6_000 });
      await requests.claim('req_d', 'worker', 5_000, 30_000, 'start');
      await requests.finish(database.sql, 'req_d', 'worker', { status: 'succeeded', output: {}, errorMessage: null, completedAtMs: 5_500 });
      const summary = await requests.backlogSummary();
      expect(summary.sort((a, b) => a.status.localeCompare(b.status))).to.deep.equal([
        { status: 'processing', provider: 'scripted', requests: 1, vendorTasks: 1, oldestCreatedAtMs: 3_000 },
        { status: 'queued', provider: null, requests: 2, vendorTasks: 0, oldestCreatedAtMs: 1_000 },
      ]);
    });
  });

  describe('on MariaDB', () => {
    let server: { url: string; drop(): Promise<void> };
    let database: Database;
    before(async function () {
      server = await createTestDatabase(this);
      database = openDatabase(server.url);
      await migrateToLatest(database);
    });
    after(async () => {
      await database?.close();
      await server?.drop();
    });

    it('reads a range of the status index and a ref of the state index', async () => {
      const [backlog, outbox] = await gaugeStatements(database);
      const explain = async (sql: string) => (await database.sql.all<{ table: string; type: string; key: string | null }>(`EXPLAIN ${sql}`)).map(({ table, type, key }) => ({ table, type, key }));
      expect(await explain(backlog)).to.satisfy((rows: { table: string; type: string; key: string | null }[]) => rows.length === 1 && rows[0].table === 'requests' && rows[0].type === 'range' && /^requests_status_/.test(rows[0].key ?? ''));
      expect(await explain(outbox)).to.deep.equal([{ table: 'webhook_deliveries', type: 'ref', key: 'webhook_deliveries_state_next_attempt_at_ms_index' }]);
    });
  });
});
