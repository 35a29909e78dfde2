/** Plain SQL over a knex pool (production: mysql2). Transactions hold one pooled connection. */
import type { Knex } from 'knex';
import { GroupCommit } from './group-commit.js';
import type { SqlDatabase, SqlExecutor } from './sql-executor.js';

type MysqlResult = [unknown, unknown];

function executorOn(runner: Knex | Knex.Transaction): SqlExecutor {
  return {
    async all<Row>(sql: string, params: unknown[] = []) {
      const [rows] = (await runner.raw(sql, params as Knex.RawBinding[])) as MysqlResult;
      return rows as Row[];
    },
    async first<Row>(sql: string, params: unknown[] = []) {
      const [rows] = (await runner.raw(sql, params as Knex.RawBinding[])) as MysqlResult;
      return (rows as Row[])[0];
    },
    async run(sql: string, params: unknown[] = []) {
      const [header] = (await runner.raw(sql, params as Knex.RawBinding[])) as MysqlResult;
      // mysql2 connects with FOUND_ROWS, so affectedRows counts matched rows, like SQLite's `changes`.
      return { changes: Number((header as { affectedRows?: number }).affectedRows ?? 0) };
    },
  };
}

/**
 * Reads go straight to the pool. Writes and transactions go through group commit (group-commit.ts): on
 * InnoDB every commit is a redo-log flush, and every create takes the same account row lock, so without it
 * creates for one account would run one flush at a time.
 */
export class KnexExecutor implements SqlDatabase {
  private readonly direct: SqlExecutor;
  private readonly groupCommit: GroupCommit;

  constructor(private readonly knex: Knex) {
    this.direct = executorOn(knex);
    this.groupCommit = new GroupCommit((body) => this.knex.transaction((trx) => body(executorOn(trx))), { parallel: 4 });
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

  async close(): Promise<void> {
    // The pool belongs to the Database and is destroyed there, once pending writes are done.
    await this.groupCommit.idle();
  }
}
