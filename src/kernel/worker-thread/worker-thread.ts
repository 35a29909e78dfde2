/**
 * The embedded worker on a thread of its own (`worker.thread`), seen from the main thread. The embedded process
 * would otherwise run HTTP, the store's admissions and every job's claim, provider call and finish on one
 * JavaScript thread; measured, the worker's share was about a fifth of a create's CPU (docs/performance-notes.md,
 * target 5). The thread runs a second kernel (thread-main.ts) in the worker role: its own SQLite connection to
 * the same file, the in-process queue, the sweeper, webhooks and the retention purge. The main thread keeps HTTP,
 * MCP and the console.
 *
 * Between the two go plain messages (messages.ts): jobs and client cancels (main -> thread), change notices
 * (thread -> main), breaker changes (thread -> main, so /healthz and the MCP availability tool see them), and the
 * thread's metrics when /metrics is scraped. A thread that dies is started again after a pause, as a process
 * manager would restart the embedded process: its jobs lived in memory, and its sweeper sends them again from the
 * store (the requests are never lost, as with a crash of the whole process).
 */
import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Settings } from '../config/index.js';
import { MemoryChangeFeed, type Job } from '../queue/index.js';
import type { FromThread, ToThread } from './messages.js';
import type { JobSink } from './thread-queue.js';
import type { MetricSnapshot } from '../observability/metrics.js';

export interface WorkerThreadOptions {
  settings: Settings;
  log: Logger;
  /** The pause before a thread that died is started again; doubled at each failure in a row, up to 30 s. */
  restartDelayMs?: number;
  /** How long a scrape waits for the thread's metrics before serving the main thread's alone. */
  metricsTimeoutMs?: number;
}

/** Where the thread's breaker changes are mirrored (the main thread's PluginRegistry). */
export interface BreakerMirror {
  mirrorBreaker(pluginId: string, open: boolean): void;
}

/** Held while a thread restarts; past this a thread that keeps failing drops jobs (the store still has them). */
const maxPending = 10_000;

export class EmbeddedWorkerThread implements JobSink {
  /** The main thread's change feed: what the worker thread announces arrives here, for the waiters (watches). */
  readonly changes = new MemoryChangeFeed();
  /** The main thread's cancel notices: what the canceller announces goes to the worker thread's running starts. */
  readonly cancels = new MemoryChangeFeed((requestIds) => {
    if (!this.stopping) this.send({ type: 'cancels', requestIds });
  });
  private thread: Worker | undefined;
  /** Messages sent while no thread runs (between a death and the restart): handed to the next one. */
  private pending: ToThread[] = [];
  private ready = false;
  /** Set at the first start: from then on a thread that dies is started again (a first start that fails throws). */
  private startedOnce = false;
  private stopping = false;
  private failuresInARow = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private nextAsk = 1;
  private readonly asks = new Map<number, (metrics: MetricSnapshot) => void>();
  private exited: Promise<void> = Promise.resolve();
  /** The first start, from `launch` on. */
  private launched: Promise<void> | undefined;
  /** Set once the main thread has migrated the store; every thread started from then on is told at once. */
  private storeIsReady = false;
  private breakers: BreakerMirror | undefined;

  constructor(private readonly options: WorkerThreadOptions) {}

  /**
   * Starts the thread while the main thread is still composing its own kernel: on two cores the thread loads its
   * manifests and plugins meanwhile (measured: most of its start), and opens the store once told it is migrated
   * (`storeReady`). A failure waits for `start` to report it.
   */
  launch(): void {
    if (this.launched) return;
    this.launched = this.spawn();
    this.launched.catch(() => undefined);
  }

  /** The store is migrated: the thread may open it. */
  storeReady(): void {
    this.storeIsReady = true;
    this.thread?.postMessage({ type: 'store-ready' } satisfies ToThread);
  }

  /**
   * The thread's breaker changes go to `mirror` from now on. Set before `storeReady`: a thread opens no breaker
   * before its kernel is up, which waits for the store.
   */
  mirrorBreakersOn(mirror: BreakerMirror): void {
    this.breakers = mirror;
  }

  /** Resolves once the thread consumes jobs (started by `launch`, or now), rejects with its reason when it cannot. */
  start(): Promise<void> {
    this.launch();
    return this.launched!;
  }

  sendJob(job: Job, delayMs: number): boolean {
    if (this.stopping) return false;
    return this.send({ type: 'job', job, delayMs });
  }

  running(): boolean {
    return this.ready && !this.stopping;
  }

  /** The thread's metrics as prom-client's JSON, or none when it does not answer in time (dead, restarting). */
  metrics(): Promise<MetricSnapshot> {
    if (!this.running()) return Promise.resolve([]);
    const ask = this.nextAsk++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.asks.delete(ask);
        resolve([]);
      }, this.options.metricsTimeoutMs ?? 2000);
      this.asks.set(ask, (metrics) => {
        clearTimeout(timer);
        resolve(metrics);
      });
      this.send({ type: 'metrics', ask });
    });
  }

  /**
   * Asks the thread to stop (its jobs in flight finish, as a worker process's do at SIGTERM) and waits for it,
   * at most `worker.shutdown_timeout_ms`; then it is terminated.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    const thread = this.thread;
    if (!thread) return;
    thread.postMessage({ type: 'stop' } satisfies ToThread);
    const timeout = setTimeout(() => void thread.terminate(), this.options.settings.worker.shutdown_timeout_ms);
    await this.exited;
    clearTimeout(timeout);
  }

  /** False when the message was dropped: no thread runs and the pause has gathered `maxPending` already. */
  private send(message: ToThread): boolean {
    if (this.thread) this.thread.postMessage(message);
    else if (this.pending.length < maxPending) this.pending.push(message);
    else return false;
    return true;
  }

  private spawn(): Promise<void> {
    const thread = new Worker(new URL('./thread-entry.mjs', import.meta.url), { workerData: { settings: this.options.settings } });
    this.thread = thread;
    if (this.storeIsReady) thread.postMessage({ type: 'store-ready' } satisfies ToThread);
    for (const message of this.pending.splice(0)) thread.postMessage(message);
    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    let reason: Error | undefined;
    thread.on('message', (message: FromThread) => {
      switch (message.type) {
        case 'ready':
          this.ready = true;
          this.startedOnce = true;
          this.failuresInARow = 0;
          settle?.resolve();
          return;
        case 'failed':
          reason = new Error(`the worker thread could not start: ${message.message}`);
          return;
        case 'changes':
          this.changes.receive(message.requestIds);
          return;
        case 'breaker':
          this.breakers?.mirrorBreaker(message.pluginId, message.open);
          return;
        case 'metrics':
          this.asks.get(message.ask)?.(message.metrics);
          this.asks.delete(message.ask);
          return;
      }
    });
    thread.on('error', (error) => {
      reason ??= error;
      this.options.log.error({ err: error }, 'the worker thread failed');
    });
    this.exited = new Promise((resolve) => {
      thread.once('exit', (code) => {
        this.thread = undefined;
        const wasReady = this.ready;
        this.ready = false;
        for (const answer of this.asks.values()) answer([]);
        this.asks.clear();
        resolve();
        if (!wasReady) settle?.reject(reason ?? new Error(`the worker thread exited (code ${code}) before it was ready`));
        settle = undefined;
        if (this.startedOnce && !this.stopping) this.restartAfterDeath(code, reason);
      });
    });
    return started;
  }

  private restartAfterDeath(code: number, reason: Error | undefined): void {
    this.failuresInARow += 1;
    const delay = Math.min(30_000, (this.options.restartDelayMs ?? 1000) * 2 ** (this.failuresInARow - 1));
    this.options.log.error({ code, err: reason, restartInMs: delay }, 'the worker thread stopped; starting it again (the sweeper re-sends its jobs from the store)');
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.stopping) return;
      this.spawn().catch((error: unknown) => this.options.log.error({ err: error }, 'the worker thread could not start again'));
    }, delay);
    this.restartTimer.unref();
  }
}
