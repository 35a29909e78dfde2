/**
 * When each API key (or OAuth link) was last used, without a write per use. The first use of an id in each
 * `resolutionMs` is kept (its own time: a stored last use is exact to the resolution), and the kept uses of every id
 * are written together at most once per `flushMs`, one statement for all of them. A write per key per second made the
 * bookkeeping grow with the keys in use: 100 keys busy on two API processes were 200 UPDATEs a second, a quarter of a
 * statement per create in the production bench, and each held the key's row lock in some other write's transaction.
 * A use is not awaited by the request it belongs to: a failed write is reported and the request goes on.
 */
export type WriteLastUses = (uses: ReadonlyMap<string, number>, resolutionMs: number) => Promise<void>;

export interface LastUseOptions {
  resolutionMs: number;
  /** How long a kept use waits for others to share its write; 1 s by default. */
  flushMs?: number;
  onError(error: unknown): void;
}

export class LastUseRecorder {
  /** The time each id's use was last kept: later uses within the resolution are not. */
  private readonly lastKept = new Map<string, number>();
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: WriteLastUses,
    private readonly options: LastUseOptions,
  ) {}

  record(id: string, atMs: number): void {
    if (atMs - (this.lastKept.get(id) ?? Number.NEGATIVE_INFINITY) < this.options.resolutionMs) return;
    this.lastKept.set(id, atMs);
    this.pending.set(id, atMs);
    // Unref'd: a pending use never keeps a process alive; close() writes it at shutdown.
    this.timer ??= setTimeout(() => void this.flush(), this.options.flushMs ?? 1_000).unref();
  }

  /** Writes the kept uses now; resolves once they are written (or their failure reported). */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return this.writing;
    const uses = this.pending;
    this.pending = new Map();
    this.forgetOlderThan(Math.min(...uses.values()) - this.options.resolutionMs);
    // One write at a time: a later flush of the same id never lands before an earlier one.
    this.writing = this.writing.then(() => this.write(uses, this.options.resolutionMs)).catch((error: unknown) => this.options.onError(error));
    return this.writing;
  }

  /** At shutdown, before the store closes: what was kept is written. */
  close(): Promise<void> {
    return this.flush();
  }

  /** Ids whose last kept use is past the resolution would be kept again anyway: the map holds only the busy ones. */
  private forgetOlderThan(cutoffMs: number): void {
    for (const [id, keptAtMs] of this.lastKept) if (keptAtMs < cutoffMs) this.lastKept.delete(id);
  }
}
