/**
 * The store's one way to run SQL: portable statements with `?` placeholders, over either driver.
 * The hot path (create, claim, finish, poll) is a handful of statements per request, and knex's query
 * builder costs ~90 µs a statement against ~10 µs for a prepared better-sqlite3 statement, so the stores
 * write plain SQL and each dialect gets the fastest honest executor: better-sqlite3 directly for the
 * embedded default, knex + mysql2 (pooled) for production. knex also runs the migrations for both.
 */
export interface SqlExecutor {
  all<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[]>;
  first<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row | undefined>;
  /** INSERT/UPDATE/DELETE; `changes` is the number of rows matched. */
  run(sql: string, params?: unknown[]): Promise<{ changes: number }>;
}

export interface SqlDatabase extends SqlExecutor {
  /**
   * One `UPDATE ... RETURNING` (group-committed like `run`), answered with the updated row once committed, or
   * undefined when it matched none: a write and its read in one statement. Only where the dialect has RETURNING on
   * UPDATE (SQLite; MariaDB has it only on INSERT and DELETE): callers fall back to the UPDATE and a read.
   */
  updateReturning?<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row | undefined>;
  /**
   * One `INSERT ... RETURNING` (group-committed like `run`), answered with the rows as the statement left them (with
   * `ON DUPLICATE KEY UPDATE`, the updated ones too) once committed: an upsert and its read in one statement instead
   * of a transaction of two. Answers undefined, with nothing run, where the server has no RETURNING on INSERT (MySQL;
   * MariaDB has it from 10.5), and callers then upsert and read in one transaction. The SQLite executor has none: its
   * only caller, the SQL rate limiter, is not used there (the embedded default counts in memory).
   */
  insertReturning?<Row = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<Row[] | undefined>;
  /**
   * Runs `work` in one transaction: committed when it resolves, rolled back when it throws. Inside `work`,
   * use only the `tx` it is given: the database itself waits for the transaction to end (it would deadlock).
   */
  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A process's database connections by state (the metrics' `mediagate_database_pool_connections`). */
export interface PoolConnections {
  used: number;
  free: number;
  /** Callers waiting for a connection. */
  pending: number;
}
