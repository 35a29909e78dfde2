/**
 * Opens the store's database from a URL: `sqlite:<path>` (embedded default, better-sqlite3 in WAL mode)
 * or `mysql://user:pass@host:port/db` (production, mysql2). Kernel code above this file is dialect-free.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { migrationSource } from './migrations.js';
import { MysqlExecutor } from './mysql-executor.js';
import type { PoolConnections, SqlDatabase } from './sql-executor.js';
import { configureConnection, SqliteExecutor } from './sqlite-executor.js';

export type DatabaseDialect = 'sqlite' | 'mysql';

export interface Database {
  /** Runs migrations and administrative queries. */
  knex: Knex;
  /** What the stores run their statements on (see sql-executor.ts). */
  sql: SqlDatabase;
  dialect: DatabaseDialect;
  /** The connections this process holds, for the metrics; undefined when the driver does not tell. */
  connections(): PoolConnections | undefined;
  close(): Promise<void>;
}

export interface OpenOptions {
  poolMax?: number;
  /**
   * SQLite only: checkpoint the WAL on a thread of its own (a serving process), in the committing call (CLI), or
   * leave it to another connection of the same process that checkpoints in the background (the embedded worker
   * thread's connection: this one then only keeps the same backstop).
   */
  checkpoints?: 'inline' | 'background' | 'elsewhere';
  /**
   * SQLite only: another connection of this process writes too (the embedded worker thread and its main thread):
   * writes wait for the lock without blocking the event loop (sqlite-executor.ts).
   */
  otherWriters?: boolean;
  onCheckpointError?: (message: string) => void;
}

export function openDatabase(url: string, options: OpenOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const filename = url.slice('sqlite:'.length);
    if (filename !== ':memory:') mkdirSync(dirname(filename), { recursive: true });
    const knex = knexFactory({
      client: 'better-sqlite3',
      connection: { filename },
      useNullAsDefault: true,
      // This knex connection runs migrations and administrative queries; the stores' hot path uses
      // SqliteExecutor's own connection (see sqlite-executor.ts). One connection serialises writes anyway.
      pool: {
        min: 1,
        max: 1,
        afterCreate(connection: SqliteConnection, done: (error: Error | null, connection: unknown) => void) {
          configureConnection(connection);
          done(null, connection);
        },
      },
    });
    const sql = new SqliteExecutor(filename, { checkpoints: options.checkpoints, otherWriters: options.otherWriters, checkpointer: { onError: options.onCheckpointError } });
    // One connection serves every statement (the knex one runs only migrations and administration).
    const connections = () => ({ used: 1, free: 0, pending: 0 });
    return { knex, sql, dialect: 'sqlite', connections, close: async () => Promise.all([sql.close(), knex.destroy()]).then(() => undefined) };
  }
  if (url.startsWith('mysql://')) {
    const knex = knexFactory({
      client: 'mysql2',
      connection: { uri: url, supportBigNumbers: true, bigNumberStrings: false } as Knex.MySql2ConnectionConfig,
      // Migrations and administrative queries only; the stores use MysqlExecutor's pool (mysql-executor.ts).
      pool: { min: 0, max: 2 },
    });
    const sql = new MysqlExecutor(url, { poolMax: options.poolMax });
    return { knex, sql, dialect: 'mysql', connections: () => withKnexPool(sql.connections(), knex), close: async () => { await sql.close(); await knex.destroy(); } };
  }
  throw new Error(`database url must start with sqlite: or mysql:// (got ${url.split(':')[0]}:)`);
}

/** Adds knex's own small pool (tarn's public counters; absent until knex first connects) to the store's. */
function withKnexPool(store: PoolConnections | undefined, knex: Knex): PoolConnections | undefined {
  const pool = (knex.client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } }).pool;
  if (!store || !pool) return store;
  return { used: store.used + pool.numUsed(), free: store.free + pool.numFree(), pending: store.pending + pool.numPendingAcquires() };
}

interface SqliteConnection {
  pragma(sql: string): unknown;
}

export async function migrateToLatest(database: Database): Promise<string[]> {
  const [, applied] = (await database.knex.migrate.latest({ migrationSource })) as [number, string[]];
  return applied;
}
