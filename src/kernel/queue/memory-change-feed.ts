/**
 * The change feed of the embedded default: the worker, the finisher and the waiters share one process, so a notice
 * is a function call. Notices announced in one turn of the event loop reach the listener as one batch on the next
 * (setImmediate), so a burst of transitions costs the waiters one batched read, and the announcer never runs the
 * listener inside its own call (the finisher announces right after its commit).
 *
 * When the embedded worker runs on a thread of its own (worker-thread/), each thread holds one of these: a batch
 * also goes to `forward` (the other thread), and what the other thread forwards arrives through `receive`.
 */
import type { ChangeFeed, ChangeListener } from './change-feed.js';

export class MemoryChangeFeed implements ChangeFeed {
  private listener: ChangeListener | undefined;
  private readonly gathered = new Set<string>();
  private scheduled = false;
  private closed = false;

  constructor(private readonly forward?: (requestIds: string[]) => void) {}

  announce(requestId: string): void {
    // Nobody listens in a process that serves no waiters (a worker) and forwards nowhere: nothing to gather.
    if ((!this.listener && !this.forward) || this.closed) return;
    this.gathered.add(requestId);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => this.deliver());
  }

  /** A batch the other thread announced: delivered here as it came (it was batched there). */
  receive(requestIds: readonly string[]): void {
    if (!this.closed && requestIds.length > 0) this.listener?.changed(requestIds);
  }

  async subscribe(listener: ChangeListener): Promise<void> {
    if (this.listener) throw new Error('the change feed already has a listener');
    this.listener = listener;
  }

  async close(): Promise<void> {
    this.deliver();
    this.closed = true;
  }

  private deliver(): void {
    this.scheduled = false;
    if (this.gathered.size === 0) return;
    const ids = [...this.gathered];
    this.gathered.clear();
    this.forward?.(ids);
    this.listener?.changed(ids);
  }
}
