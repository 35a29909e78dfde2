/**
 * The job queue as the main thread sees it when the embedded worker runs on a thread of its own: a publish hands
 * the job to the worker thread, whose in-process queue (queue/memory-queue.ts) holds, delays and runs it. As with
 * the in-process queue, a job lives in memory only: if the thread dies the store still has the request, and the
 * restarted thread's sweeper sends it again.
 */
import { jobPublishSpan, spanNames, tracing } from '../observability/tracing.js';
import { withTraceparent, type Job, type JobQueue, type PublishObserver } from '../queue/index.js';

/** Where published jobs go: the worker thread, or false when it is not running (stopped, or being restarted). */
export interface JobSink {
  sendJob(job: Job, delayMs: number): boolean;
  running(): boolean;
}

export class ThreadQueue implements JobQueue {
  readonly delayedJobsDieWithProcess = true;

  constructor(
    private readonly sink: JobSink,
    private readonly onPublish?: PublishObserver,
  ) {}

  async publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    // A start job carries its admitted row (`known`, queue-port.ts) to the thread as it is.
    const sent = await tracing.inSpan(spanNames.publish, jobPublishSpan(job, delayMs, 'mediagate-thread'), async (span) => this.sink.sendJob(withTraceparent(job, span.traceparent), delayMs));
    this.onPublish?.(sent ? 'confirmed' : 'failed');
  }

  async consume(): Promise<void> {
    throw new Error('the main thread does not consume jobs: the worker thread does');
  }

  /** The thread closes its own queue when it stops (worker-thread.ts). */
  async close(): Promise<void> {}

  async health(): Promise<{ ok: boolean; detail?: string }> {
    return this.sink.running() ? { ok: true } : { ok: false, detail: 'the worker thread is not running' };
  }
}
