/**
 * Per-key rate limits in fixed one-minute windows, creates and reads counted separately. The embedded
 * default has one process, so it counts in memory; on a shared production store every API process counts in
 * the same database rows, so limits do not multiply with scale-out.
 */
import { isDuplicateKeyError, withTransientRetry } from '../store/transient-retry.js';
import type { SqlDatabase } from '../store/sql-executor.js';

/** `webhook_test`: test sends, which make the gateway call a URL of the client's choosing, have their own small budget. */
export type RateBucket = 'create' | 'read' | 'webhook_test';

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  resetSeconds: number;
}

export interface RateLimiter {
  /** Counts one call; `limit` 0 means unlimited. */
  take(apiKeyId: string, bucket: RateBucket, limit: number, nowMs: number): Promise<RateDecision>;
}

const windowMs = 60_000;

function decide(count: number, limit: number, windowStart: number, nowMs: number): RateDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil((windowStart + windowMs - nowMs) / 1000)) };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async take(apiKeyId: string, bucket: RateBucket, limit: number, nowMs: number): Promise<RateDecision> {
    const start = nowMs - (nowMs % windowMs);
    const key = `${apiKeyId}:${bucket}`;
    const current = this.windows.get(key);
    const window = current && current.start === start ? current : { start, count: 0 };
    window.count += 1;
    this.windows.set(key, window);
    if (this.windows.size > 100_000) this.windows.clear();
    return decide(window.count, limit, start, nowMs);
  }
}

export class SqlRateLimiter implements RateLimiter {
  constructor(private readonly db: SqlDatabase) {}

  async take(apiKeyId: string, bucket: RateBucket, limit: number, nowMs: number): Promise<RateDecision> {
    const start = nowMs - (nowMs % windowMs);
    // Two processes opening the same window can deadlock on InnoDB's gap locks; the loser retries.
    const count = await withTransientRetry(() => this.db.transaction(async (tx) => {
      // Increment, or open the window; a concurrent opener makes the insert fail, and the increment then applies.
      const { changes } = await tx.run('UPDATE rate_limit_windows SET count = count + 1 WHERE api_key_id = ? AND bucket = ? AND window_start_ms = ?', [apiKeyId, bucket, start]);
      if (changes === 0) {
        try {
          await tx.run('INSERT INTO rate_limit_windows (api_key_id, bucket, window_start_ms, count) VALUES (?, ?, ?, 1)', [apiKeyId, bucket, start]);
        } catch (error) {
          if (!isDuplicateKeyError(error)) throw error;
          await tx.run('UPDATE rate_limit_windows SET count = count + 1 WHERE api_key_id = ? AND bucket = ? AND window_start_ms = ?', [apiKeyId, bucket, start]);
        }
      }
      const row = await tx.first<{ count: number }>('SELECT count FROM rate_limit_windows WHERE api_key_id = ? AND bucket = ? AND window_start_ms = ?', [apiKeyId, bucket, start]);
      return Number(row?.count ?? 1);
    }));
    return decide(count, limit, start, nowMs);
  }

  /** Old windows are useless; the sweeper-side purge drops them. */
  async purgeBefore(nowMs: number): Promise<void> {
    await this.db.run('DELETE FROM rate_limit_windows WHERE window_start_ms < ?', [nowMs - 2 * windowMs]);
  }
}
