/**
 * The composition root: builds the kernel from validated settings — manifests, plugins, store, queue,
 * blobs — and hands out the pieces the HTTP API, the worker and the CLI need. Nothing here knows Koa.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DestinationStream, Logger } from 'pino';
import { ApiKeys, ConsoleSessions, ConsoleSignIn, LoginThrottle, Users } from './accounts/index.js';
import { RequestLedgers } from './credits/index.js';
import { openOAuth, type OAuthKernel } from './oauth/index.js';
import { Workspaces } from './workspaces/index.js';
import { LocalFolderBlobs, openBlobStore, publishSamples, type BlobStore } from './blobs/index.js';
import { projectRoot, type Settings } from './config/index.js';
import { CancelNoticeListener, RequestCanceller, RequestCreator, RequestFinisher, RequestWorker, RetentionPurge, Sweeper, toRequestObject } from './lifecycle/index.js';
import { loadManifests, OperationRegistry } from './manifests/index.js';
import { checkRoutes, PluginRegistry } from './plugins/index.js';
import { createLogger } from './observability/logger.js';
import { buildInfo } from './observability/build-info.js';
import { countingRejections } from './observability/counted-rate-limiter.js';
import { GatewayMetrics, type GatewayRole } from './observability/metrics.js';
import { StoreGauges } from './observability/store-gauges.js';
import { WorkerSlots } from './observability/worker-slots.js';
import { callableProviders, zeroSeries } from './observability/zero-series.js';
import { MemoryQueue, RabbitMqQueue, type JobQueue } from './queue/index.js';
import { MemoryChangeFeed, RabbitMqChangeFeed, type ChangeFeed } from './queue/index.js';
import { RequestWatches } from './lifecycle/index.js';
import { AccountStore, IdempotencyStore, RequestAdmissions, RequestStore, migrateToLatest, newId, openDatabase, type Database, type Executor, type RequestRecord } from './store/index.js';
import { WebhookDeliverer, WebhookSecrets, WebhookStore, WebhookUrlRules } from './webhooks/index.js';
import { createGuardedFetch } from './plugin-sdk/guarded-fetch.js';
import { startMediaTools } from './plugin-sdk/media-tool-binaries.js';
import { MemoryRateLimiter, SqlRateLimiter, type RateLimiter } from './rate-limits/rate-limiter.js';
import { EmbeddedWorkerThread, ThreadQueue } from './worker-thread/index.js';

export interface Gateway {
  settings: Settings;
  log: Logger;
  clock: { now(): number };
  database: Database;
  registry: OperationRegistry;
  plugins: PluginRegistry;
  requests: RequestStore;
  accounts: AccountStore;
  /** Requests' ledger entries for their details (`credits`), kept once final. */
  ledgers: RequestLedgers;
  apiKeys: ApiKeys;
  /** People who sign in to the console, and their memberships of accounts. */
  users: Users;
  consoleSessions: ConsoleSessions;
  /** E-mail + password checks for the console, throttled against guessing. */
  consoleSignIn: ConsoleSignIn;
  /** OAuth account linking: the authorization server's store and keys, links, access-token verification. */
  oauth: OAuthKernel;
  /** Creator-flow projects, worlds and assets (OAuth and console only; API keys reach them only to link results). */
  workspaces: Workspaces;
  blobs: BlobStore;
  queue: JobQueue;
  creator: RequestCreator;
  worker: RequestWorker;
  sweeper: Sweeper;
  canceller: RequestCanceller;
  retention: RetentionPurge;
  webhooks: WebhookDeliverer;
  rateLimiter: RateLimiter;
  webhookStore: WebhookStore;
  webhookSecrets: WebhookSecrets;
  /** What a webhook_url must look like (create, test sends, deliveries). */
  webhookUrlRules: WebhookUrlRules;
  metrics: GatewayMetrics;
  /** Long polls and event streams waiting on requests' state in this process (woken by the change feed). */
  watches: RequestWatches;
  /** Consumes jobs and runs the sweeper (the `worker` role). */
  startWorking(): Promise<void>;
  close(): Promise<void>;
}

export interface GatewayOptions {
  log?: Logger;
  /** Where the gateway's own logger writes (default stdout); tests capture it to check what is logged. */
  logDestination?: DestinationStream;
  clock?: { now(): number };
  queue?: JobQueue;
  blobs?: BlobStore;
  /** Skip `migrate latest` (production runs `mediagate migrate` as its own step). */
  skipMigrations?: boolean;
  /** Also collect process metrics (CPU, memory, event loop); off in tests, where many gateways share a process. */
  defaultMetrics?: boolean;
  /** What this process serves (`mediagate_build_info`'s role); default `all`. */
  role?: GatewayRole;
  /**
   * The change feed and the cancel notices, when they come from outside: the embedded worker thread's link to the
   * main thread (worker-thread/). Default: a RabbitMQ fanout each with a broker, else a function call in-process.
   */
  changeFeed?: ChangeFeed;
  cancelNotices?: ChangeFeed;
  /**
   * Where circuit breakers' openings and closings go instead of the log: the worker thread tells the main thread,
   * which mirrors them on its own breakers (for /healthz and the MCP availability tool) and logs them once.
   */
  breakerChanges?: (pluginId: string, open: boolean) => void;
  /** Refresh the store's gauges (backlog, oldest age, outbox): off in the worker thread, the main thread's report them. */
  storeGauges?: boolean;
  /** SQLite: who checkpoints the WAL (store/open-database.ts); `elsewhere` for the worker thread's second connection. */
  databaseCheckpoints?: 'background' | 'elsewhere';
  /** Awaited before the store is opened: the worker thread waits there until the main thread has migrated it. */
  beforeStore?: () => Promise<void>;
}

export async function createGateway(settings: Settings, options: GatewayOptions = {}): Promise<Gateway> {
  const threaded = wantsWorkerThread(settings, options);
  if (threaded && options.clock) throw new Error('worker.thread: the worker thread runs on the real clock; set worker.thread to false to give the gateway a clock of its own');
  const log = options.log ?? createLogger({ level: settings.log.level, destination: options.logDestination });
  // The embedded worker on a thread of its own (worker-thread/): the jobs, the worker's notices and its metrics
  // cross to it; this thread keeps HTTP. Its settings say no thread, so the kernel it runs is the worker itself.
  // Started first, so that it loads its manifests and plugins on the other core while this thread loads its own.
  const workerThread = threaded ? new EmbeddedWorkerThread({ settings: { ...settings, worker: { ...settings.worker, thread: false } }, log }) : undefined;
  workerThread?.launch();
  try {
    return await composeGateway(settings, options, log, workerThread);
  } catch (error) {
    await workerThread?.stop();
    throw error;
  }
}

async function composeGateway(settings: Settings, options: GatewayOptions, log: Logger, workerThread: EmbeddedWorkerThread | undefined): Promise<Gateway> {
  // Before anything serves: a deployment that forbids the bundled ffmpeg and has no other must not start.
  await startMediaTools(settings.media, log);
  const clock = options.clock ?? { now: () => Date.now() };
  const manifests = await loadManifests([join(projectRoot, 'manifests/operations'), ...settings.manifest_dirs]);
  const registry = new OperationRegistry(manifests);
  const metrics = new GatewayMetrics({ defaultMetrics: options.defaultMetrics, build: buildInfo(options.role ?? 'all') });
  // `mediagate_breaker_open` reads the breakers when scraped (observeLive below); this only logs the changes.
  const breakerChanged =
    options.breakerChanges ?? ((pluginId: string, open: boolean) => log[open ? 'warn' : 'info']({ provider: pluginId }, open ? 'circuit breaker opened' : 'circuit breaker closed'));
  const plugins = new PluginRegistry(settings.breaker, breakerChanged, { syntheticFallback: settings.routing.synthetic_fallback });
  // The worker thread's breakers opening and closing, shown by this thread's (/healthz, the MCP availability tool).
  workerThread?.mirrorBreakersOn(plugins);
  await plugins.loadFolders([join(projectRoot, 'plugins'), ...settings.plugin_dirs], settings.providers);
  // Before anything is opened: a route naming a plugin that is missing or does not serve its operation stops the start.
  try {
    checkRoutes(manifests, plugins);
  } catch (error) {
    plugins.shutdown();
    throw error;
  }
  zeroSeries(metrics, registry, plugins);

  await options.beforeStore?.();
  const database = openDatabase(settings.database.url, {
    poolMax: settings.database.pool_max,
    checkpoints: options.databaseCheckpoints ?? 'background',
    // The worker thread's connection and the main thread's, when there is a worker thread.
    otherWriters: options.databaseCheckpoints === 'elsewhere' || workerThread !== undefined,
    onCheckpointError: (message) => log.warn({ err: message }, 'background WAL checkpoint failed; the serving connection will checkpoint itself'),
  });
  if (!options.skipMigrations) await migrateToLatest(database);
  workerThread?.storeReady();
  const requests = new RequestStore(database.sql);
  const accounts = new AccountStore(database.sql);
  const idempotency = new IdempotencyStore(database.sql);
  const apiKeys = new ApiKeys(accounts, clock, { onTouchError: (error) => log.warn({ err: error }, 'could not record API key use') });
  const users = new Users(database.sql, clock);
  const consoleSessions = new ConsoleSessions(database.sql, clock);
  const consoleSignIn = new ConsoleSignIn(users, new LoginThrottle(database.sql, clock));
  const oauth = openOAuth(database.sql, apiKeys, clock, settings.server.public_url, { onTouchError: (error) => log.warn({ err: error }, 'could not record OAuth link use') });
  const blobs =
    options.blobs ??
    (settings.blobs.url
      ? openBlobStore(settings.blobs.url, { s3Endpoint: settings.blobs.s3_endpoint || undefined, s3Region: settings.blobs.s3_region })
      : new LocalFolderBlobs(join(settings.data_dir, 'files')));
  // The examples' input media, in the store before anything serves, so that every example runs offline.
  await publishSamples(blobs, log);
  // A job that keeps failing is dead-lettered by the queue; its request is then failed and refunded.
  let finisherForDeadLetters: RequestFinisher | undefined;
  const onDeadLetter = async (requestId: string) => {
    const failed = await finisherForDeadLetters?.failAbandoned(requestId, 'the request could not be processed (its job failed repeatedly) and was refunded', settings.worker.lease_ms);
    metrics.jobDeadLettered();
    if (failed) log.error({ requestId }, 'job dead-lettered; request failed and refunded');
  };
  const onHandlerError = (error: unknown, job: { requestId: string }) => log.error({ err: error, requestId: job.requestId }, 'job handler failed');
  const onPublish = (outcome: 'confirmed' | 'failed') => metrics.jobPublished(outcome);
  if (workerThread) metrics.includeFrom(() => workerThread.metrics());
  const queue =
    options.queue ??
    (workerThread ? new ThreadQueue(workerThread, onPublish) : undefined) ??
    (settings.queue.url
      ? new RabbitMqQueue({ url: settings.queue.url, prefix: settings.queue.prefix, deliveryLimit: settings.queue.delivery_limit, publishTimeoutMs: settings.queue.publish_timeout_ms, holdPollsUpToMs: settings.queue.hold_polls_up_to_ms, onDeadLetter, log, connectionName: `mediagate ${hostname()}:${process.pid}`, onPublish })
      : new MemoryQueue(onHandlerError, { redeliveryDelayMs: 200, deliveryLimit: settings.queue.delivery_limit, onDeadLetter }, onPublish));
  if (queue instanceof RabbitMqQueue) await queue.connect();
  // Change notices go from whoever changes a request to every process holding clients that wait on it: a function
  // call in one process, a RabbitMQ fanout beside the job queue when API processes and workers are apart.
  const changeFeed: ChangeFeed =
    options.changeFeed ??
    workerThread?.changes ??
    (queue instanceof RabbitMqQueue && settings.queue.url
      ? new RabbitMqChangeFeed({ url: settings.queue.url, prefix: settings.queue.prefix, batchMs: settings.watches.notice_batch_ms, log, connectionName: `mediagate ${hostname()}:${process.pid} (changes)` })
      : new MemoryChangeFeed());
  if (changeFeed instanceof RabbitMqChangeFeed) await changeFeed.connect();
  // Cancels answered by an API process reach the workers of the other processes (lifecycle/cancel-notices.ts); in
  // one process the canceller stops a start directly and needs no notices.
  const cancelNotices =
    options.cancelNotices ??
    (changeFeed instanceof RabbitMqChangeFeed && settings.queue.url
      ? new RabbitMqChangeFeed({ url: settings.queue.url, prefix: settings.queue.prefix, topic: 'cancels', log, connectionName: `mediagate ${hostname()}:${process.pid} (cancels)` })
      : workerThread?.cancels);
  if (cancelNotices instanceof RabbitMqChangeFeed) await cancelNotices.connect();
  const publicUrl = settings.server.public_url;
  const pluginStateRoot = join(settings.data_dir, 'plugins');

  const workspaces = new Workspaces({ database: database.sql, registry, users, clock });
  const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency });
  // Every client- or vendor-supplied URL (source media, vendor outputs, webhooks) is fetched through this one guard.
  const outbound = createGuardedFetch({ allowHosts: settings.outbound.allow_hosts, log });
  const webhookUrlRules = new WebhookUrlRules({ require_https: settings.webhooks.require_https, allow_hosts: settings.outbound.allow_hosts });
  const creator = new RequestCreator({ registry, plugins, requests, admissions, idempotency, queue, clock, publicUrl, log, metrics, webhookUrlRules, workspaceLinks: workspaces.linker });
  const webhookStore = new WebhookStore(database.sql);
  const webhookSecrets = new WebhookSecrets(webhookStore, clock, settings.webhooks.rotation_grace_ms);
  const webhooks = new WebhookDeliverer({ store: webhookStore, secrets: webhookSecrets, clock, settings: settings.webhooks, log, outbound, urlRules: webhookUrlRules, metrics });
  // The outbox row is written in the finishing transaction: a request never finishes without its delivery, or twice.
  const outbox = async (tx: Executor, finished: RequestRecord, eventType: 'request.succeeded' | 'request.failed', atMs: number) => {
    // Re-read inside the transaction: the payload is the request object as it is being committed.
    const record = await requests.get(finished.id, tx);
    if (!record?.webhookUrl) return;
    const requestId = record.id;
    const payload = JSON.stringify({ type: eventType, timestamp: new Date(atMs).toISOString(), data: toRequestObject(record, publicUrl) });
    await webhookStore.enqueue(tx, { id: newId('msg', atMs), requestId, accountId: record.accountId, url: record.webhookUrl, eventType, payload, nowMs: atMs });
  };
  const finisher = new RequestFinisher({ requests, accounts, clock, log, metrics, outbox, workspaceLinks: workspaces.linker, changes: changeFeed });
  // One embedded process counts in memory; API processes sharing a server database count in it.
  const limiter: RateLimiter = database.dialect === 'sqlite' ? new MemoryRateLimiter() : new SqlRateLimiter(database.sql);
  const rateLimiter = countingRejections(limiter, metrics);
  const retention = new RetentionPurge({ requests, idempotency, blobs, dropWebhookPayloads: (id) => webhookStore.dropPayloads(id),
    dropExpired: async (nowMs) => {
      if (limiter instanceof SqlRateLimiter) await limiter.purgeBefore(nowMs);
      await consoleSessions.purgeExpired();
      // oidc-provider never deletes expired codes, sessions and tokens itself.
      await oauth.models.purgeExpired(nowMs);
      // Workspace objects soft-deleted 7 days ago go for good, like request data of that age.
      await workspaces.purge(nowMs);
    },
    clock, settings: settings.retention, log });
  finisherForDeadLetters = finisher;
  const workerId = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  const worker = new RequestWorker({
    registry,
    plugins,
    requests,
    queue,
    finisher,
    settings: settings.worker,
    callTimeoutMs: settings.breaker.timeout_ms,
    workerId,
    blobs,
    publicUrl,
    pluginStateRoot,
    outbound,
    log,
    clock,
    metrics,
    changes: changeFeed,
  });
  const canceller = new RequestCanceller({ requests, registry, plugins, finisher, leaseMs: settings.worker.lease_ms, blobs, publicUrl, pluginStateRoot, outbound, log, clock, metrics, cancelNotices });
  const ledgers = new RequestLedgers(accounts);
  // A notice's re-read also reads the ledger entries of the requests it finds finished, in one statement: the woken
  // waiters' answers (details with `credits`) then need no query each. A failure there only costs them their own read.
  const readWatched = async (ids: readonly string[]) => {
    const rows = await requests.viewMany(ids);
    await ledgers.keepFinished(rows).catch((error: unknown) => log.warn({ err: error, requests: rows.length }, 'could not read the ledger entries of watched requests'));
    return rows;
  };
  const watches = new RequestWatches({ feed: changeFeed, read: readWatched, settings: settings.watches, log });
  const sweeper = new Sweeper({ requests, queue, clock, settings: settings.worker, log, metrics });
  const slots = new WorkerSlots(settings.worker.concurrency + settings.worker.poll_concurrency);
  metrics.observeLive({
    breakers: () => plugins.all().map((loaded) => [loaded.plugin.id, loaded.breaker.opened] as const),
    databaseConnections: () => database.connections(),
    brokerConnected: () => !(queue instanceof RabbitMqQueue) || queue.connected,
    workerSlots: () => slots.read(),
  });
  const taskHolders = [...callableProviders(registry, plugins).keys()];
  const storeGauges = new StoreGauges({ requests, webhooks: webhookStore, metrics, clock, intervalMs: settings.metrics.refresh_interval_ms, taskHolders, log });
  if (options.storeGauges !== false) await storeGauges.start();

  return {
    settings,
    log,
    clock,
    database,
    registry,
    plugins,
    requests,
    accounts,
    ledgers,
    apiKeys,
    users,
    consoleSessions,
    consoleSignIn,
    oauth,
    workspaces,
    blobs,
    queue,
    creator,
    worker,
    sweeper,
    canceller,
    retention,
    webhooks,
    rateLimiter,
    webhookStore,
    webhookSecrets,
    webhookUrlRules,
    metrics,
    watches,
    async startWorking() {
      if (workerThread) return workerThread.start();
      if (cancelNotices) await new CancelNoticeListener({ requests, log }).listenTo(cancelNotices);
      await queue.consume(slots.around(worker.handle), { concurrency: settings.worker.concurrency, pollConcurrency: settings.worker.poll_concurrency });
      sweeper.start();
      retention.start();
      webhooks.start();
    },
    async close() {
      // First, while the store is open: every long poll answers with the state it has and every event stream ends.
      await watches.close();
      // Its jobs in flight finish and it closes its own kernel, while this thread's store is still open.
      await workerThread?.stop();
      await storeGauges.stop();
      await sweeper.stop();
      await retention.stop();
      await webhooks.stop();
      await queue.close();
      await changeFeed.close();
      await cancelNotices?.close();
      plugins.shutdown();
      await admissions.idle();
      await apiKeys.close();
      await oauth.links.close();
      await database.close();
      (blobs as { destroy?: () => void }).destroy?.();
    },
  };
}

/**
 * Whether the embedded worker runs on a thread of its own: the settings ask for it (`worker.thread`) and it can serve,
 * one process (`all`) on SQLite with the in-process queue (a broker's workers are processes of their own already)
 * and no queue given from outside. It runs on the real clock: a test's fake clock cannot cross into the thread.
 */
function wantsWorkerThread(settings: Settings, options: GatewayOptions): boolean {
  const embedded = (options.role ?? 'all') === 'all' && settings.database.url.startsWith('sqlite:') && !settings.queue.url && !options.queue;
  return settings.worker.thread && embedded;
}
