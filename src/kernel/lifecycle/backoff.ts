/**
 * Delay before the next provider check: the manifest's polling strategy grown geometrically and capped,
 * with ±10% jitter so requests created together do not poll in lockstep. A vendor's Retry-After wins.
 */
import type { PollingStrategy } from '../manifests/manifest-types.js';

export function nextCheckDelay(polling: PollingStrategy, checksSoFar: number, options: { retryAfterSeconds?: number; random?: () => number } = {}): number {
  if (options.retryAfterSeconds !== undefined) return Math.max(0, options.retryAfterSeconds * 1000);
  const grown = Math.min(polling.max_every_ms, polling.every_ms * polling.backoff ** checksSoFar);
  const jitter = 1 + ((options.random ?? Math.random)() * 0.2 - 0.1);
  return Math.round(grown * jitter);
}
