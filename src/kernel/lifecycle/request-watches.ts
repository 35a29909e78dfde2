/**
 * Where long polls and event streams wait for a request's state to change: the HTTP layer holds the connections,
 * this module holds the waiting. Waking waiters must not cost a query per waiter per tick, so, per process:
 *   - one change feed subscription (queue/change-feed.ts) says which requests changed;
 *   - the changed requests that someone here watches are read in one batched query, one batch at a time, and every
 *     watch of a request gets the row read for it (two clients watching one request cost one read);
 *   - a slow re-check reads everything watched, in the same batches, every `recheck_interval_ms`: the safety net
 *     for notices the feed lost (a broker outage, a change by a process that announces nothing). It is bounded per
 *     process, not per waiter, and stops while nothing is watched.
 *
 * The race a wait must not lose: the state changes after its caller read it and before the watch listened. So a
 * watch is opened *before* the caller's first read (`open`); a notice that arrives while that read is under way
 * marks the watch, and its first `next()` has the row read again. Reads run one at a time and each delivers only to
 * watches that were already waiting when it began, so a watch never receives a row older than its caller's read.
 */
import type { Logger } from 'pino';
import type { ChangeFeed } from '../queue/index.js';
import type { RequestViewRecord } from '../store/index.js';
import { requestStateTag } from './request-state-tag.js';

export interface RequestWatchSettings {
  /** Watches (long polls and event streams) one process holds at once; past it, waits are refused. */
  max_per_process: number;
  /** Everything watched is re-read this often (batched): how late a change whose notice was lost is seen at worst. */
  recheck_interval_ms: number;
}

export interface RequestWatchesDeps {
  feed: ChangeFeed;
  /** The current views of these requests, in one query (RequestStore.viewMany); at most `readBatchSize` ids. */
  read(ids: readonly string[]): Promise<RequestViewRecord[]>;
  settings: RequestWatchSettings;
  log: Logger;
}

/** One client's wait on one request. */
export interface RequestWatch {
  /**
   * Waits for a state of the request other than the one tagged `knownTag` (requestStateTag) and returns it;
   * undefined once `deadline` (a `performance.now()` time) has passed or the watch ended (`end()`, or shutdown).
   */
  next(knownTag: string, deadline: number): Promise<RequestViewRecord | undefined>;
  /** Stops the waiting (the client went away): `next` returns undefined from now on. */
  end(): void;
  /** Gives the watch's place back; call it once the answer no longer needs the watch, however it ended. */
  close(): void;
}

/** Ids per batched read: one statement text per power of two up to it (RequestStore.viewMany). */
export const readBatchSize = 256;
/** How long a shutdown waits for the waiters to answer before it closes the store under them anyway. */
const closeGraceMs = 5_000;

export class RequestWatches {
  private readonly byRequest = new Map<string, Set<Watch>>();
  private held = 0;
  private subscription: Promise<void> | undefined;
  private readonly due = new Set<string>();
  private reading = false;
  private recheckTimer: NodeJS.Timeout | undefined;
  private shuttingDown = false;
  private drained: (() => void) | undefined;

  constructor(private readonly deps: RequestWatchesDeps) {}

  /** Watches held right now. */
  get size(): number {
    return this.held;
  }

  /** True once shutdown began: waits end, and no new ones start. */
  get closing(): boolean {
    return this.shuttingDown;
  }

  /**
   * A watch on the request, or undefined when this process already holds `max_per_process` of them or is shutting
   * down (the caller then answers without waiting). Open it before reading the state the wait starts from.
   */
  open(requestId: string): RequestWatch | undefined {
    if (this.shuttingDown || this.held >= this.deps.settings.max_per_process) return undefined;
    // The feed is subscribed on the first wait, so a process that never holds one (a worker) never listens.
    this.subscription ??= this.subscribe();
    const watch: Watch = new Watch(requestId, {
      activated: () => {
        if (!watch.missed) return;
        this.due.add(requestId);
        this.readDue();
      },
      released: () => this.release(watch),
    });
    let watches = this.byRequest.get(requestId);
    if (!watches) this.byRequest.set(requestId, (watches = new Set()));
    watches.add(watch);
    this.held += 1;
    this.recheckTimer ??= setInterval(() => this.recheck(), this.deps.settings.recheck_interval_ms).unref();
    return watch;
  }

  /** Ends every wait (each caller answers with what it has) and resolves once all watches are given back, or after a grace period. */
  async close(): Promise<void> {
    this.shuttingDown = true;
    for (const watches of this.byRequest.values()) for (const watch of watches) watch.end();
    if (this.held > 0) {
      await new Promise<void>((resolve) => {
        this.drained = resolve;
        setTimeout(resolve, closeGraceMs).unref();
      });
    }
    clearInterval(this.recheckTimer);
    this.recheckTimer = undefined;
  }

  private async subscribe(): Promise<void> {
    try {
      await this.deps.feed.subscribe({ changed: (ids) => this.changed(ids), missedSome: () => this.missedSome() });
    } catch (error) {
      this.deps.log.error({ err: error }, 'could not subscribe to request changes; waits rely on the periodic re-check');
    }
    // Whatever changed before the feed listened went unnoticed.
    this.missedSome();
  }

  private changed(ids: readonly string[]): void {
    for (const id of ids) this.notice(id);
    this.readDue();
  }

  private missedSome(): void {
    for (const id of this.byRequest.keys()) this.notice(id);
    this.readDue();
  }

  /** A waiting watch gets a read; one whose caller is still reading the starting state remembers to read again. */
  private notice(id: string): void {
    for (const watch of this.byRequest.get(id) ?? []) {
      if (watch.waiting) this.due.add(id);
      else watch.missed = true;
    }
  }

  private recheck(): void {
    for (const [id, watches] of this.byRequest) {
      for (const watch of watches) {
        if (!watch.waiting) continue;
        this.due.add(id);
        break;
      }
    }
    this.readDue();
  }

  /** One batched read at a time per process, however many notices and watches there are. */
  private readDue(): void {
    if (this.reading || this.due.size === 0) return;
    this.reading = true;
    void this.readBatches().finally(() => {
      this.reading = false;
      this.readDue();
    });
  }

  private async readBatches(): Promise<void> {
    while (this.due.size > 0) {
      // Only watches already waiting get this read's rows: one opened later starts from a read of its own that may be newer.
      const recipients = new Map<string, Watch[]>();
      for (const id of this.due) {
        this.due.delete(id);
        const waiting = [...(this.byRequest.get(id) ?? [])].filter((watch) => watch.waiting);
        if (waiting.length > 0) recipients.set(id, waiting);
        if (recipients.size === readBatchSize) break;
      }
      if (recipients.size === 0) continue;
      let rows: RequestViewRecord[];
      try {
        rows = await this.deps.read([...recipients.keys()]);
      } catch (error) {
        // These ids are dropped, not retried in a loop against a failing store: the next notice or re-check reads them.
        this.deps.log.warn({ err: error, requests: recipients.size }, 'could not read watched requests');
        continue;
      }
      for (const row of rows) {
        // One tag per request read, however many watch it; a watch is woken only when its state is not the one it has.
        const tag = requestStateTag(row);
        for (const watch of recipients.get(row.id) ?? []) watch.deliver(row, tag);
      }
    }
  }

  private release(watch: Watch): void {
    const watches = this.byRequest.get(watch.requestId);
    if (!watches?.delete(watch)) return;
    if (watches.size === 0) this.byRequest.delete(watch.requestId);
    this.held -= 1;
    if (this.held > 0) return;
    clearInterval(this.recheckTimer);
    this.recheckTimer = undefined;
    this.drained?.();
  }
}

class Watch implements RequestWatch {
  /** Set by the first `next()`: from then on reads deliver to this watch. */
  waiting = false;
  /** A notice arrived before the first `next()`, while the caller was reading the starting state. */
  missed = false;
  private latest: { record: RequestViewRecord; tag: string } | undefined;
  /** The tag of the state the caller holds (its last `next()`), so that a re-read of that same state wakes nobody. */
  private knownTag: string | undefined;
  private wake: (() => void) | undefined;
  private ended = false;
  private released = false;

  constructor(
    readonly requestId: string,
    private readonly owner: { activated(): void; released(): void },
  ) {}

  async next(knownTag: string, deadline: number): Promise<RequestViewRecord | undefined> {
    if (!this.waiting) {
      this.waiting = true;
      this.owner.activated();
    }
    this.knownTag = knownTag;
    for (;;) {
      const latest = this.latest;
      this.latest = undefined;
      if (latest && latest.tag !== knownTag) return latest.record;
      if (this.ended || this.released) return undefined;
      const remaining = deadline - performance.now();
      if (remaining <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.wake = undefined;
          resolve();
        };
        const timer = setTimeout(done, remaining);
        this.wake = done;
      });
    }
  }

  /** The newest state read for this watch; one the caller already holds replaces an older pending one silently. */
  deliver(record: RequestViewRecord, tag: string): void {
    this.latest = tag === this.knownTag ? undefined : { record, tag };
    if (this.latest) this.wake?.();
  }

  end(): void {
    this.ended = true;
    this.wake?.();
  }

  close(): void {
    if (this.released) return;
    this.released = true;
    this.wake?.();
    this.owner.released();
  }
}
