/**
 * The production queue: RabbitMQ through amqplib. What the broker guarantees and what we add:
 *  - `publish` resolves only after the broker confirmed the persistent message (publisher confirms on a
 *    ConfirmChannel, `mandatory` so an unroutable message is an error rather than silently dropped);
 *  - a job is acked only after its handler resolved, and nacked back to the queue when it threw; the quorum
 *    queue counts deliveries and dead-letters a job past `deliveryLimit` to the DLQ, whose consumer calls
 *    `onDeadLetter` so the kernel can fail and refund the request;
 *  - delays wait in fixed-TTL quorum queues that dead-letter back to the work exchange (no sleeping, no
 *    head-of-line blocking), see rabbitmq-topology.ts;
 *  - a lost connection is re-opened with capped, jittered exponential backoff: topology re-declared,
 *    channels re-created, consumers resumed. A publish waits for it up to `publishTimeoutMs` (a blip is
 *    bridged), but once the broker has been gone for longer than that, publishes reject at once: an API
 *    process answers its creates without waiting on a broker known to be down (the request row is the
 *    outbox, see lifecycle/create-request.ts).
 * Every rejection means "not known to be queued": the store is the source of truth and the sweeper
 * republishes, and duplicates are harmless because every state transition is a conditional update.
 * The topology and its reasons: docs/rabbitmq.md.
 */
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import amqp, { type Channel, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Message } from 'amqplib';
import { pino, type Logger } from 'pino';
import type { Job, JobHandler, JobQueue } from './queue-port.js';
import { declareTopology, defaultWaitBucketsMs, deleteTopology, describeTopology, planWait, workRoutingKey, type RabbitMqTopology } from './rabbitmq-topology.js';

export interface RabbitMqQueueOptions {
  /** amqp://user:password@host:port/vhost; `?heartbeat=<s>` tunes how fast a silent broker is noticed. */
  url: string;
  /** Names the exchanges and queues (`<prefix>.work`, ...); one prefix per deployment. */
  prefix: string;
  /** Redeliveries after a failed handler before the job goes to the DLQ (`x-delivery-limit`). Default 5. */
  deliveryLimit?: number;
  /** TTLs of the wait queues. Default 1 s, 5 s, 15 s, 60 s, 300 s, 900 s. */
  waitBucketsMs?: readonly number[];
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
  /** Called (by processes that consume) for each job that exhausted its deliveries; acked once it resolves. */
  onDeadLetter?: (requestId: string) => Promise<void>;
  /** Shown in the management UI and `rabbitmqctl list_connections`. */
  connectionName?: string;
  log?: Logger;
}

/** Header carrying the part of a delay still to wait when a job leaves a wait queue. */
const remainingHeader = 'mediagate-remaining-ms';
const deadLetterPrefetch = 4;
const connectionLostMessage = 'RabbitMQ connection lost before the broker confirmed';
const maxRedeliveryDelayMs = 30_000;
const connectTimeoutMs = 10_000;

interface PendingConfirm {
  fail(error: Error): void;
}

/** One connection and its channels; replaced as a whole when anything in it breaks. */
class Session {
  /** Set before the session is handed out. */
  publisher!: ConfirmChannel;
  readonly consumerChannels: { channel: Channel; consumerTag: string }[] = [];
  consuming = false;
  /** Publishes not yet confirmed; failed at once when the session is lost. */
  readonly pending = new Set<PendingConfirm>();
  /** messageIds the broker returned as unroutable; their confirm arrives after the return. */
  readonly returned = new Set<string>();
  isLost = false;
  readonly lost: Promise<void>;
  private resolveLost!: () => void;

  constructor(
    readonly connection: ChannelModel,
    private readonly onLost: (reason: string, error?: unknown) => void,
  ) {
    this.lost = new Promise((resolve) => (this.resolveLost = resolve));
  }

  markLost(reason: string, error?: unknown): void {
    if (this.isLost) return;
    this.isLost = true;
    const failure = new Error(connectionLostMessage);
    for (const pending of this.pending) pending.fail(failure);
    this.pending.clear();
    this.onLost(reason, error);
    // A broken channel alone leaves the connection up: drop it so the whole session is rebuilt.
    void bounded(this.connection.close());
    this.resolveLost();
  }
}

interface Consumer {
  handler: JobHandler;
  concurrency: number;
}

export class RabbitMqQueue implements JobQueue {
  readonly topology: RabbitMqTopology;
  private readonly log: Logger;
  private readonly reconnect: { initialMs: number; maxMs: number };
  private readonly publishTimeoutMs: number;
  private readonly redeliveryDelayMs: number;
  private readonly connectionName: string;

  private session: Session | undefined;
  /** When the last live session was lost; unset while connected or before the first connection. */
  private outageSinceMs: number | undefined;
  private firstConnect: Promise<void> | undefined;
  private supervisor: Promise<void> | undefined;
  private sessionWaiters = new Set<() => void>();
  private wakeSupervisor: (() => void) | undefined;
  private closing = false;
  private closed: Promise<void> | undefined;

  private consumer: Consumer | undefined;
  /** Handlers running now. */
  private running = 0;
  /** Dead-letter hooks and wait hand-overs in progress; close() waits for them too. */
  private settling = 0;
  private slotWaiters: ((granted: boolean) => void)[] = [];
  private idleWaiters: (() => void)[] = [];
  /** Pending redelivery pauses; `close()` cuts them short. */
  private pauses = new Set<() => void>();

  constructor(private readonly options: RabbitMqQueueOptions) {
    this.topology = describeTopology({
      prefix: options.prefix,
      deliveryLimit: options.deliveryLimit ?? 5,
      waitBucketsMs: options.waitBucketsMs ?? defaultWaitBucketsMs,
    });
    this.reconnect = options.reconnect ?? { initialMs: 250, maxMs: 30_000 };
    this.publishTimeoutMs = options.publishTimeoutMs ?? 1_000;
    this.redeliveryDelayMs = options.redeliveryDelayMs ?? 1_000;
    this.connectionName = options.connectionName ?? `mediagate ${options.prefix} ${hostname()}:${process.pid}`;
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'rabbitmq-queue', prefix: options.prefix });
    const problems: string[] = [];
    if (!(this.reconnect.initialMs > 0) || !(this.reconnect.maxMs >= this.reconnect.initialMs)) problems.push('reconnect needs 0 < initialMs <= maxMs');
    if (!(this.publishTimeoutMs > 0)) problems.push('publishTimeoutMs must be positive');
    if (!(this.redeliveryDelayMs >= 0)) problems.push('redeliveryDelayMs must not be negative');
    if (problems.length > 0) throw new Error(`invalid RabbitMQ queue settings: ${problems.join('; ')}`);
  }

  /** For health endpoints: whether a live connection to the broker exists right now. */
  async health(): Promise<{ ok: boolean; detail?: string }> {
    return this.connected ? { ok: true } : { ok: false, detail: 'not connected to RabbitMQ (reconnecting)' };
  }

  /** True while a connection with its channels is up. */
  get connected(): boolean {
    return this.session !== undefined && !this.session.isLost;
  }

  /**
   * Connects and declares the topology. Until the first success every call makes one attempt and rejects
   * on failure (a wrong URL or a refused topology fails the start); afterwards drops are repaired in the
   * background and this resolves once a connection is up again.
   */
  async connect(): Promise<void> {
    if (this.closing) throw new Error('the RabbitMQ queue is closed');
    if (this.supervisor) return this.waitForSession(Number.POSITIVE_INFINITY).then(() => undefined);
    this.firstConnect ??= this.openSession()
      .then((session) => {
        if (this.closing) {
          void session.connection.close().catch(() => {});
          throw new Error('the RabbitMQ queue was closed while connecting');
        }
        this.adopt(session);
        this.supervisor = this.supervise(session);
      })
      .finally(() => (this.firstConnect = undefined));
    return this.firstConnect;
  }

  /** Alias of `connect()` for start-up code that reads better as "declare the topology". */
  declare(): Promise<void> {
    return this.connect();
  }

  async publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    const downForMs = this.outageSinceMs === undefined ? 0 : Date.now() - this.outageSinceMs;
    // Past one timeout an outage is not a blip: waiting for it again would only add latency to every caller.
    if (downForMs > this.publishTimeoutMs) throw new Error(`RabbitMQ is unreachable (down for ${downForMs} ms); not waiting for it`);
    const deadline = Date.now() + this.publishTimeoutMs;
    const wait = planWait(options.delayMs ?? 0, this.waitBucketsMs);
    const session = await this.waitForSession(deadline);
    await this.publishOn(session, job, wait, deadline);
  }

  async consume(handler: JobHandler, options: { concurrency: number }): Promise<void> {
    if (this.consumer) throw new Error('the RabbitMQ queue already has a consumer');
    if (this.closing) throw new Error('the RabbitMQ queue is closed');
    this.consumer = { handler, concurrency: Math.max(1, Math.floor(options.concurrency)) };
    if (!this.supervisor) {
      // The first session starts consuming as part of its set-up.
      await this.connect().catch((error: unknown) => {
        this.consumer = undefined;
        throw error;
      });
      return;
    }
    // Otherwise start on the live session; during an outage the next session starts by itself (adopt).
    const session = this.session;
    if (session && !session.isLost) await this.startConsuming(session).catch((error: unknown) => session.markLost('could not start consuming', error));
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

  private get waitBucketsMs(): number[] {
    return this.topology.waitQueues.map((wait) => wait.delayMs);
  }

  // ---- connection supervision -------------------------------------------------------------------

  private async openSession(): Promise<Session> {
    // The socket timeout bounds the connect and handshake only; amqplib clears it once the connection is open.
    const connection = await amqp.connect(this.options.url, { timeout: connectTimeoutMs, clientProperties: { connection_name: this.connectionName } });
    const session = new Session(connection, (reason, error) => {
      if (!this.closing) this.log.warn({ reason, err: error }, 'RabbitMQ connection lost');
    });
    connection.on('error', (error: Error) => this.log.debug({ err: error }, 'RabbitMQ connection error'));
    connection.on('close', (error?: Error) => session.markLost(error ? error.message : 'connection closed', error));
    connection.on('blocked', (reason: string) => this.log.warn({ reason }, 'RabbitMQ blocked publishing (resource alarm)'));
    connection.on('unblocked', () => this.log.info('RabbitMQ unblocked publishing'));
    try {
      const setup = await connection.createChannel();
      setup.on('error', () => {});
      await declareTopology(setup, this.topology);
      await setup.close();

      const publisher = await connection.createConfirmChannel();
      publisher.on('error', (error: Error) => this.log.debug({ err: error }, 'RabbitMQ publish channel error'));
      publisher.on('close', () => session.markLost('publish channel closed'));
      publisher.on('return', (message: Message) => {
        const id = message.properties.messageId;
        if (typeof id === 'string') session.returned.add(id);
      });
      session.publisher = publisher;
      if (this.consumer) await this.startConsuming(session);
      return session;
    } catch (error) {
      session.markLost('setup failed', error);
      throw error;
    }
  }

  private adopt(session: Session): void {
    this.session = session;
    this.outageSinceMs = undefined;
    this.log.info('RabbitMQ connected; topology declared');
    // consume() may have been called while this session was being opened.
    if (this.consumer && !session.consuming) void this.startConsuming(session).catch((error) => session.markLost('could not start consuming', error));
    for (const wake of this.sessionWaiters) wake();
    this.sessionWaiters.clear();
  }

  /** Waits for the session to be lost, then reconnects with backoff until it works or the queue closes. */
  private async supervise(first: Session): Promise<void> {
    let session = first;
    while (!this.closing) {
      await session.lost;
      if (this.session === session) this.session = undefined;
      this.outageSinceMs = Date.now();
      for (let attempt = 1; !this.closing; attempt += 1) {
        const delay = reconnectDelay(attempt, this.reconnect);
        this.log.info({ attempt, delayMs: delay }, 'reconnecting to RabbitMQ');
        await this.pauseSupervisor(delay);
        if (this.closing) return;
        try {
          session = await this.openSession();
        } catch (error) {
          this.log.warn({ err: error, attempt }, 'RabbitMQ reconnect failed');
          continue;
        }
        if (this.closing) {
          await session.connection.close().catch(() => {});
          return;
        }
        this.adopt(session);
        break;
      }
    }
  }

  private pauseSupervisor(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.wakeSupervisor = done;
    });
  }

  /**
   * The live session, waiting for a reconnect until `deadline`. Before the first connection, each caller
   * retries connecting with backoff until its deadline.
   */
  private async waitForSession(deadline: number): Promise<Session> {
    for (let attempt = 1; ; attempt += 1) {
      if (this.closing) throw new Error('the RabbitMQ queue is closed');
      const session = this.session;
      if (session && !session.isLost) return session;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`RabbitMQ is unreachable; gave up after ${this.publishTimeoutMs} ms`);
      if (!this.supervisor) {
        try {
          await withDeadline(this.connect(), deadline, `RabbitMQ did not accept a connection within ${this.publishTimeoutMs} ms`);
        } catch (error) {
          if (this.closing || Date.now() + 1 >= deadline) throw error;
          this.log.warn({ err: error, attempt }, 'could not connect to RabbitMQ; retrying');
          await sleep(Math.min(reconnectDelay(attempt, this.reconnect), deadline - Date.now()));
        }
        continue;
      }
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          this.sessionWaiters.delete(wake);
          resolve();
        };
        const timer = Number.isFinite(remaining) ? setTimeout(wake, remaining) : undefined;
        this.sessionWaiters.add(wake);
      });
    }
  }

  // ---- publishing ---------------------------------------------------------------------------------

  private publishOn(session: Session, job: Job, wait: { bucketMs: number; remainingMs: number } | undefined, deadline: number): Promise<void> {
    const exchange = wait ? this.topology.delayExchange : this.topology.workExchange;
    const routingKey = wait ? String(wait.bucketMs) : workRoutingKey;
    const headers = wait && wait.remainingMs > 0 ? { [remainingHeader]: wait.remainingMs } : {};
    const body = Buffer.from(JSON.stringify({ requestId: job.requestId }));
    const messageId = randomUUID();
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const entry: PendingConfirm = { fail: (error) => settle(error) };
      const timer = setTimeout(() => settle(new Error(`RabbitMQ did not confirm the publish within ${this.publishTimeoutMs} ms`)), Math.max(0, deadline - Date.now()));
      function settle(error?: Error): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        session.pending.delete(entry);
        session.returned.delete(messageId);
        if (error) reject(error);
        else resolve();
      }
      if (session.isLost) return settle(new Error('RabbitMQ connection lost before publishing'));
      session.pending.add(entry);
      try {
        session.publisher.publish(
          exchange,
          routingKey,
          body,
          { persistent: true, mandatory: true, messageId, contentType: 'application/json', headers },
          (error: unknown) => {
            // amqplib fails a closed channel's unconfirmed publishes with "channel closed" (before or after
            // the connection's own close event, depending on which side went first).
            if (error && (session.isLost || (error instanceof Error && error.message === 'channel closed'))) settle(new Error(connectionLostMessage));
            else if (error) settle(new Error(`RabbitMQ did not accept the publish: ${error instanceof Error ? error.message : String(error)}`));
            // The broker sends basic.return before the confirm of an unroutable mandatory message.
            else if (session.returned.has(messageId)) settle(new Error(`RabbitMQ could not route the job to a queue via ${exchange} (${routingKey}); is the topology deleted?`));
            else settle();
          },
        );
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  // ---- consuming ----------------------------------------------------------------------------------

  private async startConsuming(session: Session): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || session.consuming) return;
    session.consuming = true;
    const channel = await session.connection.createChannel();
    channel.on('error', (error: Error) => this.log.debug({ err: error }, 'RabbitMQ consume channel error'));
    channel.on('close', () => {
      if (!this.closing) session.markLost('consume channel closed');
    });
    // prefetch = concurrency: the broker never hands this process more jobs than it may run at once.
    await channel.prefetch(consumer.concurrency);
    const { consumerTag } = await channel.consume(this.topology.workQueue, (message) => {
      // null = the broker cancelled us (queue deleted or moved): rebuild the session, which re-declares.
      if (!message) return session.markLost('consumer cancelled by the broker');
      void this.deliver(channel, consumer, message);
    });
    session.consumerChannels.push({ channel, consumerTag });

    const onDeadLetter = this.options.onDeadLetter;
    if (onDeadLetter) {
      const deadChannel = await session.connection.createChannel();
      deadChannel.on('error', (error: Error) => this.log.debug({ err: error }, 'RabbitMQ dead-letter channel error'));
      deadChannel.on('close', () => {
        if (!this.closing) session.markLost('dead-letter channel closed');
      });
      await deadChannel.prefetch(deadLetterPrefetch);
      const dead = await deadChannel.consume(this.topology.deadQueue, (message) => {
        if (!message) return session.markLost('dead-letter consumer cancelled by the broker');
        void this.deliverDeadLetter(deadChannel, onDeadLetter, message);
      });
      session.consumerChannels.push({ channel: deadChannel, consumerTag: dead.consumerTag });
    }
  }

  private async deliver(channel: Channel, consumer: Consumer, message: ConsumeMessage): Promise<void> {
    const job = parseJob(message);
    if (!job) {
      this.log.error({ body: message.content.toString('utf8').slice(0, 200) }, 'moving a malformed job to the dead-letter queue');
      return settle(channel, message, 'dead-letter');
    }
    const remaining = Number(message.properties.headers?.[remainingHeader] ?? 0);
    if (remaining > 0) return this.continueWait(channel, job, remaining, message);

    // Jobs delivered over a new channel while handlers from a dropped one still run wait here, so the
    // concurrency limit holds across reconnects too.
    if (!(await this.takeSlot(consumer))) return settle(channel, message, 'requeue');
    try {
      await consumer.handler(job);
      settle(channel, message, 'ack');
    } catch (error) {
      const deliveries = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
      this.log.warn({ err: error, requestId: job.requestId, delivery: deliveries + 1 }, 'job handler failed; handing the job back');
      await this.pause(Math.min(maxRedeliveryDelayMs, this.redeliveryDelayMs * 2 ** deliveries));
      settle(channel, message, 'requeue');
    } finally {
      this.releaseSlot();
    }
  }

  /** A job out of a wait queue with more delay to go moves to its next wait queue; then this copy is acked. */
  private async continueWait(channel: Channel, job: Job, remainingMs: number, message: ConsumeMessage): Promise<void> {
    this.settling += 1;
    try {
      const deadline = Date.now() + this.publishTimeoutMs;
      const session = await this.waitForSession(deadline);
      await this.publishOn(session, job, planWait(remainingMs, this.waitBucketsMs), deadline);
      settle(channel, message, 'ack');
    } catch (error) {
      this.log.warn({ err: error, requestId: job.requestId }, 'could not move a delayed job to its next wait queue');
      settle(channel, message, 'requeue');
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  private async deliverDeadLetter(channel: Channel, onDeadLetter: (requestId: string) => Promise<void>, message: ConsumeMessage): Promise<void> {
    const job = parseJob(message);
    if (!job) {
      this.log.error({ body: message.content.toString('utf8').slice(0, 200) }, 'discarding a malformed dead letter');
      return settle(channel, message, 'ack');
    }
    this.settling += 1;
    try {
      this.log.warn({ requestId: job.requestId }, 'job exhausted its deliveries and was dead-lettered');
      await onDeadLetter(job.requestId);
      settle(channel, message, 'ack');
    } catch (error) {
      this.log.error({ err: error, requestId: job.requestId }, 'dead-letter hook failed; retrying later');
      await this.pause(this.redeliveryDelayMs);
      settle(channel, message, 'requeue');
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  private takeSlot(consumer: Consumer): Promise<boolean> {
    if (this.closing) return Promise.resolve(false);
    if (this.running < consumer.concurrency && this.slotWaiters.length === 0) {
      this.running += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => this.slotWaiters.push(resolve));
  }

  private releaseSlot(): void {
    if (this.closing) this.slotWaiters.splice(0).forEach((resolve) => resolve(false));
    const next = this.slotWaiters.shift();
    // The slot passes straight to the next waiting job, so `running` never exceeds the limit.
    if (next) return next(true);
    this.running -= 1;
    this.notifyIdle();
  }

  private notifyIdle(): void {
    if (this.running === 0 && this.settling === 0) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  private pause(ms: number): Promise<void> {
    if (this.closing || ms <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.pauses.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.pauses.add(done);
    });
  }

  private async shutDown(): Promise<void> {
    this.closing = true;
    this.wakeSupervisor?.();
    for (const wake of this.sessionWaiters) wake();
    this.sessionWaiters.clear();
    const session = this.session;
    if (session && !session.isLost) {
      for (const { channel, consumerTag } of session.consumerChannels) await bounded(channel.cancel(consumerTag));
    }
    // Delivered but not started: back to the queue (resolving `false` makes deliver() nack with requeue).
    this.slotWaiters.splice(0).forEach((resolve) => resolve(false));
    for (const done of [...this.pauses]) done();
    if (this.running > 0 || this.settling > 0) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    if (session) {
      // Channel by channel first: a channel's close waits for the broker's close-ok, which follows the acks
      // sent before it. Closing only the connection lost those last acks in our tests (the job came back).
      for (const { channel } of session.consumerChannels) await bounded(channel.close());
      await bounded(session.connection.close());
    }
    await this.firstConnect?.catch(() => {});
    await this.supervisor;
    this.session = undefined;
    this.log.info('RabbitMQ queue closed');
  }
}

type Outcome = 'ack' | 'requeue' | 'dead-letter';

/** Settles a delivery on the channel it came from; on a dead channel the broker has already requeued it. */
function settle(channel: Channel, message: ConsumeMessage, outcome: Outcome): void {
  try {
    if (outcome === 'ack') channel.ack(message);
    else channel.nack(message, false, outcome === 'requeue');
  } catch {
    // IllegalOperationError: channel closed. The broker redelivers the job; its handler is idempotent.
  }
}

function parseJob(message: ConsumeMessage): Job | undefined {
  try {
    const body: unknown = JSON.parse(message.content.toString('utf8'));
    if (typeof body === 'object' && body !== null && typeof (body as Job).requestId === 'string' && (body as Job).requestId !== '') {
      return { requestId: (body as Job).requestId };
    }
  } catch {
    // fall through: malformed
  }
  return undefined;
}

/** Exponential backoff with "equal jitter": between half and all of min(maxMs, initialMs * 2^(attempt-1)). */
export function reconnectDelay(attempt: number, backoff: { initialMs: number; maxMs: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

function withDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  const remaining = deadline - Date.now();
  if (!Number.isFinite(remaining)) return promise;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(message)), Math.max(0, remaining));
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Awaits a broker round trip that may never answer (a half-open socket) for at most a few seconds. */
async function bounded(promise: Promise<unknown>, ms = 5_000): Promise<void> {
  await withDeadline(promise, Date.now() + ms, 'timed out').catch(() => {});
}
