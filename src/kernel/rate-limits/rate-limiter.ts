/**
 * Per-key rate limits in fixed one-minute windows, creates and reads counted separately. The embedded
 * default has one process, so it counts in memory; on a shared production store every API process counts in
 * the same database rows, so limits do not multiply with scale-out.
 */
import { MicroBatcher, type Outcome } from '../store/micro-batcher.js';
import { withTransientRetry } from '../store/transient-retry.js';
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

/** Calls are counted in fixed windows of this length, aligned to the clock (a new window every whole minute). */
export const rateWindowMs = 60_000;

function decide(count: number, limit: number, windowStart: number, nowMs: number): RateDecision {
  return { allowed: count <= limit, limit, remaining: Math.max(0, limit - count), resetSeconds: Math.max(1, Math.ceil((windowStart + rateWindowMs - nowMs) / 1000)) };
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  async take(apiKeyId: string, bucket: RateBucket, limit: number, nowMs: number): Promise<RateDecision> {
    const start = nowMs - (nowMs % rateWindowMs);
    const key = `${apiKeyId}:${bucket}`;
    const current = this.windows.get(key);
    const window = current && current.start === start ? current : { start, count: 0 };
    window.count += 1;
    this.windows.set(key, window);
    if (this.windows.size > 100_000) this.windows.clear();
    return decide(window.count, limit, start, nowMs);
  }
}

interface Take {
  apiKeyId: string;
  bucket: RateBucket;
  limit: number;
  nowMs: number;
}

const windowColumns = 'api_key_id, bucket, window_start_ms, count';
type WindowRow = { api_key_id: string; bucket: string; window_start_ms: number | string; count: number | string };

/**
 * Takes that arrive together are counted together: one upsert of every window row the batch touches (`count + n`)
 * that answers the rows as it left them (MariaDB's `INSERT ... RETURNING`; on MySQL the upsert and one read of them
 * in one transaction), for the whole batch rather than a transaction, an UPDATE and a SELECT per call. Under load
 * from one key every create of every API process increments the same row, and per-call statements queued on its row
 * lock; from many keys they cost as many transactions. Each take still gets the count it would have had one by one
 * (its place in its row's increment), so exactly `limit` calls of a window are allowed, across processes as before.
 */
export class SqlRateLimiter implements RateLimiter {
  private readonly batcher: MicroBatcher<Take, RateDecision>;

  constructor(private readonly db: SqlDatabase) {
    // One batch at a time: the next gathers while this one commits, and both would queue on the same rows anyway.
    this.batcher = new MicroBatcher((takes) => this.count(takes), { parallel: 1, maxBatch: 256 });
  }

  take(apiKeyId: string, bucket: RateBucket, limit: number, nowMs: number): Promise<RateDecision> {
    return this.batcher.submit({ apiKeyId, bucket, limit, nowMs });
  }

  private async count(takes: Take[]): Promise<Outcome<RateDecision>[]> {
    const windows = new Map<string, { name: string; apiKeyId: string; bucket: RateBucket; start: number; takes: number[] }>();
    takes.forEach((take, index) => {
      const start = take.nowMs - (take.nowMs % rateWindowMs);
      const name = `${take.apiKeyId}\u0000${take.bucket}\u0000${start}`;
      const window = windows.get(name) ?? { name, apiKeyId: take.apiKeyId, bucket: take.bucket, start, takes: [] };
      window.takes.push(index);
      windows.set(name, window);
    });
    // Rows locked in one order in every process, so two batches over the same keys cannot deadlock each other.
    const ordered = [...windows.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    // Increment every row of the batch, or open its window, in one statement (MySQL/MariaDB upsert: the SQLite
    // store counts in memory, gateway.ts).
    const upsert = `INSERT INTO rate_limit_windows (api_key_id, bucket, window_start_ms, count) VALUES ${ordered.map(() => '(?, ?, ?, ?)').join(', ')}
          ON DUPLICATE KEY UPDATE count = count + VALUES(count)`;
    const increments = ordered.flatMap(({ apiKeyId, bucket, start, takes: indexes }) => [apiKeyId, bucket, start, indexes.length]);
    // Two processes opening the same window can deadlock on InnoDB's gap locks; the loser retries.
    const counts = await withTransientRetry(async () => {
      // MariaDB answers the rows as the upsert left them: one statement, no transaction around it.
      const returned = await this.db.insertReturning?.<WindowRow>(`${upsert} RETURNING ${windowColumns}`, increments);
      if (returned) return returned;
      // MySQL: the read in the upsert's transaction sees the rows as this increment left them.
      return this.db.transaction(async (tx) => {
        await tx.run(upsert, increments);
        return tx.all<WindowRow>(
          `SELECT ${windowColumns} FROM rate_limit_windows WHERE ${ordered.map(() => '(api_key_id = ? AND bucket = ? AND window_start_ms = ?)').join(' OR ')}`,
          ordered.flatMap(({ apiKeyId, bucket, start }) => [apiKeyId, bucket, start]),
        );
      });
    });
    const counted = new Map(counts.map((row) => [`${row.api_key_id}\u0000${row.bucket}\u0000${Number(row.window_start_ms)}`, Number(row.count)]));
    const totals = ordered.map((window) => counted.get(window.name) ?? window.takes.length);
    const decisions: Outcome<RateDecision>[] = new Array(takes.length);
    ordered.forEach((window, windowIndex) => {
      // The batch's calls took the last n counts of the window, in arrival order.
      const first = totals[windowIndex] - window.takes.length + 1;
      window.takes.forEach((takeIndex, place) => {
        const take = takes[takeIndex];
        decisions[takeIndex] = { ok: true, value: decide(first + place, take.limit, window.start, take.nowMs) };
      });
    });
    return decisions;
  }

  /** Old windows are useless; the sweeper-side purge drops them. */
  async purgeBefore(nowMs: number): Promise<void> {
    await this.db.run('DELETE FROM rate_limit_windows WHERE window_start_ms < ?', [nowMs - 2 * rateWindowMs]);
  }
}
