/**
 * Retries a whole transaction when the database failed for a reason that says nothing about the data:
 * a dropped connection, a deadlock, a lock wait timeout, SQLite busy. A transaction is all-or-nothing, so
 * retrying one that rolled back is safe; callers make a lost COMMIT acknowledgement safe too, by fixing
 * the row's primary key before the first try (a second insert of the same id fails instead of duplicating).
 */
const transientCodes = new Set([
  'PROTOCOL_CONNECTION_LOST',
  'ECONNRESET',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EPIPE',
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
]);

export function isTransientDatabaseError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  if (code && transientCodes.has(code)) return true;
  const message = (error as Error | undefined)?.message ?? '';
  return /Connection lost|connection is in closed state|Can't add new command when connection is in closed state|Knex: Timeout acquiring a connection/i.test(message);
}

export async function withTransientRetry<T>(work: () => Promise<T>, options: { attempts?: number; baseDelayMs?: number; onRetry?: (error: unknown, attempt: number) => void } = {}): Promise<T> {
  const attempts = options.attempts ?? 4;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !isTransientDatabaseError(error)) throw error;
      options.onRetry?.(error, attempt);
      const delay = (options.baseDelayMs ?? 50) * 2 ** (attempt - 1) * (0.5 + Math.random());
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

export function isDuplicateKeyError(error: unknown): boolean {
  const code = (error as { code?: string } | undefined)?.code;
  return code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'ER_DUP_ENTRY';
}
