/**
 * RabbitMQ for tests: reachability gate, unique names, a way to drop our connections from the broker's
 * side, and a TCP proxy that plays a flaky network or a broker outage without disturbing other runs.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createConnection } from 'node:net';
import { promisify } from 'node:util';
import amqp, { type Channel } from 'amqplib';
import { startTcpProxy } from './tcp-proxy.js';

export const rabbitMqUrl = process.env.MEDIAGATE_TEST_AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';

const run = promisify(execFile);

/**
 * Call from a `before` hook. An unreachable broker fails the run under CI (a skipped suite would pass
 * silently) and skips it locally, where a developer may simply not have RabbitMQ running.
 */
export async function requireRabbitMq(hookContext: Mocha.Context): Promise<void> {
  const { hostname, port } = new URL(rabbitMqUrl);
  const target = `${hostname}:${port || 5672}`;
  if (await reachable(hostname, Number(port || 5672))) return;
  if (process.env.CI) throw new Error(`RabbitMQ is not reachable at ${target}; CI is set, so the RabbitMQ tests fail instead of skipping`);
  console.warn(`RabbitMQ is not reachable at ${target}: skipping the RabbitMQ tests (start it with \`rabbitmq-server -detached\`)`);
  hookContext.skip();
}

/** A prefix no other run uses, so suites can run repeatedly and side by side on one broker. */
export function uniquePrefix(): string {
  return `mgtest_${randomBytes(5).toString('hex')}`;
}

/** Runs `use` on a short-lived channel of its own, for looking at queues from outside the adapter. */
export async function withBrokerChannel<T>(use: (channel: Channel) => Promise<T>): Promise<T> {
  const connection = await amqp.connect(rabbitMqUrl, { clientProperties: { connection_name: 'mediagate test inspector' } });
  connection.on('error', () => {});
  try {
    const channel = await connection.createChannel();
    return await use(channel);
  } finally {
    await connection.close().catch(() => {});
  }
}

/** Ready messages in each named queue. */
export async function messageCounts(queues: string[]): Promise<Record<string, number>> {
  return withBrokerChannel(async (channel) => {
    const counts: Record<string, number> = {};
    for (const queue of queues) counts[queue] = (await channel.checkQueue(queue)).messageCount;
    return counts;
  });
}

/**
 * Closes, from the broker's side (connection.close with CONNECTION_FORCED, as on a broker shutdown),
 * every connection whose client-provided name contains `nameFragment`. Returns how many it closed.
 */
export async function forceCloseConnections(nameFragment: string): Promise<number> {
  const { stdout } = await run('rabbitmqctl', ['list_connections', '-q', '--no-table-headers', 'pid', 'client_properties']);
  const pids = stdout
    .split('\n')
    .filter((line) => line.includes(nameFragment))
    .map((line) => line.split('\t')[0])
    .filter((pid) => pid.startsWith('<'));
  for (const pid of pids) await run('rabbitmqctl', ['close_connection', pid, 'mediagate test: simulated broker drop']);
  return pids.length;
}

export interface BrokerProxy {
  /** amqp URL that goes through the proxy. */
  url: string;
  /** Destroys every proxied socket at once, as a network failure would (no AMQP close). */
  dropConnections(): void;
  /** While true, new connections are cut at once: the broker looks down. */
  setOutage(down: boolean): void;
  close(): Promise<void>;
}

/** A TCP proxy in front of the broker for this test alone. */
export async function startBrokerProxy(): Promise<BrokerProxy> {
  const upstream = new URL(rabbitMqUrl);
  const proxy = await startTcpProxy({ host: upstream.hostname, port: Number(upstream.port || 5672) });
  const url = new URL(rabbitMqUrl);
  url.hostname = proxy.host;
  url.port = String(proxy.port);
  return { url: url.toString(), dropConnections: proxy.dropConnections, setOutage: proxy.setOutage, close: proxy.close };
}

function reachable(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const finish = (ok: boolean): void => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1_000, () => finish(false));
    socket.once('connect', () => finish(true));
    socket.once('error', () => finish(false));
  });
}
