/** The RFC 9457 problem responses every path reuses; `code` values come from the error catalogue. */
import { ref } from './schema-refs.js';

export const problem = (description: string) => ({ description, content: { 'application/problem+json': { schema: ref('Problem') } } });

export function unavailableProblem() {
  return {
    ...problem('MG_UNAVAILABLE: the database is down; retry after Retry-After'),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait before retrying.' } },
  };
}

/** Rate-limited routes (rate-limit.ts): creates and reads each have a per-key, per-minute budget. */
export function rateLimitedProblem() {
  return {
    ...problem("MG_RATE_LIMITED: past this key's per-minute limit; retry after Retry-After"),
    headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds until the limit resets.' } },
  };
}
