/**
 * better-sqlite3 used directly: statements are prepared once and run synchronously. Writes go through
 * group commit (group-commit.ts). One connection serves the process, so while a batch is open, reads wait
 * for it — they never see a neighbour's uncommitted write.
 */
import Database from 'better-sqlite3';
import { scrubbed } from './database-error.js';
import { GroupCommit } from './group-commit.js';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';
import { defaultBackstopPages, SqliteCheckpointer, type CheckpointerOptions } from './sqlite-checkpointer.js';

/** Every connection to the store's file, this executor's and knex's alike. */
export function configureConnection(connection: { pragma(sql: string): unknown }): void {
  // WAL lets readers proceed during a write; NORMAL sync is durable across process crashes (not power loss).
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('busy_timeout = 5000');
  connection.pragma('foreign_keys = ON');
}

export class SqliteExecutor implements SqlDatabase {
  private readonly connection: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  /** Resolves when the open batch ends; reads wait on it. */
  private current: Promise<void> | undefined;
  private readonly direct: SqlExecutor;
  private readonly groupCommit: GroupCommit;
  private readonly checkpointer: SqliteCheckpointer | undefined;

  /** `checkpoints: 'background'` moves WAL checkpoints to a thread of their own (sqlite-checkpointer.ts). */
  constructor(filename: string, options: { checkpoints?: 'inline' | 'background'; checkpointer?: CheckpointerOptions } = {}) {
    this.connection = new Database(filename);
    configureConnection(this.connection);
    if (options.checkpoints === 'background' && filename !== ':memory:') {
      const backstop = options.checkpointer?.backstopPages ?? defaultBackstopPages;
      this.connection.pragma(`wal_autocheckpoint = ${backstop}`);
      this.connection.pragma(`journal_size_limit = ${backstop * (this.connection.pragma('page_size', { simple: true }) as number)}`);
      this.checkpointer = new SqliteCheckpointer(filename, options.checkpointer);
    }
    this.direct = {
      all: <Row>(sql: string, params: unknown[] = []) => scrubbed(sql, () => this.prepare(sql).all(...params) as Row[]),
      first: <Row>(sql: string, params: unknown[] = []) => scrubbed(sql, () => this.prepare(sql).get(...params) as Row | undefined),
      run: (sql: string, params: unknown[] = []) => scrubbed(sql, () => ({ changes: this.prepare(sql).run(...params).changes })),
    };
    this.groupCommit = new GroupCommit(async (body) => {
      let end!: () => void;
      this.current = new Promise<void>((resolve) => (end = resolve));
      try {
        // IMMEDIATE takes the write lock up front, so a batch never fails half-way on lock upgrade.
        this.prepare('BEGIN IMMEDIATE').run();
        try {
          await body(this.direct);
          this.prepare('COMMIT').run();
        } catch (error) {
          if (this.connection.inTransaction) this.prepare('ROLLBACK').run();
          throw error;
        }
      } finally {
        this.current = undefined;
        end();
      }
    }, this.direct);
  }

  // Reads check for an open batch and then run in the same tick: an `await` between the two would let a
  // batch begin in between and show the read uncommitted data.
  async all<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    while (this.current) await this.current;
    return scrubbed(sql, () => this.prepare(sql).all(...params) as Row[]);
  }

  async first<Row>(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    while (this.current) await this.current;
    return scrubbed(sql, () => this.prepare(sql).get(...params) as Row | undefined);
  }

  /** A single write is a one-statement transaction, so it joins the group commit. */
  run(sql: string, params: unknown[] = []): Promise<{ changes: number }> {
    return this.groupCommit.statement(sql, params);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.groupCommit.transaction(work);
  }

  /** SQLite has RETURNING on UPDATE since 3.35: the row comes back from the batch, with no read after the commit. */
  updateReturning<Row>(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    return this.groupCommit.statementReturning<Row>(sql, params);
  }

  /** The WAL size, in pages, at which this connection checkpoints by itself. */
  walAutocheckpointPages(): number {
    return this.connection.pragma('wal_autocheckpoint', { simple: true }) as number;
  }

  async close(): Promise<void> {
    await this.groupCommit.idle();
    await this.checkpointer?.stop();
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
