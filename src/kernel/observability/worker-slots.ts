/**
 * The worker's job slots as the metrics see them (`mediagate_worker_slots`): how many of its `concurrency`
 * handlers run now. Counted around the handler the queue calls, so both queue adapters are measured alike.
 */
import type { JobHandler } from '../queue/index.js';

export class WorkerSlots {
  private busy = 0;
  private consuming = false;

  constructor(private readonly capacity: number) {}

  /** The handler to give the queue; from now on this process reports its slots. */
  around(handler: JobHandler): JobHandler {
    this.consuming = true;
    return async (job) => {
      this.busy += 1;
      try {
        await handler(job);
      } finally {
        this.busy -= 1;
      }
    };
  }

  /** Undefined in a process that does not consume jobs (an API process): it has no slots to report. */
  read(): { busy: number; free: number } | undefined {
    return this.consuming ? { busy: this.busy, free: Math.max(0, this.capacity - this.busy) } : undefined;
  }
}
