/** Per-key rate limits: RateLimit-* headers, 429 with Retry-After, creates and reads counted apart, shared across processes on MariaDB. */
import { expect } from 'chai';
import { SqlRateLimiter } from '../../src/kernel/rate-limits/rate-limiter.js';
import { migrateToLatest, openDatabase } from '../../src/kernel/store/index.js';
import { createTestDatabase } from '../support/mariadb.js';
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
});
