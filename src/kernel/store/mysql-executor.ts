/**
 * Plain SQL over a mysql2 pool (production: MySQL 8 / MariaDB). knex still owns the schema (migrations and
 * administrative queries, open-database.ts); the hot path talks to mysql2 directly because knex's raw()
 * bookkeeping per statement (binding rewrite, query objects, a pool checkout) cost the API process more CPU
 * than the statement itself, as its builder did on SQLite.
 */
import mysql from 'mysql2/promise';
import { toDatabaseError } from './database-error.js';
import { GroupCommit, type BatchedStatement } from './group-commit.js';
import { changesOf, coalescingOn, executorOn, oneText, sendingOn } from './mysql-statements.js';
import type { PoolConnections, SqlDatabase, SqlExecutor } from './sql-executor.js';

const lockWaitTimeoutSeconds = 5;
/**
 * Prepared statements each connection keeps (mysql2 closes the least recently used past it). The server caps them
 * all together (`max_prepared_stmt_count`, 16,382 by default), across every process's pool.
 */
const preparedPerConnection = 64;
/** Group-commit batches open at once, each on a transaction connection of its own. */
const transactionConnections = 4;

/**
 * Reads go straight to the pool. Writes and transactions go through group commit (group-commit.ts): on
 * InnoDB every commit is a redo-log flush, and writes that arrive together share it.
 *
 * Transactions run on connections of their own whose session has autocommit off, so a transaction begins with its
 * first statement instead of a BEGIN round trip (an eighth of the statements per create, MariaDB's CPU per create
 * about 9% lower; docs/performance-notes.md, section 3). Nothing but `inTransaction` and `commitStatements` uses those
 * connections, and every use ends in COMMIT or ROLLBACK (or the connection is destroyed), so no transaction outlives
 * its batch.
 */
export class MysqlExecutor implements SqlDatabase {
  private readonly pool: mysql.Pool;
  private readonly transactionPool: mysql.Pool;
  /** The transaction pool's connections whose session was switched to autocommit off (mysql2's core connections). */
  private readonly autocommitOff = new WeakSet<object>();
  private readonly direct: SqlExecutor;
  private readonly groupCommit: GroupCommit;
  /** Whether the server answers `INSERT ... RETURNING`, asked once (insertReturning). */
  private insertReturns: Promise<boolean> | undefined;

  constructor(url: string, options: { poolMax?: number } = {}) {
    this.pool = openPool(url, options.poolMax ?? 10);
    // Multiple statements per text on the transaction connections only, for commitStatements.
    this.transactionPool = openPool(url, transactionConnections, { multipleStatements: true });
    this.direct = executorOn(sendingOn(this.pool));
    this.groupCommit = new GroupCommit((body) => this.inTransaction(body), this.direct, {
      parallel: transactionConnections,
      commitStatements: (statements) => this.commitStatements(statements),
    });
  }

  all<Row>(sql: string, params?: unknown[]): Promise<Row[]> {
    return this.direct.all<Row>(sql, params);
  }

  first<Row>(sql: string, params?: unknown[]): Promise<Row | undefined> {
    return this.direct.first<Row>(sql, params);
  }

  run(sql: string, params?: unknown[]): Promise<{ changes: number }> {
    return this.groupCommit.statement(sql, params ?? []);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.groupCommit.transaction(work);
  }

  async insertReturning<Row>(sql: string, params?: unknown[]): Promise<Row[] | undefined> {
    // Asked again after a failure (the server unreachable at the first call): only an answer is kept.
    this.insertReturns ??= this.direct.first<{ version: string }>('SELECT VERSION() AS version').then(
      (row) => serverHasInsertReturning(row?.version ?? ''),
      (error: unknown) => {
        this.insertReturns = undefined;
        throw error;
      },
    );
    if (!(await this.insertReturns)) return undefined;
    return this.groupCommit.statementRows<Row>(sql, params ?? []);
  }

  /**
   * Both pools' connections by state, for the metrics. mysql2 3.x has no public counters: its pool keeps every,
   * idle and waiting connection in three private queues, read here defensively, so that a driver that renames
   * them yields undefined (no series) rather than a wrong 0.
   */
  connections(): PoolConnections | undefined {
    const [statements, transactions] = [poolConnections(this.pool), poolConnections(this.transactionPool)];
    if (!statements || !transactions) return undefined;
    return { used: statements.used + transactions.used, free: statements.free + transactions.free, pending: statements.pending + transactions.pending };
  }

  async close(): Promise<void> {
    await this.groupCommit.idle();
    await Promise.all([this.pool.end(), this.transactionPool.end()]);
  }

  private async inTransaction(body: (tx: SqlExecutor) => Promise<void>): Promise<void> {
    const connection = await this.transactionConnection();
    try {
      await body(executorOn(coalescingOn(connection)));
      await connection.query('COMMIT');
      connection.release();
    } catch (error) {
      await rollBack(connection);
      throw error;
    }
  }

  /**
   * A group-commit batch of statements only, sent with its COMMIT as one multi-statement text: one round trip and one
   * socket write for the batch instead of one per statement, each statement still answered with its own count or
   * rows. Values are escaped into the text by mysql2, as for any text query. The server stops at a failing
   * statement, before the COMMIT: the transaction is rolled back and the batch answered undefined, to be run again
   * statement by statement, which answers each failure to its own caller. A connection lost on the way leaves the
   * COMMIT's fate unknown: every caller gets the error, as when a batch's own COMMIT is lost (transient-retry.ts).
   */
  private async commitStatements(statements: BatchedStatement[]): Promise<unknown[] | undefined> {
    const text = oneText([...statements, { sql: 'COMMIT', params: [] }]);
    if (!text) return undefined;
    const connection = await this.transactionConnection();
    let results: unknown[];
    try {
      [results] = (await connection.query(text.sql, text.params)) as unknown as [unknown[]];
    } catch (error) {
      if (await rollBack(connection)) return undefined;
      throw toDatabaseError(error, statements[0].sql);
    }
    connection.release();
    return statements.map(({ answer }, index) => (answer === 'changes' ? changesOf(results[index]) : results[index]));
  }

  /** A transaction pool's connection, its session switched to autocommit off. */
  private async transactionConnection(): Promise<mysql.PoolConnection> {
    const connection = await this.transactionPool.getConnection();
    // Once per connection, awaited, so a session left in autocommit can never run a batch statement by statement.
    if (!this.autocommitOff.has(connection.connection)) {
      try {
        await connection.query('SET SESSION autocommit = 0');
      } catch (error) {
        connection.destroy();
        throw error;
      }
      this.autocommitOff.add(connection.connection);
    }
    return connection;
  }
}

/**
 * Ends a failed transaction: true when it was rolled back. A connection whose transaction failed in an unknown state
 * (lost, killed) is not reused.
 */
async function rollBack(connection: mysql.PoolConnection): Promise<boolean> {
  try {
    await connection.query('ROLLBACK');
    connection.release();
    return true;
  } catch {
    connection.destroy();
    return false;
  }
}

/** `VERSION()` of MariaDB 10.5 or later ('10.11.19-MariaDB-0+deb12u1'): the servers with `INSERT ... RETURNING`. */
export function serverHasInsertReturning(version: string): boolean {
  const match = /^(\d+)\.(\d+)\..*mariadb/i.exec(version);
  if (!match) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  return major > 10 || (major === 10 && minor >= 5);
}

function openPool(url: string, connectionLimit: number, options: { multipleStatements?: boolean } = {}): mysql.Pool {
  // trace: false skips capturing a caller stack on every query (mysql2's default; a measurable share of a
  // create); errors still carry the driver's own stack and the SQL error code.
  const pool = mysql.createPool({
    uri: url,
    connectionLimit,
    supportBigNumbers: true,
    bigNumberStrings: false,
    trace: false,
    maxPreparedStatements: preparedPerConnection,
    multipleStatements: options.multipleStatements ?? false,
  });
  // A group-commit batch waiting on a row lock holds up every write queued behind it (lease heartbeats
  // included), so lock waits are cut short (InnoDB's default is 50 s): the batch fails with a transient
  // error and its callers retry. The hot path's locks are held for a few round trips, never seconds.
  pool.on('connection', (connection) => {
    connection.query(`SET SESSION innodb_lock_wait_timeout = ${lockWaitTimeoutSeconds}`);
  });
  return pool;
}

function poolConnections(pool: mysql.Pool): PoolConnections | undefined {
  const core = pool.pool as unknown as Partial<Record<'_allConnections' | '_freeConnections' | '_connectionQueue', { length?: unknown }>>;
  const [all, free, pending] = [core._allConnections?.length, core._freeConnections?.length, core._connectionQueue?.length];
  if (typeof all !== 'number' || typeof free !== 'number' || typeof pending !== 'number') return undefined;
  return { used: all - free, free, pending };
}
