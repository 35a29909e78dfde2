import { rateWindowMs } from '../../src/kernel/rate-limits/rate-limiter.js';

/**
 * The rate limiter counts in fixed windows aligned to the clock: calls that straddle a window's end are counted in
 * two windows, and the call meant to be refused is allowed. A test that expects exactly the limit within one window
 * starts its calls with at least `marginMs` of the window left, waiting for the next window if need be.
 */
export async function startOfRateWindow(marginMs = 10_000): Promise<void> {
  const left = rateWindowMs - (Date.now() % rateWindowMs);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}
