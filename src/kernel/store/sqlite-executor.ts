/**
 * better-sqlite3 used directly: statements are prepared once and run synchronously. One connection serves
 * the process, so a transaction must not interleave with other async work: while one is open, statements
 * from elsewhere wait for it (the same guarantee knex's one-connection pool gives, at a fraction of the cost).
 */
import Database from 'better-sqlite3';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';

export class SqliteExecutor implements SqlDatabase {
  private readonly connection: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Resolves when the open transaction (if any) ends; transactions queue on it. */
  private current: Promise<void> | undefined;
  private readonly direct: SqlExecutor;

  constructor(filename: string) {
    this.connection = new Database(filename);
    // WAL lets readers proceed during a write; NORMAL sync is durable across process crashes (not power loss).
    this.connection.pragma('journal_mode = WAL');
    this.connection.pragma('synchronous = NORMAL');
    this.connection.pragma('busy_timeout = 5000');
    this.connection.pragma('foreign_keys = ON');
    this.direct = {
      all: async <Row>(sql: string, params: unknown[] = []) => this.prepare(sql).all(...params) as Row[],
      first: async <Row>(sql: string, params: unknown[] = []) => this.prepare(sql).get(...params) as Row | undefined,
      run: async (sql: string, params: unknown[] = []) => ({ changes: this.prepare(sql).run(...params).changes }),
    };
  }

  // Each method checks for an open transaction and then runs its statement in the same tick: an `await`
  // between the two would let a transaction begin in between and swallow the statement.
  async all<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    while (this.current) await this.current;
    return this.prepare(sql).all(...params) as Row[];
  }

  async first<Row>(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    while (this.current) await this.current;
    return this.prepare(sql).get(...params) as Row | undefined;
  }

  async run(sql: string, params: unknown[] = []): Promise<{ changes: number }> {
    while (this.current) await this.current;
    return { changes: this.prepare(sql).run(...params).changes };
  }

  async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    while (this.current) await this.current;
    let end!: () => void;
    this.current = new Promise<void>((resolve) => (end = resolve));
    try {
      // IMMEDIATE takes the write lock up front, so a transaction never fails half-way on lock upgrade.
      this.prepare('BEGIN IMMEDIATE').run();
      try {
        const result = await work(this.direct);
        this.prepare('COMMIT').run();
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.prepare('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.current = undefined;
      end();
    }
  }

  async close(): Promise<void> {
    while (this.current) await this.current;
    this.connection.close();
  }

  private prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      if (this.statements.size >= 500) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
