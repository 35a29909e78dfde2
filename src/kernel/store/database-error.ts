/**
 * What the store lets out of a failed statement: the driver's error code and the statement's name
 * ("INSERT INTO webhook_secrets"), never its message. Driver messages quote the values they choke on
 * (mysql2: "Duplicate entry 'whsec_...' for key ...", and `sql` with every value inlined; SQLite trigger
 * messages can hold anything), and whatever is thrown ends up in a log line.
 */
import { isTransientDatabaseError } from './transient-retry.js';

export class DatabaseError extends Error {
  override readonly name = 'DatabaseError';
  constructor(
    /** The driver's code (`ER_DUP_ENTRY`, `SQLITE_CONSTRAINT_UNIQUE`...): what retry and duplicate checks read. */
    readonly code: string,
    /** The statement's verb and table, e.g. `INSERT INTO requests`: enough to find it, no values. */
    readonly statement: string,
    readonly errno?: number,
  ) {
    super(`${statement} failed: ${code}`);
  }
}

/** Runs one statement; a driver failure comes out as a DatabaseError. */
export async function scrubbed<T>(sql: string, run: () => T | Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toDatabaseError(error, sql);
  }
}

export function toDatabaseError(error: unknown, sql: string): DatabaseError {
  if (error instanceof DatabaseError) return error;
  const { code, errno } = (error ?? {}) as { code?: unknown; errno?: unknown };
  // A connection lost without a code (mysql2's "connection is in closed state") must stay retryable.
  const stableCode = typeof code === 'string' && code ? code : isTransientDatabaseError(error) ? 'PROTOCOL_CONNECTION_LOST' : 'DATABASE_ERROR';
  return new DatabaseError(stableCode, statementName(sql), typeof errno === 'number' ? errno : undefined);
}

/** `INSERT INTO requests (...) VALUES (?, ...)` -> `INSERT requests`: the verb and the table, nothing bound. */
export function statementName(sql: string): string {
  const words = sql.trim().split(/\s+/).slice(0, 12);
  const verb = (words[0] ?? '').toUpperCase().replace(/[^A-Z]/g, '') || 'SQL';
  const tableAt = verb === 'UPDATE' ? 1 : words.findIndex((word) => /^(INTO|FROM)$/i.test(word)) + 1;
  const table = tableAt > 0 ? words[tableAt]?.replace(/[`"(]/g, '') : undefined;
  return table && /^[A-Za-z_]\w*$/.test(table) ? `${verb} ${table}` : verb;
}
