/**
 * The root logger. Two guards keep secrets out of the log, whoever logs what:
 *   - `redact` removes credential headers, secret settings and known secret fields wherever they are logged;
 *   - the `err` serializer never writes a database driver's SQL or its quoted values (mysql2 puts the whole
 *     statement with inlined values in `sql` and quotes them in `sqlMessage`; knex copies both into `message`).
 * The store already wraps driver errors into `DatabaseError` (code + statement name); the serializer is the
 * backstop for any driver error that reaches a logger another way (knex, migrations).
 */
import { pino, stdSerializers, type DestinationStream, type Logger } from 'pino';
import { DatabaseError } from '../store/database-error.js';

/** Paths pino removes before a line is written (its wildcards match one level). */
export const redactedPaths = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.headers.cookie',
  'headers["x-api-key"]',
  'headers.authorization',
  'apiKey',
  'plaintext',
  'password',
  'passwordHash',
  'cookieValue',
  'csrfToken',
  'secret',
  'secrets',
  'previousSecret',
  '*.secret',
  '*.plaintext',
  '*.password',
  '*.passwordHash',
  '*.password_hash',
  '*.cookieValue',
  '*.csrfToken',
  '*._csrf',
  'res.headers["set-cookie"]',
  '*.api_key',
  '*.apiKey',
  '*.bearer_token',
  '*.*.api_key',
  '*.*.secret',
  'providers.*.*',
  'settings.providers.*.*',
  'settings.metrics.bearer_token',
  'settings.database.url',
  'settings.queue.url',
  'database.url',
  'queue.url',
];

export function createLogger(options: { level: string; destination?: DestinationStream }): Logger {
  const config = {
    level: options.level,
    base: { pid: process.pid },
    redact: { paths: redactedPaths, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
  return options.destination ? pino(config, options.destination) : pino(config);
}

/** Driver fields that carry SQL text or the values bound into it. */
const driverFields = ['sql', 'sqlMessage', 'sqlState', 'parameters', 'bindings'];

/** pino's standard error serializer, minus any driver's SQL text and quoted values. */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  if (error instanceof DatabaseError || !isDriverError(error)) return stdSerializers.err(error);
  const { code, errno } = error as { code?: string; errno?: number };
  return { type: error.name, code, errno, message: `database driver error ${code ?? ''}`.trim() };
}

function isDriverError(error: Error): boolean {
  const fields = error as unknown as Record<string, unknown>;
  return driverFields.some((field) => fields[field] !== undefined) || error.name === 'SqliteError' || /^(ER_|SQLITE_)/.test(String(fields.code ?? ''));
}
