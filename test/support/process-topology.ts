/**
 * Real `mediagate` processes for production-topology tests: API and worker processes started with
 * `bin/mediagate.js`, sharing one MariaDB database, one RabbitMQ prefix and one blob folder, each of which
 * the test creates and removes. Processes can be killed with SIGKILL and restarted like any real node.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import knexFactory from 'knex';
import { pino } from 'pino';
import { ApiKeys } from '../../src/kernel/accounts/index.js';
import { LocalFolderBlobs } from '../../src/kernel/blobs/index.js';
import { RetentionPurge } from '../../src/kernel/lifecycle/index.js';
import { RabbitMqQueue } from '../../src/kernel/queue/index.js';
import { AccountStore, IdempotencyStore, RequestStore, newId, openDatabase } from '../../src/kernel/store/index.js';
import { fixtureManifestDir, fixturePluginDir } from './fixtures.js';
import { freePort } from './free-port.js';
import { createTestDatabase } from './mariadb.js';
import { rabbitMqUrl, requireRabbitMq, uniquePrefix, withBrokerChannel } from './rabbitmq.js';

const root = new URL('../..', import.meta.url).pathname;
const cli = join(root, 'bin/mediagate.js');

export interface ManagedProcess {
  role: 'api' | 'worker';
  port: number;
  url: string;
  child: ChildProcess;
  log: string[];
}

export class ProcessTopology {
  readonly processes: ManagedProcess[] = [];
  private constructor(
    readonly env: NodeJS.ProcessEnv,
    readonly databaseUrl: string,
    private readonly cleanup: () => Promise<void>,
  ) {}

  static async create(context: Mocha.Context, extraEnv: Record<string, string> = {}): Promise<ProcessTopology> {
    await requireRabbitMq(context);
    const database = await createTestDatabase(context);
    const blobDir = await mkdtemp(join(tmpdir(), 'mediagate-prod-blobs-'));
    const prefix = uniquePrefix();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      MEDIAGATE_DATABASE_URL: database.url,
      MEDIAGATE_AMQP_URL: `${rabbitMqUrl}?heartbeat=5`,
      MEDIAGATE_AMQP_PREFIX: prefix,
      MEDIAGATE_BLOB_URL: blobDir,
      MEDIAGATE_DATA_DIR: blobDir,
      MEDIAGATE_MANIFEST_DIRS: fixtureManifestDir,
      MEDIAGATE_PLUGIN_DIRS: fixturePluginDir,
      MEDIAGATE_WORKER_LEASE_MS: '2000',
      MEDIAGATE_SWEEP_INTERVAL_MS: '500',
      MEDIAGATE_LOG_LEVEL: 'warn',
      ...extraEnv,
    };
    const topology = new ProcessTopology(env, database.url, async () => {
      const queue = new RabbitMqQueue({ url: rabbitMqUrl, prefix });
      await queue.connect().catch(() => undefined);
      await queue.destroyTopology().catch(() => undefined);
      // The change and cancel notices' exchanges are not part of the job topology (non-durable, they would last until
      // a broker restart).
      for (const topic of ['changes', 'cancels']) await withBrokerChannel((channel) => channel.deleteExchange(`${prefix}.${topic}`)).catch(() => undefined);
      await database.drop();
      await rm(blobDir, { recursive: true, force: true });
    });
    await topology.cli('migrate');
    return topology;
  }

  async cli(...args: string[]): Promise<string> {
    return (await promisify(execFile)(process.execPath, [cli, ...args], { env: this.env })).stdout;
  }

  async createKey(credits: number): Promise<string> {
    return JSON.parse(await this.cli('keys', 'create', '--name', 'prod-test', '--credits', String(credits), '--json')).key as string;
  }

  /**
   * `count` accounts with one key each, written straight to the store as `keys create` would: spawning the CLI once
   * per account would take a second each, and load from many accounts needs a hundred of them.
   */
  async createAccounts(count: number, credits: number): Promise<{ key: string; accountId: string }[]> {
    const database = openDatabase(this.databaseUrl, { poolMax: 2 });
    try {
      const accounts = new AccountStore(database.sql);
      const apiKeys = new ApiKeys(accounts, { now: () => Date.now() });
      const created: { key: string; accountId: string }[] = [];
      for (let index = 0; index < count; index += 1) {
        const accountId = newId('acct');
        await accounts.createAccount({ id: accountId, email: `prod-test-${index}@mediagate.local`, plan: 'standard', creditsBalance: credits, createdAtMs: Date.now() });
        const { plaintext } = await apiKeys.create(accountId, `prod-test-${index}`, ['requests:read', 'requests:write']);
        created.push({ key: plaintext, accountId });
      }
      return created;
    } finally {
      await database.close();
    }
  }

  /**
   * `extraEnv` is this process's own on top of the topology's (e.g. its broker URL through a proxy); `nodeArgs` go to
   * node itself (e.g. `--cpu-prof`, which node refuses from NODE_OPTIONS).
   */
  async start(role: 'api' | 'worker', port?: number, extraEnv: Record<string, string> = {}, nodeArgs: string[] = []): Promise<ManagedProcess> {
    const listen = port ?? (await freePort());
    const env = { ...this.env, ...extraEnv, PORT: String(listen), MEDIAGATE_WORKER_HEALTH_PORT: String(listen) };
    const child = spawn(process.execPath, [...nodeArgs, cli, 'start', role], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const managed: ManagedProcess = { role, port: listen, url: `http://127.0.0.1:${listen}`, child, log: [] };
    child.stdout!.on('data', (chunk) => managed.log.push(String(chunk)));
    child.stderr!.on('data', (chunk) => managed.log.push(String(chunk)));
    this.processes.push(managed);
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      if (child.exitCode !== null) throw new Error(`${role} exited with ${child.exitCode}: ${managed.log.join('')}`);
      const healthy = await fetch(`${managed.url}/healthz`).then((response) => response.ok, () => false);
      if (healthy) return managed;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`${role} did not become healthy: ${managed.log.join('')}`);
  }

  async kill(process: ManagedProcess): Promise<void> {
    if (process.child.exitCode !== null || process.child.signalCode !== null) return;
    const exited = new Promise((resolve) => process.child.once('exit', resolve));
    process.child.kill('SIGKILL');
    await exited;
  }

  /** Stops a process as an orchestrator would (SIGTERM, graceful shutdown), so it can write what it keeps until exit (a --cpu-prof profile). */
  async terminate(process: ManagedProcess): Promise<void> {
    if (process.child.exitCode !== null || process.child.signalCode !== null) return;
    const exited = new Promise((resolve) => process.child.once('exit', resolve));
    process.child.kill('SIGTERM');
    await exited;
  }

  /** Reads the whole ledger from the database: sum of debits/refunds/adjustments vs billable credits of non-failed requests. */
  async ledger(): Promise<{ charged: number; billableOfNonFailed: number; doubleEntries: number; nonTerminal: number }> {
    const knex = knexFactory({ client: 'mysql2', connection: { uri: this.databaseUrl } as never, pool: { min: 0, max: 1 } });
    try {
      const [charged] = await knex('credit_ledger').whereNotNull('request_id').sum({ total: 'amount' });
      const [billable] = await knex('requests').whereNot({ status: 'failed' }).sum({ total: 'billable_credits' });
      const doubles = await knex('credit_ledger').whereNotNull('request_id').groupBy('request_id', 'kind').having(knex.raw('COUNT(*) > 1')).select('request_id');
      const [open] = await knex('requests').whereIn('status', ['queued', 'processing']).count({ n: '*' });
      return { charged: -Number(charged.total ?? 0), billableOfNonFailed: Number(billable.total ?? 0), doubleEntries: doubles.length, nonTerminal: Number(open.n) };
    } finally {
      await knex.destroy();
    }
  }

  /** Every request row, whatever its state: against the creates a client saw accepted, none lost or added. */
  async countRequests(): Promise<number> {
    const knex = knexFactory({ client: 'mysql2', connection: { uri: this.databaseUrl } as never, pool: { min: 0, max: 1 } });
    try {
      const [row] = await knex('requests').count({ n: '*' });
      return Number(row.n);
    } finally {
      await knex.destroy();
    }
  }

  /** Runs the retention purge against this topology's database and blob folder, as a worker would. */
  async runRetentionPurge(nowMs: number): Promise<number> {
    const database = openDatabase(this.databaseUrl);
    try {
      const purge = new RetentionPurge({
        requests: new RequestStore(database.sql),
        idempotency: new IdempotencyStore(database.sql),
        blobs: new LocalFolderBlobs(String(this.env.MEDIAGATE_BLOB_URL)),
        clock: { now: () => nowMs },
        settings: { days: 7, interval_ms: 3_600_000, batch_size: 200 },
        log: pino({ level: 'silent' }),
      });
      return await purge.purge(nowMs);
    } finally {
      await database.close();
    }
  }

  async requestRow(id: string): Promise<Record<string, any>> {
    const knex = knexFactory({ client: 'mysql2', connection: { uri: this.databaseUrl } as never, pool: { min: 0, max: 1 } });
    try {
      return await knex('requests').where({ id }).first();
    } finally {
      await knex.destroy();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.processes.map((process) => this.kill(process)));
    await this.cleanup();
  }
}

export async function api(base: string, key: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path, {
    method,
    headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

export async function waitForTerminal(base: string, key: string, ids: string[], deadlineMs: number): Promise<Map<string, any>> {
  const results = new Map<string, any>();
  const until = Date.now() + deadlineMs;
  while (results.size < ids.length) {
    for (const id of ids) {
      if (results.has(id)) continue;
      const { body } = await api(base, key, 'GET', `/api/v1/requests/${id}`);
      if (body?.status === 'succeeded' || body?.status === 'failed') results.set(id, body);
    }
    if (results.size < ids.length) {
      if (Date.now() > until) throw new Error(`${ids.length - results.size} of ${ids.length} requests not terminal after ${deadlineMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  return results;
}
