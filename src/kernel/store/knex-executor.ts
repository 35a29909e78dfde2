/** Plain SQL over a knex pool (production: mysql2). Transactions hold one pooled connection. */
import type { Knex } from 'knex';
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

export class KnexExecutor implements SqlDatabase {
  private readonly direct: SqlExecutor;

  constructor(private readonly knex: Knex) {
    this.direct = executorOn(knex);
  }

  all<Row>(sql: string, params?: unknown[]): Promise<Row[]> {
    return this.direct.all<Row>(sql, params);
  }

  first<Row>(sql: string, params?: unknown[]): Promise<Row | undefined> {
    return this.direct.first<Row>(sql, params);
  }

  run(sql: string, params?: unknown[]): Promise<{ changes: number }> {
    return this.direct.run(sql, params);
  }

  transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
    return this.knex.transaction((trx) => work(executorOn(trx)));
  }

  async close(): Promise<void> {
    // The pool belongs to the Database; it is destroyed there.
  }
}
