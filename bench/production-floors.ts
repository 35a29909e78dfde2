/**
 * The least the production create path can cost on this machine's MariaDB and RabbitMQ, measured with bare clients
 * (no gateway code): the server CPU of one committed insert (mysql2, autocommit) and of one job through a quorum
 * queue (amqplib: persistent publish with a confirm, then delivered and acked). A create commits its admission and
 * its job is published, delivered and acked once, so these are floors under the per-create figures of the
 * production section: what the gateway cannot get below by changing its own code.
 */
import amqp from 'amqplib';
import mysql from 'mysql2/promise';
import { cpuSeconds, pidsOf } from './bench-kit.js';

export interface Floor {
  name: string;
  /** Operations completed in the window. */
  operations: number;
  perSecond: number;
  /** Server CPU (user + system) per operation, ms. */
  serverMsPerOperation: number;
}

async function serverCpu(pids: number[]): Promise<number> {
  return (await Promise.all(pids.map(cpuSeconds))).reduce<number>((sum, seconds) => sum + (seconds ?? NaN), 0);
}

/**
 * Paces `workers` loops to `perSecond` operations in all (unpaced without it): the next operation's start is due at
 * `issued / perSecond` after the first, whichever loop takes it.
 */
function pacer(perSecond: number | undefined): () => Promise<void> {
  if (!perSecond) return async () => undefined;
  const started = Date.now();
  let issued = 0;
  return async () => {
    const due = started + (issued++ * 1000) / perSecond;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };
}

const pacedName = (perSecond: number | undefined) => (perSecond ? `, paced at ${perSecond}/s` : '');

async function timed(name: string, serverPids: number[], seconds: number, run: (until: number) => Promise<number>): Promise<Floor> {
  const before = await serverCpu(serverPids);
  const started = performance.now();
  const operations = await run(Date.now() + seconds * 1000);
  const elapsed = (performance.now() - started) / 1000;
  const spent = (await serverCpu(serverPids)) - before;
  return { name, operations, perSecond: Math.round(operations / elapsed), serverMsPerOperation: (spent * 1000) / operations };
}

/**
 * `workers` connections, each inserting one row per autocommit transaction, into a table of `databaseUrl` dropped
 * after; at most `perSecond` inserts a second in all when given (the gateway's own rate: InnoDB's group commit
 * shares one log flush among the commits that arrive together, so the cost per commit depends on the rate).
 */
export async function mariaDbCommitFloor(databaseUrl: string, seconds: number, { workers = 16, perSecond }: { workers?: number; perSecond?: number } = {}): Promise<Floor> {
  const pool = mysql.createPool({ uri: databaseUrl, connectionLimit: workers });
  try {
    await pool.query('CREATE TABLE bench_commit_floor (id BIGINT AUTO_INCREMENT PRIMARY KEY, payload VARCHAR(255) NOT NULL) ENGINE=InnoDB');
    const payload = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });
    const paced = pacer(perSecond);
    return await timed(`MariaDB: one-row INSERT, autocommit (mysql2, ${workers} connections${pacedName(perSecond)})`, await pidsOf('mariadbd'), seconds, async (until) => {
      let done = 0;
      await Promise.all(
        Array.from({ length: workers }, async () => {
          while (Date.now() < until) {
            await paced();
            await pool.execute('INSERT INTO bench_commit_floor (payload) VALUES (?)', [payload]);
            done += 1;
          }
        }),
      );
      return done;
    });
  } finally {
    await pool.query('DROP TABLE IF EXISTS bench_commit_floor').catch(() => undefined);
    await pool.end();
  }
}

/**
 * Persistent messages published on a confirm channel (up to `inFlight` unconfirmed) to a quorum queue, consumed with
 * manual acks on a second connection: one job's whole life in the broker, as a create and its worker drive it. With
 * `perSecond`, at most that many publishes a second (a quorum queue writes and syncs its log per batch of the
 * messages that arrived together, so fewer at once cost more each).
 */
export async function rabbitMqJobFloor(amqpUrl: string, queue: string, seconds: number, { inFlight = 64, perSecond }: { inFlight?: number; perSecond?: number } = {}): Promise<Floor> {
  const publisherConnection = await amqp.connect(amqpUrl, { clientProperties: { connection_name: 'mediagate bench floor publisher' } });
  const consumerConnection = await amqp.connect(amqpUrl, { clientProperties: { connection_name: 'mediagate bench floor consumer' } });
  try {
    const publisher = await publisherConnection.createConfirmChannel();
    await publisher.assertQueue(queue, { durable: true, arguments: { 'x-queue-type': 'quorum' } });
    const consumer = await consumerConnection.createChannel();
    await consumer.prefetch(inFlight);
    let acked = 0;
    await consumer.consume(queue, (message) => {
      if (!message) return;
      consumer.ack(message);
      acked += 1;
    });
    const body = Buffer.from(JSON.stringify({ requestId: 'req_0000000000000000000000000000', attempt: 1 }));
    const paced = pacer(perSecond);
    const floor = await timed(`RabbitMQ: persistent publish + confirm + deliver + ack, quorum queue (amqplib, ${inFlight} in flight${pacedName(perSecond)})`, await pidsOf('beam.smp'), seconds, async (until) => {
      let published = 0;
      await Promise.all(
        Array.from({ length: inFlight }, async () => {
          while (Date.now() < until) {
            await paced();
            await new Promise<void>((resolve, reject) => publisher.sendToQueue(queue, body, { persistent: true }, (error) => (error ? reject(error) : resolve())));
            published += 1;
          }
        }),
      );
      // The window closes once every published job was also delivered and acked.
      const drainedBy = Date.now() + 30_000;
      while (acked < published && Date.now() < drainedBy) await new Promise((resolve) => setTimeout(resolve, 10));
      return Math.min(acked, published);
    });
    await publisher.deleteQueue(queue);
    return floor;
  } finally {
    await publisherConnection.close().catch(() => undefined);
    await consumerConnection.close().catch(() => undefined);
  }
}
