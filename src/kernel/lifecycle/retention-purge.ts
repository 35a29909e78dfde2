/**
 * Retention: submitted input, terminal output and hosted files are kept for `retention.days` (7 by default,
 * as the spec promises), then removed; the request row stays (status, credits, times) with
 * `dataRemovedAtMs` set. Safe on several workers at once: files are deleted first (deleting twice is
 * harmless), then the row is marked with a conditional update — a crash in between only repeats the delete.
 */
import type { Logger } from 'pino';
import type { BlobStore } from '../blobs/index.js';
import type { IdempotencyStore, RequestStore } from '../store/index.js';

export interface RetentionSettings {
  days: number;
  interval_ms: number;
  batch_size: number;
}

export class RetentionPurge {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(
    private readonly deps: {
      requests: RequestStore;
      idempotency: IdempotencyStore;
      blobs: BlobStore;
      /** Webhook payloads carry the output too. */
      dropWebhookPayloads?: (requestId: string) => Promise<void>;
      /** Other time-bound bookkeeping to drop on each pass (e.g. old rate-limit windows). */
      dropExpired?: (nowMs: number) => Promise<void>;
      clock: { now(): number };
      settings: RetentionSettings;
      log: Logger;
    },
  ) {}

  /** One pass over everything past retention at `nowMs`; returns how many requests it purged. */
  async purge(nowMs = this.deps.clock.now()): Promise<number> {
    const { requests, idempotency, blobs, settings, log } = this.deps;
    const cutoff = nowMs - settings.days * 24 * 60 * 60 * 1000;
    let purged = 0;
    for (;;) {
      const due = await requests.findPastRetention(cutoff, settings.batch_size);
      for (const { id } of due) {
        await blobs.deletePrefix(`${id}/`);
        await this.deps.dropWebhookPayloads?.(id);
        if (await requests.removeData(id, nowMs)) purged += 1;
      }
      if (due.length < settings.batch_size) break;
    }
    const keys = await idempotency.purgeOlderThan(cutoff);
    await this.deps.dropExpired?.(nowMs);
    if (purged > 0 || keys > 0) log.info({ purged, idempotencyKeys: keys, olderThanDays: settings.days }, 'retention purge');
    return purged;
  }

  start(): void {
    this.timer = setInterval(() => {
      this.running ??= this.purge()
        .catch((error) => (this.deps.log.error({ err: error }, 'retention purge failed'), 0))
        .finally(() => (this.running = undefined));
    }, this.deps.settings.interval_ms);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }
}
