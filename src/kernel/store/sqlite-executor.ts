/**
 * better-sqlite3 used directly: statements are prepared once and run synchronously.
 *
 * Group commit: a COMMIT is the expensive part of a small write (WAL append, checkpoints), and the gateway
 * makes two or three small writes per request. Writes and transactions that arrive together are run one
 * after another inside ONE transaction, each under its own SAVEPOINT (so one failing rolls back only
 * itself), and every caller is answered only after that COMMIT: durability per caller is unchanged, the
 * commit cost is shared. One connection serves the process, so while a batch is open, reads wait for it —
 * they never see a neighbour's uncommitted write.
 */
import Database from 'better-sqlite3';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';

interface PendingWork {
  work: (tx: SqlExecutor) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const maxBatch = 128;

export class SqliteExecutor implements SqlDatabase {
  private readonly connection: Database.Database;
  private readonly statements = new Map<string, Database.Statement>();
  private readonly pending: PendingWork[] = [];
  private draining = false;
  /** Resolves when the open batch ends; reads wait on it. */
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

  // Reads check for an open batch and then run in the same tick: an `await` between the two would let a
  // batch begin in between and show the read uncommitted data.
  async all<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    while (this.current) await this.current;
    return this.prepare(sql).all(...params) as Row[];
  }

  async first<Row>(sql: string, params: unknown[] = []): Promise<Row | undefined> {
    while (this.current) await this.current;
    return this.prepare(sql).get(...params) as Row | undefined;
  }

  /** A single write is a one-statement transaction, so it joins the group commit. */
  run(sql: string, params: unknown[] = []): Promise<{ changes: number }> {
    return this.transaction((tx) => tx.run(sql, params));
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) void this.drain();
    });
  }

  async close(): Promise<void> {
    while (this.draining || this.current) await (this.current ?? new Promise((resolve) => setImmediate(resolve)));
    this.connection.close();
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      // Let the writes of this tick gather before the first batch opens.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, maxBatch);
        let end!: () => void;
        this.current = new Promise<void>((resolve) => (end = resolve));
        const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
        try {
          // IMMEDIATE takes the write lock up front, so a batch never fails half-way on lock upgrade.
          this.prepare('BEGIN IMMEDIATE').run();
          for (const item of batch) {
            this.prepare('SAVEPOINT unit').run();
            try {
              outcomes.push({ ok: true, value: await item.work(this.direct) });
              this.prepare('RELEASE unit').run();
            } catch (error) {
              this.prepare('ROLLBACK TO unit').run();
              this.prepare('RELEASE unit').run();
              outcomes.push({ ok: false, error });
            }
          }
          this.prepare('COMMIT').run();
        } catch (error) {
          if (this.connection.inTransaction) this.prepare('ROLLBACK').run();
          batch.forEach((item) => item.reject(error));
          continue;
        } finally {
          this.current = undefined;
          end();
        }
        batch.forEach((item, index) => {
          const outcome = outcomes[index];
          if (outcome.ok) item.resolve(outcome.value);
          else item.reject(outcome.error);
        });
      }
    } finally {
      this.draining = false;
    }
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
