/** Per-key rate limits: RateLimit-* headers, 429 with Retry-After, creates and reads counted apart, shared across processes on MariaDB. */
import { expect } from 'chai';
import { SqlRateLimiter } from '../../src/kernel/rate-limits/rate-limiter.js';
import { migrateToLatest, openDatabase, type SqlDatabase, type SqlExecutor } from '../../src/kernel/store/index.js';
import { serverHasInsertReturning } from '../../src/kernel/store/mysql-executor.js';
import { createProxiedTestDatabase, createTestDatabase } from '../support/mariadb.js';
import { startOfRateWindow } from '../support/rate-window.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { withFixtures } from '../support/fixtures.js';

describe('rate limits', () => {
  let service: TestService;
  before(async () => {
    service = await startTestService({ ...withFixtures, rate_limits: { creates_per_minute: 3, reads_per_minute: 5 } });
  });
  after(async () => service.stop());

  it('announces the limit and answers 429 with Retry-After past it, counting creates and reads apart, per key', async () => {
    const { key } = await service.createKey({ credits: 100 });
    const body = { operation: 'test.echo', input: { message: 'x' } };
    const statuses: number[] = [];
    await startOfRateWindow();
    let last: Awaited<ReturnType<TestService['api']>> | undefined;
    for (let index = 0; index < 4; index += 1) {
      last = await service.api('POST', '/api/v1/requests', { key, body });
      statuses.push(last.status);
      if (index === 0) {
        expect(last.headers.get('ratelimit-limit')).to.equal('3');
        expect(last.headers.get('ratelimit-remaining')).to.equal('2');
        expect(Number(last.headers.get('ratelimit-reset'))).to.be.within(1, 60);
      }
    }
    expect(statuses).to.deep.equal([202, 202, 202, 429]);
    expect(last!.body.code).to.equal('MG_RATE_LIMITED');
    expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 60);
    expect(last!.headers.get('ratelimit-remaining')).to.equal('0');
    // Reads have their own budget, and another key is not affected.
    expect((await service.api('GET', '/api/v1/requests', { key })).status).to.equal(200);
    const other = await service.createKey({ credits: 100 });
    expect((await service.api('POST', '/api/v1/requests', { key: other.key, body })).status).to.equal(202);
  });
});

describe('rate limits shared by API processes (MariaDB)', () => {
  it('two limiters on one database allow the limit in total, not per process', async function () {
    const created = await createTestDatabase(this);
    const first = openDatabase(created.url);
    const second = openDatabase(created.url);
    try {
      await migrateToLatest(first);
      const limiters = [new SqlRateLimiter(first.sql), new SqlRateLimiter(second.sql)];
      const now = Date.now();
      const decisions = await Promise.all(Array.from({ length: 20 }, (_, index) => limiters[index % 2].take('key_shared', 'create', 7, now)));
      expect(decisions.filter((decision) => decision.allowed)).to.have.length(7);
    } finally {
      await first.close();
      await second.close();
      await created.drop();
    }
  });

  for (const server of ['MariaDB', 'MySQL'] as const) {
    const statementsOfABatch = server === 'MariaDB' ? ['INSERT ... RETURNING'] : ['INSERT', 'SELECT'];
    it(`counts the takes that arrive together in one batch, on ${server} with ${statementsOfABatch.join(' + ')}, each with the count it would have had alone`, async function () {
      const created = await createTestDatabase(this);
      const database = openDatabase(created.url);
      try {
        await migrateToLatest(database);
        const statements: string[] = [];
        const verb = (sql: string): string => (/\bRETURNING\b/.test(sql) ? `${sql.trim().split(' ')[0]} ... RETURNING` : sql.trim().split(' ')[0]);
        const counting = (executor: SqlExecutor): SqlExecutor => ({
          all: (sql, params) => (statements.push(verb(sql)), executor.all(sql, params)),
          first: (sql, params) => (statements.push(verb(sql)), executor.first(sql, params)),
          run: (sql, params) => (statements.push(verb(sql)), executor.run(sql, params)),
        });
        const insertReturning = database.sql.insertReturning?.bind(database.sql);
        if (!insertReturning) throw new Error('the MySQL executor has no insertReturning');
        const sql: SqlDatabase = {
          ...counting(database.sql),
          transaction: (work) => database.sql.transaction((tx) => work(counting(tx))),
          // MySQL has no RETURNING on INSERT: its executor answers undefined without running anything.
          insertReturning: server === 'MariaDB' ? (text, params) => (statements.push(verb(text)), insertReturning(text, params)) : async () => undefined,
          close: () => database.sql.close(),
        };
        const limiter = new SqlRateLimiter(sql);
        const now = Date.now();
        await limiter.take('key_a', 'create', 5, now);
        statements.length = 0;
        // Eight calls of one key (whose window is open) and four of another (whose window opens now) in the same turn.
        const calls = [...Array.from({ length: 8 }, () => 'key_a'), ...Array.from({ length: 4 }, () => 'key_b')];
        const decisions = await Promise.all(calls.map((key) => limiter.take(key, 'create', 5, now)));
        expect(statements).to.deep.equal(statementsOfABatch);
        expect(decisions.map((decision) => [decision.allowed, decision.remaining])).to.deep.equal([
          [true, 3], [true, 2], [true, 1], [true, 0], [false, 0], [false, 0], [false, 0], [false, 0],
          [true, 4], [true, 3], [true, 2], [true, 1],
        ]);
        const [row] = await database.sql.all<{ count: number }>("SELECT count FROM rate_limit_windows WHERE api_key_id = 'key_a'");
        expect(Number(row.count)).to.equal(9);
      } finally {
        await database.close();
        await created.drop();
      }
    });
  }

  it('answers INSERT ... RETURNING on this MariaDB, and tells the servers that have it (MariaDB 10.5 and later) from those that do not', async function () {
    const created = await createTestDatabase(this);
    const database = openDatabase(created.url);
    try {
      await migrateToLatest(database);
      const rows = await database.sql.insertReturning!<{ api_key_id: string; count: number }>(
        "INSERT INTO rate_limit_windows (api_key_id, bucket, window_start_ms, count) VALUES ('key_r', 'create', 0, 2) ON DUPLICATE KEY UPDATE count = count + VALUES(count) RETURNING api_key_id, count",
      );
      expect(rows?.map((row) => [row.api_key_id, Number(row.count)])).to.deep.equal([['key_r', 2]]);
      expect(serverHasInsertReturning('10.11.19-MariaDB-0+deb12u1')).to.equal(true);
      expect(serverHasInsertReturning('11.4.2-MariaDB')).to.equal(true);
      expect(serverHasInsertReturning('10.5.0-MariaDB')).to.equal(true);
      expect(serverHasInsertReturning('10.4.34-MariaDB')).to.equal(false);
      expect(serverHasInsertReturning('8.0.36')).to.equal(false);
      expect(serverHasInsertReturning('8.4.3-0ubuntu0.24.04.1')).to.equal(false);
    } finally {
      await database.close();
      await created.drop();
    }
  });

  it('asks the server again for INSERT ... RETURNING after it could not be reached, rather than keeping the failure', async function () {
    const created = await createProxiedTestDatabase(this);
    const { proxy } = created;
    const database = openDatabase(created.proxiedUrl);
    try {
      await migrateToLatest(database);
      const limiter = new SqlRateLimiter(database.sql);
      proxy.setOutage(true);
      const failed = await limiter.take('key_outage', 'create', 5, Date.now()).then(() => 'answered', (error: unknown) => error);
      expect(failed, 'the first count, the server down').to.be.instanceOf(Error);
      proxy.setOutage(false);
      // Had the failed question been kept, every later count would fail with it.
      expect(await limiter.take('key_outage', 'create', 5, Date.now())).to.include({ allowed: true, remaining: 4 });
      const rows = await database.sql.insertReturning!(
        "INSERT INTO rate_limit_windows (api_key_id, bucket, window_start_ms, count) VALUES ('key_back', 'create', 0, 1) RETURNING count",
      );
      expect(rows, 'answered by the server, not refused for want of RETURNING').to.have.length(1);
    } finally {
      proxy.setOutage(false);
      await database.close();
      await created.drop();
    }
  });
});
