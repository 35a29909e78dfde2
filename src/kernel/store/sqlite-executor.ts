/**
 * better-sqlite3 used directly: statements are prepared once and run synchronously. Writes go through
 * group commit (group-commit.ts). One connection serves each thread, so while a batch is open, reads wait
 * for it — they never see a neighbour's uncommitted write. (The embedded worker thread, when on, has a connection
 * of its own: the two take turns at SQLite's write lock, each waiting for it on its event loop, `takeWriteLock`.)
 */
import Database from 'better-sqlite3';
import { scrubbed } from './database-error.js';
import { GroupCommit } from './group-commit.js';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';
import { defaultBackstopPages, SqliteCheckpointer, type CheckpointerOptions } from './sqlite-checkpointer.js';

/** How long a statement waits for another connection's write lock before it fails with SQLITE_BUSY. */
const busyTimeoutMs = 5000;

/** Every connection to the store's file, this executor's and knex's alike. */
export function configureConnection(connection: { pragma(sql: string): unknown }): void {
  // WAL lets readers proceed during a write; NORMAL sync is durable across process crashes (not power loss).
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma(`busy_timeout = ${busyTimeoutMs}`);
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

  /**
   * `checkpoints: 'background'` moves WAL checkpoints to a thread of their own (sqlite-checkpointer.ts);
   * `'elsewhere'` is a second connection of a process whose first one has that thread: it keeps the same backstop.
   */
  constructor(filename: string, options: { checkpoints?: 'inline' | 'background' | 'elsewhere'; checkpointer?: CheckpointerOptions; otherWriters?: boolean } = {}) {
    this.connection = new Database(filename);
    configureConnection(this.connection);
    if (options.checkpoints !== undefined && options.checkpoints !== 'inline' && filename !== ':memory:') {
      const backstop = options.checkpointer?.backstopPages ?? defaultBackstopPages;
      this.connection.pragma(`wal_autocheckpoint = ${backstop}`);
      this.connection.pragma(`journal_size_limit = ${backstop * (this.connection.pragma('page_size', { simple: true }) as number)}`);
      if (options.checkpoints === 'background') this.checkpointer = new SqliteCheckpointer(filename, options.checkpointer);
    }
    this.direct = {
      all: <Row>(sql: string, params: unknown[] = []) => scrubbed(sql, () => this.prepare(sql).all(...params) as Row[]),
      first: <Row>(sql: string, params: unknown[] = []) => scrubbed(sql, () => this.prepare(sql).get(...params) as Row | undefined),
      run: (sql: string, params: unknown[] = []) => scrubbed(sql, () => ({ changes: this.prepare(sql).run(...params).changes })),
    };
    const open = async (body: (tx: SqlExecutor) => Promise<void>) => {
      // IMMEDIATE takes the write lock up front, so a batch never fails half-way on lock upgrade.
      if (options.otherWriters) await this.takeWriteLock();
      else this.prepare('BEGIN IMMEDIATE').run();
      let end!: () => void;
      this.current = new Promise<void>((resolve) => (end = resolve));
      try {
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
    };
    // With another writer, a lone statement too goes through the lock above instead of autocommit's busy wait.
    const alone = async <T>(statement: (tx: SqlExecutor) => Promise<T>): Promise<T> => {
      let result!: T;
      await open(async (tx) => void (result = await statement(tx)));
      return result;
    };
    const autocommit: SqlExecutor = options.otherWriters
      ? {
          all: <Row>(sql: string, params?: unknown[]) => alone((tx) => tx.all<Row>(sql, params)),
          first: <Row>(sql: string, params?: unknown[]) => alone((tx) => tx.first<Row>(sql, params)),
          run: (sql: string, params?: unknown[]) => alone((tx) => tx.run(sql, params)),
        }
      : this.direct;
    this.groupCommit = new GroupCommit(open, autocommit);
  }

  /**
   * BEGIN IMMEDIATE when another connection of this process writes too (the embedded worker thread's). SQLite's own
   * busy handler would sleep the whole thread, 1 ms at first and longer after, while the other holds the lock for
   * a fraction of that; this tries without it and, while the lock is taken, lets the event loop run (HTTP, reads)
   * before trying again, up to the connection's busy timeout.
   */
  private async takeWriteLock(): Promise<void> {
    const deadline = performance.now() + busyTimeoutMs;
    for (;;) {
      // busy_timeout is off for this one attempt only: no other statement of this connection runs in between.
      this.prepare('PRAGMA busy_timeout = 0').get();
      try {
        this.prepare('BEGIN IMMEDIATE').run();
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== 'SQLITE_BUSY' || performance.now() > deadline) throw error;
      } finally {
        this.prepare(`PRAGMA busy_timeout = ${busyTimeoutMs}`).get();
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
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
