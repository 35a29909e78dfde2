/**
 * What the embedded process's main thread (HTTP, the store's admissions) and its worker thread (jobs, sweeper,
 * webhooks, retention) say to each other. Plain data only: every message crosses by structured clone.
 */
import type { Job } from '../queue/index.js';
import type { MetricSnapshot } from '../observability/metrics.js';

/** The two change-notice topics: requests' state changes (worker -> waiters) and client cancels (API -> worker). */
export type NoticeTopic = 'changes' | 'cancels';

export type ToThread =
  | { type: 'job'; job: Job; delayMs: number }
  | { type: 'notices'; topic: NoticeTopic; requestIds: string[] }
  | { type: 'metrics'; ask: number }
  | { type: 'stop' };

export type FromThread =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'notices'; topic: NoticeTopic; requestIds: string[] }
  | { type: 'metrics'; ask: number; metrics: MetricSnapshot }
  | { type: 'breaker'; pluginId: string; open: boolean }
  | { type: 'stopped' };

