/**
 * MariaDB down: create, poll and status answer 503 `MG_UNAVAILABLE` with `Retry-After` (never 500), and
 * once the database is back nothing is half-written and no credit is lost. The database is "down" behind a
 * TCP proxy this test controls, so the machine's MariaDB keeps serving everyone else.
 */
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { errorTypeUri } from '../../src/kernel/errors/index.js';
import { withFixtures } from '../support/fixtures.js';
import { createProxiedTestDatabase } from '../support/mariadb.js';
import type { TcpProxy } from '../support/tcp-proxy.js';
import { pollUntilTerminal, startTestService, type ApiResponse, type TestService } from '../support/test-service.js';

/** A down database is answered quickly: the pool's connect fails at once, after the create's few retries. */
const answerBoundMs = 3_000;

describe('API answers while MariaDB is down', function () {
  this.timeout(60_000);
  let proxy: TcpProxy;
  let service: TestService;
  let admin: Knex;
  let drop: () => Promise<void>;

  before(async function () {
    const database = await createProxiedTestDatabase(this);
    ({ proxy, drop } = database);
    admin = knexFactory({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 1 } });
    service = await startTestService({ ...withFixtures, database: { url: database.proxiedUrl } });
  });
  after(async () => {
    proxy?.setOutage(false);
    await service?.stop();
    await admin?.destroy();
    await drop?.();
  });

  it('answers 503 MG_UNAVAILABLE with Retry-After on create, poll and status, and loses nothing', async () => {
    const { key, accountId } = await service.createKey({ credits: 10 });
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'before' } } });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    expect((await pollUntilTerminal(service, key, id, 15_000)).status).to.equal('succeeded');

    proxy.setOutage(true);
    const during = {
      create: await timed(() => service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'during' } } })),
      poll: await timed(() => service.api('GET', `/api/v1/requests/${id}`, { key })),
      status: await timed(() => service.api('GET', '/api/v1/status', { key })),
    };
    console.log(`      answer latency with the database down: create ${during.create.ms} ms, poll ${during.poll.ms} ms, status ${during.status.ms} ms`);
    for (const [path, answer] of [
      ['/api/v1/requests', during.create],
      [`/api/v1/requests/${id}`, during.poll],
      ['/api/v1/status', during.status],
    ] as const) {
      expect({ status: answer.response.status, retryAfter: answer.response.headers.get('retry-after'), body: answer.response.body }).to.deep.equal({
        status: 503,
        retryAfter: '5',
        body: {
          type: errorTypeUri('MG_UNAVAILABLE'),
          title: 'A dependency of the service is unavailable',
          status: 503,
          detail: 'the service cannot reach its database right now; retry after the Retry-After delay',
          code: 'MG_UNAVAILABLE',
          instance: path,
        },
      });
      expect(answer.ms).to.be.below(answerBoundMs);
    }

    proxy.setOutage(false);
    const after = await service.api('GET', '/api/v1/status', { key });
    expect(after.status).to.equal(200);
    expect(after.body.creditsRemaining).to.equal(8);
    // The refused create left nothing behind: one request, one debit, books that balance.
    expect((await admin('requests').where({ account_id: accountId })).map((row) => row.id)).to.deep.equal([id]);
    expect(await admin('credit_ledger').where({ account_id: accountId, kind: 'debit' })).to.have.length(1);
    expect(await service.service.gateway.accounts.ledgerTotal(accountId)).to.equal(8);
  });
});

async function timed(call: () => Promise<ApiResponse>): Promise<{ response: ApiResponse; ms: number }> {
  const startedAt = Date.now();
  const response = await call();
  return { response, ms: Date.now() - startedAt };
}
