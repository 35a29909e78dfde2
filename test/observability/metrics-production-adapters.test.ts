/**
 * The production adapters' metrics, on a gateway over MariaDB and RabbitMQ (the broker behind a TCP proxy this
 * test controls): the mysql2 pool's connections by state, broker publishes and their confirms, the broker
 * connection through an outage, and a dead-lettered job failing its request. Without MariaDB or RabbitMQ the
 * suite fails under CI and is skipped locally, like the other production tests.
 */
import { expect } from 'chai';
import { RabbitMqQueue } from '../../src/kernel/queue/index.js';
import { eventually } from '../support/eventually.js';
import { withFixtures } from '../support/fixtures.js';
import { createTestDatabase } from '../support/mariadb.js';
import { scrape, type Scrape } from '../support/metrics-scrape.js';
import { rabbitMqUrl, requireRabbitMq, startBrokerProxy, uniquePrefix, withBrokerChannel, type BrokerProxy } from '../support/rabbitmq.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';

describe('metrics of the MySQL pool and the RabbitMQ queue', function () {
  this.timeout(60_000);
  let proxy: BrokerProxy;
  let service: TestService;
  let database: { url: string; drop(): Promise<void> };
  let key: string;
  const prefix = uniquePrefix();

  before(async function () {
    await requireRabbitMq(this);
    database = await createTestDatabase(this);
    proxy = await startBrokerProxy();
    service = await startTestService({
      ...withFixtures,
      database: { url: database.url, pool_max: 1 },
      queue: { url: proxy.url, prefix },
      metrics: { refresh_interval_ms: 50 },
      worker: { sweep_interval_ms: 200, requeue_after_ms: 500 },
    });
    ({ key } = await service.createKey({ credits: 100 }));
  });
  after(async () => {
    proxy?.setOutage(false);
    await service?.stop();
    await proxy?.close();
    await new RabbitMqQueue({ url: rabbitMqUrl, prefix }).destroyTopology().catch(() => undefined);
    await database?.drop();
  });

  const metrics = () => scrape(`${service.url}/metrics`);
  const until = (what: string, check: (now: Scrape) => boolean) =>
    eventually(what, async () => {
      const now = await metrics();
      return check(now) ? now : undefined;
    }, 15_000);

  async function create(input: Record<string, unknown>): Promise<string> {
    const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input } });
    expect(created.status, JSON.stringify(created.body)).to.equal(202);
    return created.body.id;
  }

  it('reports the pool: a held connection is used, a caller waiting for it pending, then it is free again', async () => {
    const { sql } = service.service.gateway.database;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    // pool_max is 1: the transaction holds the store's only connection, and the next statement waits for it.
    const transaction = sql.transaction(async (tx) => {
      await tx.first('SELECT 1 AS held');
      entered();
      await held;
    });
    await inside;
    const waiting = sql.first('SELECT 2 AS waiting');
    const busy = await until('a caller pending on the pool', (now) => now.value('mediagate_database_pool_connections', { state: 'pending' }) >= 1);
    expect(busy.value('mediagate_database_pool_connections', { state: 'used' })).to.be.at.least(1);
    release();
    await Promise.all([transaction, waiting]);
    const idle = await until('the pool idle', (now) => now.value('mediagate_database_pool_connections', { state: 'pending' }) === 0 && now.value('mediagate_database_pool_connections', { state: 'free' }) >= 1);
    // The store's one connection, plus at most knex's two (migrations and administration).
    expect(idle.value('mediagate_database_pool_connections', { state: 'used' }) + idle.value('mediagate_database_pool_connections', { state: 'free' })).to.be.within(1, 3);
    expect(idle.value('mediagate_database_up')).to.equal(1);
  });

  it('counts confirmed publishes, and failed ones while the broker is down, whose requests the sweeper sends later', async () => {
    const before = await until('the broker connected', (now) => now.value('mediagate_broker_connected') === 1);
    const served = await create({ message: 'confirmed' });
    expect((await pollUntilTerminal(service, key, served)).status).to.equal('succeeded');
    const confirmed = await metrics();
    expect(confirmed.value('mediagate_broker_publishes_total', { outcome: 'confirmed' }) - before.value('mediagate_broker_publishes_total', { outcome: 'confirmed' })).to.be.at.least(1);
    expect(confirmed.value('mediagate_broker_publishes_total', { outcome: 'failed' })).to.equal(before.value('mediagate_broker_publishes_total', { outcome: 'failed' }));

    proxy.setOutage(true);
    try {
      const down = await until('the broker disconnected', (now) => now.value('mediagate_broker_connected') === 0);
      const waiting = await create({ message: 'while down' });
      const failed = await until('a failed publish', (now) => now.value('mediagate_broker_publishes_total', { outcome: 'failed' }) > down.value('mediagate_broker_publishes_total', { outcome: 'failed' }));
      expect(failed.value('mediagate_broker_connected')).to.equal(0);
      expect(failed.value('mediagate_requests_backlog', { state: 'queued' })).to.be.at.least(1);
      proxy.setOutage(false);
      await until('the broker connected again', (now) => now.value('mediagate_broker_connected') === 1);
      expect((await pollUntilTerminal(service, key, waiting, 30_000)).status).to.equal('succeeded');
    } finally {
      proxy.setOutage(false);
    }
  });

  it('counts a dead-lettered job, whose request is failed and refunded', async () => {
    const id = await create({ message: 'never done', script: { pending: 1_000_000 } });
    await until('the request holding a vendor task', (now) => now.value('mediagate_vendor_tasks_in_flight', { provider: 'scripted' }) === 1);
    const before = await metrics();
    const { deadQueue } = (service.service.gateway.queue as RabbitMqQueue).topology;
    // What the quorum queue does with a job past its delivery limit: the job lands on the dead-letter queue.
    await withBrokerChannel(async (channel) => {
      channel.sendToQueue(deadQueue, Buffer.from(JSON.stringify({ requestId: id })), { persistent: true });
      // The channel's close-ok follows the publish on the same channel: the message is with the broker.
      await channel.close();
    });
    const done = await pollUntilTerminal(service, key, id, 30_000);
    expect(done).to.include({ status: 'failed', errorMessage: 'the request could not be processed (its job failed repeatedly) and was refunded' });
    const after = await until('the dead letter counted', (now) => now.value('mediagate_jobs_dead_lettered_total') === before.value('mediagate_jobs_dead_lettered_total') + 1);
    expect(after.value('mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'failed' }) - before.value('mediagate_requests_finished_total', { operation: 'test.echo', provider: 'scripted', model: 'echo-1', outcome: 'failed' })).to.equal(1);
    expect(after.value('mediagate_credits_refunded_total', { operation: 'test.echo' }) - before.value('mediagate_credits_refunded_total', { operation: 'test.echo' })).to.equal(2);
  });
});
