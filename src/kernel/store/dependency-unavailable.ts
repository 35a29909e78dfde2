/**
 * The one place that decides whether a failure means "a dependency is down, try again shortly" rather than
 * "the gateway has a defect": the HTTP layer answers the first with 503 `MG_UNAVAILABLE` and `Retry-After`,
 * the second with 500. Reached only after the callers' own retries (withTransientRetry) gave up, so a
 * deadlock or a busy SQLite file here has already been retried.
 */
import { isTransientDatabaseError } from './transient-retry.js';

/** Socket errors of a database host that cannot be reached at all (the transient list covers refused/reset). */
const unreachableCodes = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'PROTOCOL_SEQUENCE_TIMEOUT', 'SQLITE_LOCKED']);

/**
 * How long a client should wait before retrying. Long enough for a connection pool to reconnect or a
 * failover to finish, short enough that a client does not give up on a blip.
 */
export const unavailableRetryAfterSeconds = 5;

export function isDependencyUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth += 1) {
    if (isTransientDatabaseError(current)) return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && unreachableCodes.has(code)) return true;
  }
  return false;
}
