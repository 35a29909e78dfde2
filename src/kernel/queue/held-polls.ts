/**
 * Poll jobs a worker keeps in its own timers instead of sending them through the broker's delay levels.
 *
 * A vendor poll is rescheduled every few seconds for as long as the vendor works, and each trip through the delay
 * levels costs RabbitMQ a few quorum-queue commands and the worker a confirmed publish and a delivery: at 10,000
 * tasks in flight that was the largest CPU item per poll (docs/performance-notes.md). The worker that schedules a
 * poll is the one that will run it, so it can keep the job itself. Nothing is lost by that: the request row holds the
 * poll's due time, and the sweeper republishes a due poll nobody ran (its worker died) after `requeue_after_ms`;
 * a graceful stop hands the held jobs back to the broker with the delay they still had. A held job keeps the row its
 * worker wrote when it scheduled the poll (`Job.known`), so the poll's claim needs no read of the row either.
 */
import type { Job } from './queue-port.js';

interface Held {
  job: Job;
  dueAtMs: number;
  timer: NodeJS.Timeout | undefined;
}

export class HeldPolls {
  private readonly held = new Set<Held>();
  private stopped = false;

  /** `due(job)` runs the job once its delay is over; it owns the job from then on. */
  constructor(private readonly due: (job: Job) => void) {}

  /** Jobs held right now. */
  get size(): number {
    return this.held.size;
  }

  /** False once `takeAll()` ran: the caller sends delayed jobs through the broker again. */
  get accepting(): boolean {
    return !this.stopped;
  }

  hold(job: Job, delayMs: number): void {
    const entry: Held = { job, dueAtMs: Date.now() + delayMs, timer: undefined };
    entry.timer = setTimeout(() => {
      this.held.delete(entry);
      this.due(job);
    }, delayMs);
    this.held.add(entry);
  }

  /** Stops holding: every timer is cleared and its job returned with the delay it still had (0 if due). */
  takeAll(): { job: Job; remainingMs: number }[] {
    this.stopped = true;
    const now = Date.now();
    const taken = [...this.held].map((entry) => {
      clearTimeout(entry.timer);
      return { job: entry.job, remainingMs: Math.max(0, entry.dueAtMs - now) };
    });
    this.held.clear();
    return taken;
  }
}
