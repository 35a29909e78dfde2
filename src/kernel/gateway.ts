/**
 * The composition root: builds the kernel from validated settings — manifests, plugins, store, queue,
 * blobs — and hands out the pieces the HTTP API, the worker and the CLI need. Nothing here knows Koa.
 */
import { hostname } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { DestinationStream, Logger } from 'pino';
import { ApiKeys, ConsoleSessions, ConsoleSignIn, LoginThrottle, Users } from './accounts/index.js';
import { openOAuth, type OAuthKernel } from './oauth/index.js';
import { LocalFolderBlobs, openBlobStore, type BlobStore } from './blobs/index.js';
import { projectRoot, type Settings } from './config/index.js';
import { RequestCanceller, RequestCreator, RequestFinisher, RequestWorker, RetentionPurge, Sweeper, toRequestObject } from './lifecycle/index.js';
import { loadManifests, OperationRegistry } from './manifests/index.js';
import { checkRoutes, PluginRegistry } from './plugins/index.js';
import { createLogger } from './observability/logger.js';
import { GatewayMetrics } from './observability/metrics.js';
import { MemoryQueue, RabbitMqQueue, type JobQueue } from './queue/index.js';
import { AccountStore, IdempotencyStore, RequestAdmissions, RequestStore, migrateToLatest, newId, openDatabase, type Database, type Executor, type RequestRecord } from './store/index.js';
import { WebhookDeliverer, WebhookSecrets, WebhookStore, WebhookUrlRules } from './webhooks/index.js';
import { createGuardedFetch } from './plugin-sdk/guarded-fetch.js';
import { startMediaTools } from './plugin-sdk/media-tool-binaries.js';
import { MemoryRateLimiter, SqlRateLimiter, type RateLimiter } from './rate-limits/rate-limiter.js';

export interface Gateway {
  settings: Settings;
  log: Logger;
  clock: { now(): number };
  database: Database;
  registry: OperationRegistry;
  plugins: PluginRegistry;
  requests: RequestStore;
  accounts: AccountStore;
  apiKeys: ApiKeys;
  /** People who sign in to the console, and their memberships of accounts. */
  users: Users;
  consoleSessions: ConsoleSessions;
  /** E-mail + password checks for the console, throttled against guessing. */
  consoleSignIn: ConsoleSignIn;
  /** OAuth account linking: the authorization server's store and keys, links, access-token verification. */
  oauth: OAuthKernel;
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
}

export async function createGateway(settings: Settings, options: GatewayOptions = {}): Promise<Gateway> {
  const log = options.log ?? createLogger({ level: settings.log.level, destination: options.logDestination });
  // Before anything serves: a deployment that forbids the bundled ffmpeg and has no other must not start.
  await startMediaTools(settings.media, log);
  const clock = options.clock ?? { now: () => Date.now() };
  const manifests = await loadManifests([join(projectRoot, 'manifests/operations'), ...settings.manifest_dirs]);
  const registry = new OperationRegistry(manifests);
  const metrics = new GatewayMetrics({ defaultMetrics: options.defaultMetrics });
  const plugins = new PluginRegistry(settings.breaker, (pluginId, open) => {
    metrics.breakerOpen.set({ provider: pluginId }, open ? 1 : 0);
    log[open ? 'warn' : 'info']({ provider: pluginId }, open ? 'circuit breaker opened' : 'circuit breaker closed');
  }, { syntheticFallback: settings.routing.synthetic_fallback });
  await plugins.loadFolders([join(projectRoot, 'plugins'), ...settings.plugin_dirs], settings.providers);
  // Before anything is opened: a route naming a plugin that is missing or does not serve its operation stops the start.
  try {
    checkRoutes(manifests, plugins);
  } catch (error) {
    plugins.shutdown();
    throw error;
  }

  const database = openDatabase(settings.database.url, {
    poolMax: settings.database.pool_max,
    checkpoints: 'background',
    onCheckpointError: (message) => log.warn({ err: message }, 'background WAL checkpoint failed; the serving connection will checkpoint itself'),
  });
  if (!options.skipMigrations) await migrateToLatest(database);
  const requests = new RequestStore(database.sql);
  const accounts = new AccountStore(database.sql);
  const idempotency = new IdempotencyStore(database.sql);
  const apiKeys = new ApiKeys(accounts, clock, { onTouchError: (error) => log.warn({ err: error }, 'could not record API key use') });
  const users = new Users(database.sql, clock);
  const consoleSessions = new ConsoleSessions(database.sql, clock);
  const consoleSignIn = new ConsoleSignIn(users, new LoginThrottle(database.sql, clock));
  const oauth = openOAuth(database.sql, apiKeys, clock, settings.server.public_url);
  const blobs =
    options.blobs ??
    (settings.blobs.url
      ? openBlobStore(settings.blobs.url, { s3Endpoint: settings.blobs.s3_endpoint || undefined, s3Region: settings.blobs.s3_region })
      : new LocalFolderBlobs(join(settings.data_dir, 'files')));
  // A job that keeps failing is dead-lettered by the queue; its request is then failed and refunded.
  let finisherForDeadLetters: RequestFinisher | undefined;
  const onDeadLetter = async (requestId: string) => {
    const failed = await finisherForDeadLetters?.failAbandoned(requestId, 'the request could not be processed (its job failed repeatedly) and was refunded', settings.worker.lease_ms);
    if (failed) log.error({ requestId }, 'job dead-lettered; request failed and refunded');
  };
  const onHandlerError = (error: unknown, job: { requestId: string }) => log.error({ err: error, requestId: job.requestId }, 'job handler failed');
  const queue =
    options.queue ??
    (settings.queue.url
      ? new RabbitMqQueue({ url: settings.queue.url, prefix: settings.queue.prefix, deliveryLimit: settings.queue.delivery_limit, publishTimeoutMs: settings.queue.publish_timeout_ms, onDeadLetter, log, connectionName: `mediagate ${hostname()}:${process.pid}` })
      : new MemoryQueue(onHandlerError, { redeliveryDelayMs: 200, deliveryLimit: settings.queue.delivery_limit, onDeadLetter }));
  if (queue instanceof RabbitMqQueue) await queue.connect();
  const publicUrl = settings.server.public_url;

  const admissions = new RequestAdmissions({ db: database.sql, requests, accounts, idempotency });
  // Every client- or vendor-supplied URL (source media, vendor outputs, webhooks) is fetched through this one guard.
  const outbound = createGuardedFetch({ allowHosts: settings.outbound.allow_hosts, log });
  const webhookUrlRules = new WebhookUrlRules({ require_https: settings.webhooks.require_https, allow_hosts: settings.outbound.allow_hosts });
  const creator = new RequestCreator({ registry, plugins, requests, admissions, idempotency, queue, clock, publicUrl, log, metrics, webhookUrlRules });
  const webhookStore = new WebhookStore(database.sql);
  const webhookSecrets = new WebhookSecrets(webhookStore, clock, settings.webhooks.rotation_grace_ms);
  const webhooks = new WebhookDeliverer({ store: webhookStore, secrets: webhookSecrets, clock, settings: settings.webhooks, log, outbound, urlRules: webhookUrlRules });
  // The outbox row is written in the finishing transaction: a request never finishes without its delivery, or twice.
  const outbox = async (tx: Executor, finished: RequestRecord, eventType: 'request.succeeded' | 'request.failed', atMs: number) => {
    // Re-read inside the transaction: the payload is the request object as it is being committed.
    const record = await requests.get(finished.id, tx);
    if (!record?.webhookUrl) return;
    const requestId = record.id;
    const payload = JSON.stringify({ type: eventType, timestamp: new Date(atMs).toISOString(), data: toRequestObject(record, publicUrl) });
    await webhookStore.enqueue(tx, { id: newId('msg', atMs), requestId, accountId: record.accountId, url: record.webhookUrl, eventType, payload, nowMs: atMs });
  };
  const finisher = new RequestFinisher({ requests, accounts, clock, log, metrics, outbox });
  // One embedded process counts in memory; API processes sharing a server database count in it.
  const rateLimiter: RateLimiter = database.dialect === 'sqlite' ? new MemoryRateLimiter() : new SqlRateLimiter(database.sql);
  const retention = new RetentionPurge({ requests, idempotency, blobs, dropWebhookPayloads: (id) => webhookStore.dropPayloads(id),
    dropExpired: async (nowMs) => {
      if (rateLimiter instanceof SqlRateLimiter) await rateLimiter.purgeBefore(nowMs);
      await consoleSessions.purgeExpired();
      // oidc-provider never deletes expired codes, sessions and tokens itself.
      await oauth.models.purgeExpired(nowMs);
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
    outbound,
    log,
    clock,
    metrics,
  });
  const canceller = new RequestCanceller({ requests, registry, plugins, finisher, leaseMs: settings.worker.lease_ms, blobs, publicUrl, outbound, log, clock, metrics });
  const sweeper = new Sweeper({ requests, queue, clock, settings: settings.worker, log });

  return {
    settings,
    log,
    clock,
    database,
    registry,
    plugins,
    requests,
    accounts,
    apiKeys,
    users,
    consoleSessions,
    consoleSignIn,
    oauth,
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
    async startWorking() {
      await queue.consume(worker.handle, { concurrency: settings.worker.concurrency });
      sweeper.start();
      retention.start();
      webhooks.start();
    },
    async close() {
      await sweeper.stop();
      await retention.stop();
      await webhooks.stop();
      await queue.close();
      plugins.shutdown();
      await admissions.idle();
      await database.close();
      (blobs as { destroy?: () => void }).destroy?.();
    },
  };
}
