/**
 * How the MySQL executor sends its statements: one at a time (prepared when the text is fixed), or several as one
 * multi-statement text in one round trip (a transaction's statements issued together, a group-commit batch of
 * statements with its COMMIT). mysql2 sends a connection's next command only after the previous one's answer, so each
 * statement sent alone is a socket write and a wait, on the client and on the server (docs/performance-notes.md,
 * section 3).
 */
import mysql from 'mysql2/promise';
import { scrubbed, toDatabaseError } from './database-error.js';
import type { SqlExecutor } from './sql-executor.js';

/** MySQL/MariaDB ER_MAX_PREPARED_STMT_COUNT_REACHED: the server's `max_prepared_stmt_count` is reached. */
const tooManyPreparedStatements = 1461;
/** A text built for its row or id count: multi-row `VALUES (...), (...)`, `IN (?, ?, ...)`. */
const textBuiltPerCall = /\)\s*,\s*\(|\bIN\s*\(\s*\?\s*,/i;

/**
 * The longest text of several statements sent in one round trip (commitStatements, coalescingOn); longer, they go
 * statement by statement. Far under the server's `max_allowed_packet` (16 MB on MariaDB 10.11, 64 MB on MySQL 8).
 */
const maxStatementsText = 1024 * 1024;

/** What a statement is sent through: the pool, or one connection inside a transaction. */
export type StatementRunner = Pick<mysql.Pool | mysql.PoolConnection, 'query' | 'execute'>;

/**
 * A statement whose text is fixed runs as a server-side prepared statement (mysql2 `execute`, prepared once per
 * connection): the server then parses and plans it once per connection instead of on every call, which was about a
 * quarter of MariaDB's CPU for the hot path's point updates and reads (docs/performance-notes.md, target 3), and the
 * client sends the values without formatting them into the text. A text built for its row or id count goes as
 * text: prepared, every count would be a statement of its own. Should the server's cap be reached, the statement
 * goes as text too.
 */
export async function sendStatement(runner: StatementRunner, sql: string, params: unknown[]): Promise<unknown> {
  if (textBuiltPerCall.test(sql)) return (await runner.query(sql, params))[0];
  try {
    // A text query sends undefined as NULL; the binary protocol refuses it.
    return (await runner.execute(sql, params.map((value) => (value === undefined ? null : value)) as mysql.ExecuteValues[]))[0];
  } catch (error) {
    if ((error as { errno?: number }).errno !== tooManyPreparedStatements) throw error;
    return (await runner.query(sql, params))[0];
  }
}

/** Sends one statement (or a text of several) and answers the driver's result: a result header or rows. */
export type Send = (sql: string, params: unknown[]) => Promise<unknown>;

export function executorOn(send: Send): SqlExecutor {
  return {
    async all<Row>(sql: string, params: unknown[] = []) {
      return (await send(sql, params)) as Row[];
    },
    async first<Row>(sql: string, params: unknown[] = []) {
      return ((await send(sql, params)) as Row[])[0];
    },
    async run(sql: string, params: unknown[] = []) {
      return changesOf(await send(sql, params));
    },
  };
}

/**
 * A write's answer as `run` gives it. mysql2 connects with FOUND_ROWS, so affectedRows counts matched rows, like
 * SQLite's `changes`.
 */
export function changesOf(header: unknown): { changes: number } {
  return { changes: Number((header as mysql.ResultSetHeader).affectedRows ?? 0) };
}

/** mysql2 errors carry the statement with every value inlined (`sql`) and quote values in `sqlMessage`. */
export function sendingOn(runner: StatementRunner): Send {
  return (sql, params) => scrubbed(sql, () => sendStatement(runner, sql, params));
}

/**
 * Statements as one multi-statement text, its placeholders in order and their values after each other: mysql2 escapes
 * the values into it as for any text query, and the tracing's mysql2 spans record the text with its placeholders,
 * never a value. Undefined when the values would make it longer than `maxStatementsText` (counted generously: a
 * string's characters as if each were escaped).
 */
export function oneText(statements: readonly { sql: string; params: unknown[] }[]): { sql: string; params: unknown[] } | undefined {
  let length = 0;
  for (const { sql, params } of statements) {
    length += sql.length + 2;
    for (const value of params) length += typeof value === 'string' ? 2 * value.length + 2 : Buffer.isBuffer(value) ? 2 * value.length + 3 : 24;
  }
  if (length > maxStatementsText) return undefined;
  return { sql: statements.map(({ sql }) => sql).join(';\n'), params: statements.flatMap(({ params }) => params) };
}

interface QueuedStatement {
  sql: string;
  params: unknown[];
  resolve: (result: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * The sending inside a transaction. Statements issued in the same turn (a `Promise.all` of writes that need no
 * answer from each other, as an admission's inserts and debit) go to the server as one multi-statement text, one
 * round trip, each answered with its own result; a statement issued alone goes as it always did (prepared when its
 * text is fixed). The server stops at a failing statement, so every statement of the text is answered with that
 * error, and the transaction (or the group commit's savepoint) is rolled back as for any failed statement.
 */
export function coalescingOn(connection: mysql.PoolConnection): Send {
  const single = sendingOn(connection);
  let queued: QueuedStatement[] = [];
  const sendQueued = (): void => {
    const batch = queued;
    queued = [];
    const text = batch.length > 1 ? oneText(batch) : undefined;
    if (!text) {
      // mysql2 runs a connection's commands in the order they were issued.
      for (const { sql, params, resolve, reject } of batch) single(sql, params).then(resolve, reject);
      return;
    }
    connection.query(text.sql, text.params).then(
      ([results]) => batch.forEach((statement, index) => statement.resolve((results as unknown[])[index])),
      (error: unknown) => batch.forEach((statement) => statement.reject(toDatabaseError(error, statement.sql))),
    );
  };
  return (sql, params) =>
    new Promise((resolve, reject) => {
      if (queued.push({ sql, params, resolve, reject }) === 1) queueMicrotask(sendQueued);
    });
}
