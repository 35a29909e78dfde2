/**
 * What the embedded process's main thread (HTTP, the store's admissions) and its worker thread (jobs, sweeper,
 * webhooks, retention) say to each other. Plain data only: every message crosses by structured clone.
 */
import type { Job } from '../queue/index.js';
import type { MetricSnapshot } from '../observability/metrics.js';

export type ToThread =
  /** The store is migrated: the thread, started while the main thread composed its kernel, may open it now. */
  | { type: 'store-ready' }
  | { type: 'job'; job: Job; delayMs: number }
  /** Client cancels answered on the HTTP thread, for the starts the worker thread runs (lifecycle/cancel-notices.ts). */
  | { type: 'cancels'; requestIds: string[] }
  | { type: 'metrics'; ask: number }
  | { type: 'stop' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  /** Requests whose state the worker thread changed, for the long polls and event streams of the HTTP thread. */
  | { type: 'changes'; requestIds: string[] }
  | { type: 'metrics'; ask: number; metrics: MetricSnapshot }
  | { type: 'breaker'; pluginId: string; open: boolean };
