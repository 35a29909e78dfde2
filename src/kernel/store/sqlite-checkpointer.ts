/**
 * WAL checkpoints off the event loop. With `synchronous = NORMAL` a commit never fsyncs; a checkpoint
 * does (the WAL, then the database file), and SQLite runs it inside whichever commit crosses
 * `wal_autocheckpoint`, stalling every request queued behind that commit. Measured on this project's
 * schema, checkpoints were half the cost of inserting a request row, and the commit that ran one took
 * 15-25 ms instead of 0.3 ms. So a worker thread with its own connection checkpoints on a timer.
 *
 * The serving connection keeps its own autocheckpoint, at a much larger WAL size (the backstop): SQLite
 * rewinds the WAL only when a write starts with every frame already copied back, which under continuous
 * writes never happens between two PASSIVE checkpoints of another connection. At the backstop the serving
 * connection checkpoints once, copying only what the thread has not copied yet, and the WAL starts over;
 * `journal_size_limit` then gives the file back. The same backstop bounds the WAL should the thread stop.
 */
import { Worker } from 'node:worker_threads';

export interface CheckpointerOptions {
  /** How often the thread checkpoints. */
  intervalMs?: number;
  /** WAL pages after which the serving connection checkpoints by itself (default 16384, 64 MB of 4 KB pages). */
  backstopPages?: number;
  /** Called when a checkpoint fails (the backstop keeps the WAL bounded meanwhile). */
  onError?: (message: string) => void;
}

export const defaultBackstopPages = 16_384;

export class SqliteCheckpointer {
  private readonly thread: Worker;
  private readonly exited: Promise<void>;

  constructor(filename: string, options: CheckpointerOptions = {}) {
    this.thread = new Worker(new URL('./sqlite-checkpoint-thread.mjs', import.meta.url), {
      workerData: { filename, intervalMs: options.intervalMs ?? 200 },
    });
    this.thread.on('message', (message: { error?: string }) => {
      if (message.error) options.onError?.(message.error);
    });
    this.thread.on('error', (error) => options.onError?.(error.message));
    this.exited = new Promise((resolve) => this.thread.once('exit', () => resolve()));
    // A checkpointer never keeps the process alive on its own.
    this.thread.unref();
  }

  async stop(): Promise<void> {
    this.thread.postMessage('stop');
    await this.exited;
  }
}
