/**
 * The production queue: RabbitMQ through amqplib. What the broker guarantees and what we add:
 *  - `publish` resolves only after the broker confirmed the persistent message, and fails fast once an
 *    outage outlasts `publishTimeoutMs` (rabbitmq-publisher.ts);
 *  - a job is acked only after its handler resolved, and nacked back to the queue when it threw; the quorum
 *    queue counts deliveries and dead-letters a job past `deliveryLimit` to the DLQ, whose consumer calls
 *    `onDeadLetter` so the kernel can fail and refund the request (rabbitmq-consumer.ts);
 *  - starts and vendor polls are consumed from two queues, each with its own concurrency; the starts one turn
 *    publishes go as one message (job-messages.ts);
 *  - delays are counted down inside the broker, digit by digit through fixed-TTL quorum queues (no consumer
 *    involved until the job is due, no head-of-line blocking), see rabbitmq-topology.ts;
 *  - a lost connection is re-opened with capped, jittered exponential backoff: topology re-declared,
 *    channels re-created, consumers resumed (rabbitmq-connection.ts).
 * Every rejection means "not known to be queued": the store is the source of truth and the sweeper
 * republishes, and duplicates are harmless because every state transition is a conditional update.
 * The topology and its reasons: docs/rabbitmq.md.
 */
import { hostname } from 'node:os';
import amqp from 'amqplib';
import { pino, type Logger } from 'pino';
import { jobPublishSpan, spanNames, tracing } from '../observability/tracing.js';
import { withTraceparent, type Job, type JobHandler, type JobQueue, type PublishObserver } from './queue-port.js';
import { RabbitMqConnection } from './rabbitmq-connection.js';
import { RabbitMqConsumer } from './rabbitmq-consumer.js';
import { RabbitMqPublisher } from './rabbitmq-publisher.js';
import { bounded, withDeadline } from './deadline.js';
import { deleteTopology, describeTopology, type RabbitMqTopology } from './rabbitmq-topology.js';

export { reconnectDelay } from './rabbitmq-connection.js';

export interface RabbitMqQueueOptions {
  /** amqp://user:password@host:port/vhost; `?heartbeat=<s>` tunes how fast a silent broker is noticed. */
  url: string;
  /** Names the exchanges and queues (`<prefix>.work`, ...); one prefix per deployment. */
  prefix: string;
  /** Redeliveries after a failed handler before the job goes to the DLQ (`x-delivery-limit`). Default 5. */
  deliveryLimit?: number;
  /** Delays are rounded up to a multiple of this. Default 250 ms. */
  delayResolutionMs?: number;
  /** Base the countdown writes delays in, 2 to 16. Default 16. */
  delayRadix?: number;
  /** Levels of the countdown. Default 4: with the defaults up to 4.55 h in one pass, longer in several. */
  delayLevels?: number;
  /** Reconnect backoff: exponential from `initialMs`, capped at `maxMs`, with jitter. Default 250 ms .. 30 s. */
  reconnect?: { initialMs: number; maxMs: number };
  /**
   * How long `publish` may wait for a connection plus the broker's confirm before it rejects, and how long
   * an outage lasts before publishes stop waiting at all. Default 1 s (`queue.publish_timeout_ms`).
   */
  publishTimeoutMs?: number;
  /**
   * Pause before a failed job is handed back, doubled per earlier delivery (capped at 30 s), so a short
   * outage of the store does not use up the delivery limit within milliseconds. Default 1 s.
   */
  redeliveryDelayMs?: number;
  /**
   * While this process consumes, a poll published with a delay up to this long is kept in its own timers and run
   * here, not sent through the delay levels (held-polls.ts); 0 (the default) sends every job through the broker.
   */
  holdPollsUpToMs?: number;
  /** Called (by processes that consume) for each job that exhausted its deliveries; acked once it resolves. */
  onDeadLetter?: (requestId: string) => Promise<void>;
  /** Shown in the management UI and `rabbitmqctl list_connections`. */
  connectionName?: string;
  /** Told whether each `publish` was confirmed (the metrics); hand-overs between wait queues are not publishes. */
  onPublish?: PublishObserver;
  log?: Logger;
}

export class RabbitMqQueue implements JobQueue {
  readonly topology: RabbitMqTopology;
  private readonly log: Logger;
  private readonly connectionName: string;
  private readonly connection: RabbitMqConnection;
  private readonly publisher: RabbitMqPublisher;
  private readonly consumer: RabbitMqConsumer;
  private closed: Promise<void> | undefined;

  constructor(private readonly options: RabbitMqQueueOptions) {
    this.topology = describeTopology({
      prefix: options.prefix,
      deliveryLimit: options.deliveryLimit ?? 5,
      delayResolutionMs: options.delayResolutionMs,
      delayRadix: options.delayRadix,
      delayLevels: options.delayLevels,
    });
    const reconnect = options.reconnect ?? { initialMs: 250, maxMs: 30_000 };
    const publishTimeoutMs = options.publishTimeoutMs ?? 1_000;
    const redeliveryDelayMs = options.redeliveryDelayMs ?? 1_000;
    this.connectionName = options.connectionName ?? `mediagate ${options.prefix} ${hostname()}:${process.pid}`;
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'rabbitmq-queue', prefix: options.prefix });
    const problems: string[] = [];
    if (!(reconnect.initialMs > 0) || !(reconnect.maxMs >= reconnect.initialMs)) problems.push('reconnect needs 0 < initialMs <= maxMs');
    if (!(publishTimeoutMs > 0)) problems.push('publishTimeoutMs must be positive');
    if (!(redeliveryDelayMs >= 0)) problems.push('redeliveryDelayMs must not be negative');
    if (problems.length > 0) throw new Error(`invalid RabbitMQ queue settings: ${problems.join('; ')}`);

    this.connection = new RabbitMqConnection({
      url: options.url,
      connectionName: this.connectionName,
      topology: this.topology,
      reconnect,
      publishTimeoutMs,
      // Called only once a session opens, by when `this.consumer` is set.
      consumers: { wanted: () => this.consumer.wanted(), start: (session) => this.consumer.start(session) },
      log: this.log,
    });
    this.publisher = new RabbitMqPublisher(this.connection, this.topology, publishTimeoutMs);
    this.consumer = new RabbitMqConsumer({
      connection: this.connection,
      publisher: this.publisher,
      topology: this.topology,
      redeliveryDelayMs,
      holdPollsUpToMs: options.holdPollsUpToMs ?? 0,
      onDeadLetter: options.onDeadLetter,
      log: this.log,
    });
  }

  /** Polls this worker schedules for itself are held in its own timers (holdPollsUpToMs). */
  get delayedJobsDieWithProcess(): boolean {
    return (this.options.holdPollsUpToMs ?? 0) > 0;
  }

  /** For health endpoints: whether a live connection to the broker exists right now. */
  async health(): Promise<{ ok: boolean; detail?: string }> {
    return this.connected ? { ok: true } : { ok: false, detail: 'not connected to RabbitMQ (reconnecting)' };
  }

  /** True while a connection with its channels is up. */
  get connected(): boolean {
    return this.connection.connected;
  }

  /**
   * Connects and declares the topology. Until the first success every call makes one attempt and rejects
   * on failure (a wrong URL or a refused topology fails the start); afterwards drops are repaired in the
   * background and this resolves once a connection is up again.
   */
  connect(): Promise<void> {
    return this.connection.connect();
  }

  /** Alias of `connect()` for start-up code that reads better as "declare the topology". */
  declare(): Promise<void> {
    return this.connect();
  }

  publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    if (this.consumer.mayHold(job, delayMs)) {
      // Held in this process (not a publish to the broker, so not observed as one); traced like an in-process queue's.
      return tracing.inSpan(spanNames.publish, jobPublishSpan(job, delayMs, 'mediagate-memory'), async (span) => this.consumer.hold(withTraceparent(job, span.traceparent), delayMs));
    }
    const published = this.publisher.publish(job, options);
    const observe = this.options.onPublish;
    if (observe) published.then(() => observe('confirmed'), () => observe('failed'));
    return published;
  }

  consume(handler: JobHandler, options: { concurrency: number; pollConcurrency?: number }): Promise<void> {
    return this.consumer.consume(handler, options);
  }

  /**
   * Messages ready in the work and poll queues, not yet handed to a consumer (delayed ones are still in the delay
   * levels; a message carrying several starts counts once: the sweeper asks only whether any wait); undefined while
   * there is no connection or the broker does not answer within a few seconds.
   */
  async waiting(): Promise<number | undefined> {
    const session = this.connection.session;
    if (!session || session.isLost) return undefined;
    try {
      // A channel of its own: a passive declare of a missing queue closes its channel, which must not be the publisher's.
      const channel = await withDeadline(session.connection.createChannel(), Date.now() + 5_000, 'timed out');
      channel.on('error', () => {});
      try {
        const counts = await withDeadline(Promise.all([this.topology.workQueue, this.topology.pollQueue].map((queue) => channel.checkQueue(queue))), Date.now() + 5_000, 'timed out');
        return counts.reduce((sum, count) => sum + count.messageCount, 0);
      } finally {
        void bounded(channel.close());
      }
    } catch {
      return undefined;
    }
  }

  /**
   * Stops consuming (cancels the consumers), hands back jobs delivered but not started, waits for running
   * handlers to finish and ack, then closes channels and the connection. Later publishes reject.
   */
  close(): Promise<void> {
    this.closed ??= this.shutDown();
    return this.closed;
  }

  /** Closes, then deletes every exchange and queue of this prefix with their messages; for tests. */
  async destroyTopology(): Promise<void> {
    await this.close();
    const connection = await amqp.connect(this.options.url, { clientProperties: { connection_name: `${this.connectionName} (teardown)` } });
    connection.on('error', () => {});
    try {
      const channel = await connection.createChannel();
      channel.on('error', () => {});
      await deleteTopology(channel, this.topology);
    } finally {
      await connection.close().catch(() => {});
    }
  }

  private async shutDown(): Promise<void> {
    // Before the connection starts closing: the held polls still go out through it.
    await this.consumer.handBackHeldPolls();
    const session = this.connection.beginClose();
    await this.consumer.drain(session);
    await this.connection.finishClose(session);
    this.log.info('RabbitMQ queue closed');
  }
}
