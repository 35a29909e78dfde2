/**
 * The gauges only the store can answer — the backlog by state, the age of its oldest request, the vendor tasks
 * in flight per provider, the webhook outbox — refreshed on a timer (`metrics.refresh_interval_ms`) by two
 * cheap indexed queries, and never per scrape: a scraper, or several, must not be able to put load on the
 * database. Each process with a store refreshes its own copy; they agree, so dashboards take the max.
 * Whether those queries answer is also `mediagate_database_up`.
 */
import type { Logger } from 'pino';
import type { RequestStore } from '../store/index.js';
import type { WebhookStore } from '../webhooks/index.js';
import { backlogStates, type GatewayMetrics } from './metrics.js';

export interface StoreGaugeDeps {
  requests: Pick<RequestStore, 'backlogSummary'>;
  webhooks: Pick<WebhookStore, 'pendingCount'>;
  metrics: GatewayMetrics;
  clock: { now(): number };
  /** 0 = never refreshed (the gauges stay at 0). */
  intervalMs: number;
  /** The providers whose vendor tasks are reported (those this process may call): each is set every time, 0 included. */
  taskHolders: readonly string[];
  log: Logger;
}

export class StoreGauges {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** The last answer of the store, to log a change once rather than on every refresh. */
  private answered: boolean | undefined;

  constructor(private readonly deps: StoreGaugeDeps) {}

  /**
   * Starts refreshing. Resolves after the first refresh, so that the first scrape tells the truth, or after
   * `firstWaitMs` at most: a database that does not answer must not hold up the start.
   */
  async start(firstWaitMs = 2000): Promise<void> {
    if (this.deps.intervalMs <= 0 || this.timer) return;
    const first = this.refresh();
    this.timer = setInterval(() => void this.refresh(), this.deps.intervalMs);
    this.timer.unref();
    let waited: NodeJS.Timeout | undefined;
    await Promise.race([first, new Promise<void>((resolve) => (waited = setTimeout(resolve, firstWaitMs)))]);
    clearTimeout(waited);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One refresh; a refresh already running is joined, not doubled. Never rejects. */
  refresh(): Promise<void> {
    this.running ??= this.read().finally(() => (this.running = undefined));
    return this.running;
  }

  /** The database answered a check (this refresh, or a health check) or did not. */
  databaseAnswered(ok: boolean, error?: unknown): void {
    this.deps.metrics.databaseUp.set(ok ? 1 : 0);
    if (this.answered === ok) return;
    if (!ok) this.deps.log.warn({ err: error }, 'metrics: the store did not answer; mediagate_database_up is 0');
    else if (this.answered === false) this.deps.log.info('metrics: the store answers again');
    this.answered = ok;
  }

  private async read(): Promise<void> {
    const { requests, webhooks, metrics, clock, taskHolders } = this.deps;
    let groups: Awaited<ReturnType<RequestStore['backlogSummary']>>;
    let pendingDeliveries: number;
    try {
      [groups, pendingDeliveries] = await Promise.all([requests.backlogSummary(), webhooks.pendingCount()]);
    } catch (error) {
      return this.databaseAnswered(false, error);
    }
    this.databaseAnswered(true);
    const now = clock.now();
    for (const state of backlogStates) {
      const inState = groups.filter((group) => group.status === state);
      const oldest = Math.min(...inState.map((group) => group.oldestCreatedAtMs));
      metrics.backlog.set({ state }, inState.reduce((sum, group) => sum + group.requests, 0));
      metrics.oldestAge.set({ state }, Number.isFinite(oldest) ? Math.max(0, now - oldest) / 1000 : 0);
    }
    for (const provider of taskHolders) {
      const tasks = groups.filter((group) => group.status === 'processing' && group.provider === provider).reduce((sum, group) => sum + group.vendorTasks, 0);
      metrics.vendorTasksInFlight.set({ provider }, tasks);
    }
    metrics.webhookOutboxBacklog.set(pendingDeliveries);
  }
}
