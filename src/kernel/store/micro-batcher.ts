/**
 * Gathers the items submitted in the same event-loop turn (and while a batch is running) and hands them to
 * one `run` call, then answers each submitter with its own outcome. The store uses it wherever many small
 * writes would otherwise each pay a round trip or a COMMIT: group commit and request admission.
 */
export type Outcome<Result> = { ok: true; value: Result } | { ok: false; error: unknown };

interface Pending<Item, Result> {
  item: Item;
  weight: number;
  resolve: (value: Result) => void;
  reject: (error: unknown) => void;
}

export interface MicroBatcherOptions<Item> {
  /** Batches running at once (1: strictly one after another). */
  parallel?: number;
  maxBatch?: number;
  /** Caps a batch's total weight (e.g. bytes it will send); an item heavier than the cap goes alone. */
  maxWeight?: number;
  weigh?: (item: Item) => number;
}

export class MicroBatcher<Item, Result> {
  private readonly pending: Pending<Item, Result>[] = [];
  private running = 0;
  private idleWaiters: (() => void)[] = [];

  /**
   * @param run answers one outcome per item, in order; when it throws, every item of the batch gets that error.
   */
  constructor(
    private readonly run: (items: Item[]) => Promise<Outcome<Result>[]>,
    private readonly options: MicroBatcherOptions<Item> = {},
  ) {}

  submit(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.pending.push({ item, weight: this.options.weigh?.(item) ?? 0, resolve, reject });
      if (this.running < (this.options.parallel ?? 1)) {
        this.running += 1;
        void this.drain();
      }
    });
  }

  /** Resolves when nothing is queued or running. */
  async idle(): Promise<void> {
    while (this.running > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * The running count drops in the same synchronous step that finds nothing pending: a submitter woken by
   * this batch's answers (they settle in later microtasks) then starts a new drain instead of queueing
   * behind one that has already decided to stop.
   */
  private async drain(): Promise<void> {
    try {
      // Let the submissions of this turn gather before the first batch opens.
      await new Promise((resolve) => setImmediate(resolve));
      while (this.pending.length > 0) await this.runBatch(this.takeBatch());
    } finally {
      this.running -= 1;
      if (this.running === 0) {
        const waiters = this.idleWaiters;
        this.idleWaiters = [];
        waiters.forEach((wake) => wake());
      }
    }
  }

  private takeBatch(): Pending<Item, Result>[] {
    const maxBatch = this.options.maxBatch ?? 128;
    const maxWeight = this.options.maxWeight ?? Infinity;
    let count = 0;
    let weight = 0;
    while (count < this.pending.length && count < maxBatch) {
      weight += this.pending[count].weight;
      if (count > 0 && weight > maxWeight) break;
      count += 1;
    }
    return this.pending.splice(0, count);
  }

  private async runBatch(batch: Pending<Item, Result>[]): Promise<void> {
    let outcomes: Outcome<Result>[];
    try {
      outcomes = await this.run(batch.map((entry) => entry.item));
    } catch (error) {
      batch.forEach((entry) => entry.reject(error));
      return;
    }
    batch.forEach((entry, index) => {
      const outcome = outcomes[index];
      if (outcome.ok) entry.resolve(outcome.value);
      else entry.reject(outcome.error);
    });
  }
}
