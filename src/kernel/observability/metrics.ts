/**
 * The metric catalogue in code: every family of docs/metrics.md with its labels and buckets, one registry per
 * gateway so that tests and several gateways in one process do not collide (a test holds this file and the doc
 * together, both ways). Exposed at `/metrics` by the API and by a worker's health port.
 *
 * Kernel code records through the typed methods below, never through the families: label values are checked
 * by the compiler, and each method reuses one prom-client child per label set (labelled-children.ts), so a
 * create or a poll pays a map lookup, not a label object. Gauges of live in-process state (breakers, the
 * database pool, the broker connection, worker slots) are read when scraped; gauges that need the store are
 * refreshed on a timer (store-gauges.ts), never per scrape.
 */
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import { labelledChildren } from './labelled-children.js';

export const finishOutcomes = ['succeeded', 'failed', 'cancelled'] as const;
export type FinishOutcome = (typeof finishOutcomes)[number];

export const providerCallKinds = ['start', 'status', 'cancel', 'reconcile'] as const;
export type ProviderCallKind = (typeof providerCallKinds)[number];

/**
 * One outcome per call, the first that applies: `cancelled` (the client's cancel aborted it), `breaker_open`,
 * `outcome_unknown` (a submission may have reached the vendor), `timeout`, then `retryable_error` or
 * `permanent_error` as the plugin classified the failure.
 */
export const providerCallOutcomes = ['ok', 'retryable_error', 'permanent_error', 'outcome_unknown', 'breaker_open', 'timeout', 'cancelled'] as const;
export type ProviderCallOutcome = (typeof providerCallOutcomes)[number];

export const webhookOutcomes = ['delivered', 'failed_attempt', 'gave_up'] as const;
export type WebhookOutcome = (typeof webhookOutcomes)[number];

export const backlogStates = ['queued', 'processing'] as const;
export type BacklogState = (typeof backlogStates)[number];

export const settleDirections = ['up', 'down'] as const;
export const publishOutcomes = ['confirmed', 'failed'] as const;
export type PublishOutcome = (typeof publishOutcomes)[number];
export const sweeperActions = ['republished', 'released_lease'] as const;
export type SweeperAction = (typeof sweeperActions)[number];
export const rateLimitBuckets = ['create', 'read', 'webhook_test'] as const;
export const poolStates = ['used', 'free', 'pending'] as const;
export const slotStates = ['busy', 'free'] as const;
export const gatewayRoles = ['api', 'worker', 'all'] as const;
export type GatewayRole = (typeof gatewayRoles)[number];

/** The label value of a request no provider served (refused by every one, cancelled while queued, given up). */
export const noProvider = 'none';

/**
 * Bucket upper bounds in seconds. Requests: an image takes seconds, a video minutes, a 3D model up to half an
 * hour; the steps between 5 s and 30 s are dense because most generations end there (a p95 of 7.6 s must not
 * read as 13.5 s). HTTP reaches 120 s because `Prefer: wait` holds a create for up to 60 s. Poll lateness is dense
 * below a second (issue 18's target: a p99 under 1 s at 10,000 tasks per worker) and reaches 300 s for a worker pool
 * far behind.
 */
export const secondsBuckets = {
  request: [0.1, 0.25, 0.5, 1, 2.5, 5, 7.5, 10, 15, 20, 30, 60, 120, 300, 600, 900, 1200, 1800],
  providerCall: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30, 60, 120, 300],
  pollLateness: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
  webhook: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15, 30],
  http: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
};

/** In-process state read at scrape time: no I/O, a few property reads each. */
export interface LiveSources {
  /** Every loaded provider and whether its circuit breaker is open now. */
  breakers(): Iterable<readonly [provider: string, open: boolean]>;
  /** The database connections this process holds; undefined when the driver does not tell. */
  databaseConnections(): { used: number; free: number; pending: number } | undefined;
  brokerConnected(): boolean;
  /** The worker's job slots; undefined in a process that does not consume jobs. */
  workerSlots(): { busy: number; free: number } | undefined;
}

/** A registry's metrics as prom-client's JSON: what crosses from the worker thread to the main thread's `/metrics`. */
export type MetricSnapshot = MetricObjectWithValues<MetricValue<string>>[];

export class GatewayMetrics {
  readonly registry = new Registry();
  private live: LiveSources | undefined;
  private readonly peers: (() => Promise<MetricSnapshot>)[] = [];

  readonly buildInfo = new Gauge({ name: 'mediagate_build_info', help: 'The running build (always 1); join on it for versions and roles', labelNames: ['version', 'node_version', 'role'], registers: [this.registry], aggregator: 'max' });

  readonly requestsCreated = new Counter({ name: 'mediagate_requests_created_total', help: 'Requests accepted (202)', labelNames: ['operation', 'model'], registers: [this.registry] });
  readonly requestsFinished = new Counter({
    name: 'mediagate_requests_finished_total',
    help: 'Requests that reached a terminal state, by the provider that served them (none when none did)',
    labelNames: ['operation', 'provider', 'model', 'outcome'],
    registers: [this.registry],
  });
  readonly requestDuration = new Histogram({ name: 'mediagate_request_duration_seconds', help: 'Create to terminal state', labelNames: ['operation', 'outcome'], buckets: secondsBuckets.request, registers: [this.registry] });
  readonly queueWait = new Histogram({ name: 'mediagate_request_queue_wait_seconds', help: 'Create to the first start by a worker', labelNames: ['operation'], buckets: secondsBuckets.request, registers: [this.registry] });
  readonly backlog = new Gauge({ name: 'mediagate_requests_backlog', help: 'Requests not yet terminal, from the store (refreshed on a timer)', labelNames: ['state'], registers: [this.registry] });
  readonly oldestAge = new Gauge({ name: 'mediagate_requests_oldest_age_seconds', help: 'Age of the oldest request in that state, from its create (0 when none)', labelNames: ['state'], registers: [this.registry] });
  readonly workerSlots = new Gauge({
    name: 'mediagate_worker_slots',
    help: "The worker's concurrent job slots (processes that consume jobs only)",
    labelNames: ['state'],
    registers: [this.registry],
    collect: () => this.readWorkerSlots(),
  });

  readonly providerCalls = new Counter({ name: 'mediagate_provider_calls_total', help: 'Calls into provider plugins', labelNames: ['provider', 'call', 'outcome'], registers: [this.registry] });
  readonly providerCallDuration = new Histogram({
    name: 'mediagate_provider_call_duration_seconds',
    help: "One plugin call, including the vendor's HTTP round trips",
    labelNames: ['provider', 'call'],
    buckets: secondsBuckets.providerCall,
    registers: [this.registry],
  });
  readonly providerFallbacks = new Counter({
    name: 'mediagate_provider_fallbacks_total',
    help: "Requests served by a route's later provider after the first one tried failed or was unavailable",
    labelNames: ['operation', 'from_provider', 'to_provider'],
    registers: [this.registry],
  });
  readonly breakerOpen = new Gauge({
    name: 'mediagate_breaker_open',
    help: "1 while a provider's circuit breaker is open",
    labelNames: ['provider'],
    registers: [this.registry],
    aggregator: 'max',
    collect: () => this.readBreakers(),
  });
  readonly vendorPollLateness = new Histogram({
    name: 'mediagate_vendor_poll_lateness_seconds',
    help: "How long after its due time a worker took a vendor task's scheduled poll",
    labelNames: ['provider'],
    buckets: secondsBuckets.pollLateness,
    registers: [this.registry],
  });
  readonly vendorTasksInFlight = new Gauge({ name: 'mediagate_vendor_tasks_in_flight', help: 'Processing requests holding a vendor task, from the store (refreshed on a timer)', labelNames: ['provider'], registers: [this.registry] });

  readonly webhookDeliveries = new Counter({ name: 'mediagate_webhook_deliveries_total', help: 'Webhook delivery attempts', labelNames: ['outcome'], registers: [this.registry] });
  readonly webhookDeliveryDuration = new Histogram({ name: 'mediagate_webhook_delivery_duration_seconds', help: 'One webhook delivery attempt', labelNames: ['outcome'], buckets: secondsBuckets.webhook, registers: [this.registry] });
  readonly webhookOutboxBacklog = new Gauge({ name: 'mediagate_webhook_outbox_backlog', help: 'Webhook deliveries waiting to be sent or retried, from the store (refreshed on a timer)', registers: [this.registry] });

  readonly creditsDebited = new Counter({ name: 'mediagate_credits_debited_total', help: 'Credits charged at create', labelNames: ['operation'], registers: [this.registry] });
  readonly creditsRefunded = new Counter({ name: 'mediagate_credits_refunded_total', help: 'Credits given back (failed, cancelled, settled down)', labelNames: ['operation'], registers: [this.registry] });
  readonly creditsSettled = new Counter({ name: 'mediagate_credits_settled_total', help: 'Credits moved by settling to measured usage', labelNames: ['operation', 'direction'], registers: [this.registry] });
  readonly rateLimitRejections = new Counter({ name: 'mediagate_rate_limit_rejections_total', help: 'Calls refused with 429', labelNames: ['bucket'], registers: [this.registry] });

  readonly httpRequests = new Counter({ name: 'mediagate_http_requests_total', help: 'HTTP requests by matched route pattern', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly httpDuration = new Histogram({ name: 'mediagate_http_request_duration_seconds', help: 'HTTP request latency', labelNames: ['method', 'route', 'status'], buckets: secondsBuckets.http, registers: [this.registry] });
  readonly createWaitsRanOut = new Counter({
    name: 'mediagate_create_waits_ran_out_total',
    help: 'Creates asking Prefer: wait=1 or more that answered 202 when the wait ran out (slow by the client\'s choice)',
    registers: [this.registry],
  });

  readonly databaseUp = new Gauge({ name: 'mediagate_database_up', help: 'The last database check answered (1) or not (0)', registers: [this.registry], aggregator: 'min' });
  readonly databasePoolConnections = new Gauge({
    name: 'mediagate_database_pool_connections',
    help: 'Database connections this process holds (SQLite: one, used)',
    labelNames: ['state'],
    registers: [this.registry],
    collect: () => this.readDatabasePool(),
  });
  readonly brokerConnected = new Gauge({
    name: 'mediagate_broker_connected',
    help: 'The RabbitMQ connection is up (1 with the in-process queue)',
    registers: [this.registry],
    aggregator: 'min',
    collect: () => this.readBroker(),
  });
  readonly brokerPublishes = new Counter({ name: 'mediagate_broker_publishes_total', help: 'Job publishes and their broker confirms', labelNames: ['outcome'], registers: [this.registry] });
  readonly jobsDeadLettered = new Counter({ name: 'mediagate_jobs_dead_lettered_total', help: 'Jobs that exhausted their deliveries (their requests failed and refunded)', registers: [this.registry] });
  readonly sweeperActions = new Counter({ name: 'mediagate_sweeper_actions_total', help: 'What the sweeper repaired', labelNames: ['action'], registers: [this.registry] });

  /** `/mcp` JSON-RPC messages by method (known MCP methods only, the rest as `other`: clients choose the name). */
  readonly mcpMessages = new Counter({ name: 'mediagate_mcp_messages_total', help: 'JSON-RPC messages received on /mcp', labelNames: ['method'], registers: [this.registry] });
  /** Outcome: `ok`, `tool_error` (a failed call the model reads), `internal_error`, `unauthenticated` (refused with 401). */
  readonly mcpToolCalls = new Counter({ name: 'mediagate_mcp_tool_calls_total', help: 'MCP tool calls by tool and outcome', labelNames: ['tool', 'outcome'], registers: [this.registry] });

  private readonly created = labelledChildren((operation, model) => this.requestsCreated.labels(operation, model));
  private readonly debited = labelledChildren((operation) => this.creditsDebited.labels(operation));
  private readonly refunded = labelledChildren((operation) => this.creditsRefunded.labels(operation));
  private readonly settled = labelledChildren((operation, direction) => this.creditsSettled.labels(operation, direction));
  private readonly finished = labelledChildren((operation, provider, model, outcome) => this.requestsFinished.labels(operation, provider, model, outcome));
  private readonly durations = labelledChildren((operation, outcome) => this.requestDuration.labels(operation, outcome));
  private readonly waits = labelledChildren((operation) => this.queueWait.labels(operation));
  private readonly calls = labelledChildren((provider, call, outcome) => this.providerCalls.labels(provider, call, outcome));
  private readonly callDurations = labelledChildren((provider, call) => this.providerCallDuration.labels(provider, call));
  private readonly pollLateness = labelledChildren((provider) => this.vendorPollLateness.labels(provider));
  private readonly http = labelledChildren((method, route, status) => ({ count: this.httpRequests.labels(method, route, status), duration: this.httpDuration.labels(method, route, status) }));
  private readonly breakerChildren = labelledChildren((provider) => this.breakerOpen.labels(provider));

  constructor(options: { defaultMetrics?: boolean; build?: { version: string; nodeVersion: string; role: GatewayRole } } = {}) {
    if (options.defaultMetrics) collectDefaultMetrics({ register: this.registry });
    if (options.build) this.buildInfo.set({ version: options.build.version, node_version: options.build.nodeVersion, role: options.build.role }, 1);
  }

  /**
   * Another thread's metrics, served with this registry's at every scrape (the embedded worker thread's,
   * worker-thread/). They add up family by family: counters and histograms sum; the few gauges two threads both
   * set say how they combine (`aggregator`: the build info and an open breaker by max, the database and broker
   * being up by min); the rest are set by one thread only.
   */
  includeFrom(source: () => Promise<MetricSnapshot>): void {
    this.peers.push(source);
  }

  /** The text `/metrics` serves: this registry's metrics, and those of the threads it includes. */
  async exposition(): Promise<string> {
    if (this.peers.length === 0) return this.registry.metrics();
    const all = await Promise.all([this.registry.getMetricsAsJSON(), ...this.peers.map((source) => source())]);
    return AggregatorRegistry.aggregate(all).metrics();
  }

  /** This registry's metrics as prom-client's JSON (plain data: it crosses to the thread that serves them). */
  snapshot(): Promise<MetricSnapshot> {
    return this.registry.getMetricsAsJSON();
  }

  /** Where the scrape-time gauges read from; set once the gateway is composed. */
  observeLive(sources: LiveSources): void {
    this.live = sources;
  }

  requestCreated(operation: string, model: string, credits: number): void {
    this.created(operation, model).inc();
    if (credits > 0) this.debited(operation).inc(credits);
  }

  requestFinished(request: { operation: string; provider: string; model: string }, outcome: FinishOutcome, seconds: number): void {
    this.finished(request.operation, request.provider, request.model, outcome).inc();
    this.durations(request.operation, outcome).observe(Math.max(0, seconds));
  }

  requestStarted(operation: string, queuedSeconds: number): void {
    this.waits(operation).observe(Math.max(0, queuedSeconds));
  }

  creditsGivenBack(operation: string, credits: number): void {
    if (credits > 0) this.refunded(operation).inc(credits);
  }

  /** A settlement to measured usage; a settlement down is also given back (refunded). */
  creditsSettledTo(operation: string, direction: (typeof settleDirections)[number], credits: number): void {
    if (credits <= 0) return;
    this.settled(operation, direction).inc(credits);
    if (direction === 'down') this.creditsGivenBack(operation, credits);
  }

  providerCall(provider: string, call: ProviderCallKind, outcome: ProviderCallOutcome, seconds: number): void {
    this.calls(provider, call, outcome).inc();
    this.callDurations(provider, call).observe(seconds);
  }

  /**
   * A worker took a vendor task's poll `seconds` after the due time stored for it (early is 0: a timer may fire a
   * millisecond ahead). Late polls mean the workers holding that provider's tasks are short of slots or CPU.
   */
  vendorPollTaken(provider: string, seconds: number): void {
    this.pollLateness(provider).observe(Math.max(0, seconds));
  }

  providerFallback(operation: string, fromProvider: string, toProvider: string): void {
    this.providerFallbacks.inc({ operation, from_provider: fromProvider, to_provider: toProvider });
  }

  webhookAttempt(outcome: WebhookOutcome, seconds: number): void {
    this.webhookDeliveries.inc({ outcome });
    this.webhookDeliveryDuration.observe({ outcome }, seconds);
  }

  rateLimited(bucket: (typeof rateLimitBuckets)[number]): void {
    this.rateLimitRejections.inc({ bucket });
  }

  jobPublished(outcome: PublishOutcome): void {
    this.brokerPublishes.inc({ outcome });
  }

  jobDeadLettered(): void {
    this.jobsDeadLettered.inc();
  }

  sweeperRepaired(action: SweeperAction, count: number): void {
    if (count > 0) this.sweeperActions.inc({ action }, count);
  }

  /**
   * A create with `Prefer: wait` of at least a second answered 202 because its wait ran out: counted as well as
   * answered (httpAnswered), so the create-latency SLI can leave it out (prometheus/rules: it took longer than 1 s
   * because the client asked it to wait, not because the create was slow).
   */
  createWaitRanOut(): void {
    this.createWaitsRanOut.inc();
  }

  httpAnswered(method: string, route: string, status: string, seconds: number): void {
    const child = this.http(method, route, status);
    child.count.inc();
    child.duration.observe(seconds);
  }

  private readBreakers(): void {
    for (const [provider, open] of this.live?.breakers() ?? []) this.breakerChildren(provider).set(open ? 1 : 0);
  }

  private readDatabasePool(): void {
    const connections = this.live?.databaseConnections();
    if (!connections) return;
    for (const state of poolStates) this.databasePoolConnections.set({ state }, connections[state]);
  }

  private readBroker(): void {
    if (this.live) this.brokerConnected.set(this.live.brokerConnected() ? 1 : 0);
  }

  private readWorkerSlots(): void {
    const slots = this.live?.workerSlots();
    if (!slots) return;
    for (const state of slotStates) this.workerSlots.set({ state }, slots[state]);
  }
}
