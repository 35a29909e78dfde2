/**
 * When each vendor poll was due, as the gateway scheduled it, so the mock vendor can tell how late it arrived.
 *
 * The worker stores a task's next check as `next_check_at_ms` with the poll number (`poll_count`) when it hands the
 * request back (recordTask), and clears it when it claims the poll. That stored time, jitter included, is the due
 * time; nothing else knows it. So the bench reads it from the database every `intervalMs` (one indexed query; the
 * smallest delay the bench's manifest asks for is 4.5 s, so every scheduled poll is seen several times before it is
 * due) and keeps the first value seen for each poll number: a sweeper that later postpones an overdue row does not
 * move the goal post. A poll arrival consumes its request's due time; an arrival with none left is a poll the gateway
 * did not schedule (a lease takeover after a crash, or a duplicate job) and is counted apart.
 */
import mysql from 'mysql2/promise';

interface Due {
  pollCount: number;
  dueAtMs: number;
}

export interface ScheduleRecord {
  /** Arrival time and lateness (arrival - due) of every scheduled poll that arrived. */
  arrivals: { atMs: number[]; latenessMs: number[] };
  /** Arrivals with no due time: when they came and how long after the task's previous read. */
  unscheduled: { atMs: number[]; sincePreviousReadMs: number[] };
  samples: number;
  sampleMeanMs: number;
}

export class PollSchedule {
  private readonly dues = new Map<string, Due>();
  private readonly consumed = new Map<string, number>();
  private readonly lastArrival = new Map<string, number>();
  private readonly record: ScheduleRecord = { arrivals: { atMs: [], latenessMs: [] }, unscheduled: { atMs: [], sincePreviousReadMs: [] }, samples: 0, sampleMeanMs: 0 };
  private pool: mysql.Pool | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sampling: Promise<void> | undefined;
  private sampleTotalMs = 0;

  /** Starts reading due times from the gateway's database. */
  start(databaseUrl: string, intervalMs: number): void {
    this.pool = mysql.createPool({ uri: databaseUrl, connectionLimit: 1 });
    this.timer = setInterval(() => {
      this.sampling ??= this.sample().finally(() => (this.sampling = undefined));
    }, intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sampling;
    await this.pool?.end();
  }

  /** A scheduled (not retried) status read of the request's task arrived. */
  arrived(requestId: string, atMs: number): void {
    const previous = this.lastArrival.get(requestId);
    this.lastArrival.set(requestId, atMs);
    const due = this.dues.get(requestId);
    if (!due) {
      this.record.unscheduled.atMs.push(atMs);
      this.record.unscheduled.sincePreviousReadMs.push(previous === undefined ? Number.NaN : atMs - previous);
      return;
    }
    this.dues.delete(requestId);
    this.consumed.set(requestId, due.pollCount);
    this.record.arrivals.atMs.push(atMs);
    this.record.arrivals.latenessMs.push(atMs - due.dueAtMs);
  }

  report(): ScheduleRecord {
    return { ...this.record, sampleMeanMs: this.record.samples > 0 ? this.sampleTotalMs / this.record.samples : 0 };
  }

  private async sample(): Promise<void> {
    const began = performance.now();
    const [rows] = await this.pool!.query(
      `SELECT id, poll_count, next_check_at_ms FROM requests
        WHERE status = 'processing' AND task IS NOT NULL AND lease_owner IS NULL AND next_check_at_ms IS NOT NULL`,
    );
    for (const row of rows as { id: string; poll_count: number; next_check_at_ms: number }[]) {
      const pollCount = Number(row.poll_count);
      if ((this.consumed.get(row.id) ?? -1) >= pollCount) continue;
      if (this.dues.get(row.id)?.pollCount === pollCount) continue;
      this.dues.set(row.id, { pollCount, dueAtMs: Number(row.next_check_at_ms) });
    }
    this.record.samples += 1;
    this.sampleTotalMs += performance.now() - began;
  }
}
