/**
 * The change feed across processes (production runs API processes apart from the workers), over RabbitMQ: every
 * process that changes requests publishes their ids to the fanout exchange `<prefix>.changes`, and every process
 * that holds waiters binds one exclusive queue of its own to it and consumes it. One feed per process, whatever the
 * number of waiters in it: the waiters of a process share its notices (lifecycle/request-watches.ts).
 *
 * Why a fanout rather than a cursor polled over the store: a notice reaches every API process one broker hop after
 * the commit (about a millisecond here) and costs nothing while nothing changes, where a cursor costs a query per
 * process per tick however idle the process is, and more the shorter the tick that a 50 ms observation lag needs;
 * and RabbitMQ is already part of the production topology, where a cursor would need a change-sequence column
 * written by every transition.
 *
 * Notices are not jobs: transient messages without publisher confirms, on a non-durable exchange, into queues that
 * vanish with their process. Losing some is allowed (change-feed.ts): notices announced while the connection is
 * down are held (up to a bound) and sent on reconnect, and a subscriber is told after each reconnect that it may
 * have missed some (`missedSome`), so its waiters re-check at once instead of at the next slow re-check.
 * Announcements are gathered for `batchMs` into one message: under load a worker sends a few messages a second per
 * API process instead of one per transition.
 */
import { hostname } from 'node:os';
import amqp, { type Channel, type ChannelModel, type ConsumeMessage, type RecoveringChannelModel } from 'amqplib';
import { pino, type Logger } from 'pino';
import type { ChangeFeed, ChangeListener } from './change-feed.js';
import { amqpSocketOptions, coalesceAmqpWrites } from './coalesced-writes.js';
import { bounded } from './deadline.js';

export interface RabbitMqChangeFeedOptions {
  /** amqp://user:password@host:port/vhost, the job queue's URL. */
  url: string;
  /** The job queue's prefix: the exchange is `<prefix>.<topic>`. */
  prefix: string;
  /**
   * What the notices say about the requests they name: `changes` (the default), that their state changed, for the
   * processes holding waiters; `cancels`, that a client asked to cancel them, for the workers that may be running
   * their starts (lifecycle/cancel-notices.ts). Each topic is an exchange of its own, so a worker is not sent every
   * state change to find the rare cancel.
   */
  topic?: 'changes' | 'cancels';
  /** How long announcements are gathered into one message. Default 5 ms. */
  batchMs?: number;
  /** Reconnect backoff (exponential with jitter). Default 250 ms .. 30 s. */
  reconnect?: { initialMs: number; maxMs: number };
  /** Shown in the management UI and `rabbitmqctl list_connections`. */
  connectionName?: string;
  log?: Logger;
}

/** One message names at most this many requests. */
const maxIdsPerMessage = 1_000;
/** Notices held while disconnected; past it they are dropped (waiters re-check on their own). */
const maxHeldNotices = 50_000;
/** Messages a subscriber's queue keeps when its process falls behind; the broker drops the oldest past it. */
const maxQueuedMessages = 10_000;
const requestIdPattern = /^req_[0-9a-z]+$/;

export class RabbitMqChangeFeed implements ChangeFeed {
  readonly exchange: string;
  private readonly log: Logger;
  private readonly batchMs: number;
  private connection: RecoveringChannelModel | undefined;
  /** The live connection and its publish channel; unset while disconnected. */
  private model: ChannelModel | undefined;
  private publisher: Channel | undefined;
  private consumingOn: ChannelModel | undefined;
  private listener: ChangeListener | undefined;
  private readonly gathered = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private sessions = 0;
  private closing = false;

  constructor(private readonly options: RabbitMqChangeFeedOptions) {
    if (!/^[A-Za-z0-9_.-]{1,100}$/.test(options.prefix)) throw new Error(`invalid change feed prefix ${JSON.stringify(options.prefix)}`);
    this.exchange = `${options.prefix}.${options.topic ?? 'changes'}`;
    this.batchMs = options.batchMs ?? 5;
    this.log = (options.log ?? pino({ level: 'silent' })).child({ component: 'rabbitmq-change-feed', exchange: this.exchange });
  }

  /** Connects and declares the exchange; rejects when the broker cannot be reached now (the start fails, as the queue's does). */
  async connect(): Promise<void> {
    const reconnect = this.options.reconnect ?? { initialMs: 250, maxMs: 30_000 };
    this.connection = await amqp.connect(this.options.url, {
      ...amqpSocketOptions,
      timeout: 10_000,
      clientProperties: { connection_name: this.options.connectionName ?? `mediagate ${hostname()}:${process.pid} (${this.options.topic ?? 'changes'})` },
      recovery: { initialDelay: reconnect.initialMs, maxDelay: reconnect.maxMs, initialMaxRetries: 0, setup: (model: ChannelModel) => this.setUp(model) },
    });
    this.connection.on('disconnect', (error: Error) => {
      this.model = undefined;
      this.publisher = undefined;
      this.consumingOn = undefined;
      if (!this.closing) this.log.warn({ err: error }, 'change feed disconnected from RabbitMQ; reconnecting');
    });
    this.connection.on('error', (error: Error) => this.log.debug({ err: error }, 'change feed connection error'));
  }

  announce(requestId: string): void {
    if (this.closing || this.gathered.size >= maxHeldNotices) return;
    this.gathered.add(requestId);
    this.timer ??= setTimeout(() => this.flush(), this.batchMs);
  }

  async subscribe(listener: ChangeListener): Promise<void> {
    if (this.listener) throw new Error('the change feed already has a listener');
    this.listener = listener;
    // While disconnected, the next session's set-up subscribes (and reports the gap).
    const model = this.model;
    if (model) await this.consumeOn(model).catch((error: unknown) => this.lost(model, 'could not subscribe', error));
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.flush();
    this.closing = true;
    // The channel's close-ok follows the publishes before it: closing only the connection lost the last batch.
    if (this.publisher) await bounded(this.publisher.close());
    await bounded(this.connection?.close() ?? Promise.resolve());
  }

  /** Runs on every (re)connect, before the connection is handed out. */
  private async setUp(model: ChannelModel): Promise<void> {
    coalesceAmqpWrites(model);
    const channel = await model.createChannel();
    channel.on('error', (error: Error) => this.log.debug({ err: error }, 'change feed publish channel error'));
    channel.on('close', () => this.lost(model, 'publish channel closed'));
    await channel.assertExchange(this.exchange, 'fanout', { durable: false, autoDelete: false });
    if (this.listener) await this.consumeOn(model);
    this.model = model;
    this.publisher = channel;
    const reconnected = this.sessions > 0;
    this.sessions += 1;
    this.flush();
    if (reconnected) this.listener?.missedSome();
  }

  private async consumeOn(model: ChannelModel): Promise<void> {
    if (this.consumingOn === model) return;
    this.consumingOn = model;
    const channel = await model.createChannel();
    channel.on('error', (error: Error) => this.log.debug({ err: error }, 'change feed consume channel error'));
    channel.on('close', () => this.lost(model, 'consume channel closed'));
    const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true, durable: false, arguments: { 'x-max-length': maxQueuedMessages } });
    await channel.bindQueue(queue, this.exchange, '');
    await channel.consume(queue, (message) => this.receive(message), { noAck: true });
  }

  private receive(message: ConsumeMessage | null): void {
    if (!message || !this.listener) return;
    let ids: unknown;
    try {
      ids = JSON.parse(message.content.toString('utf8'));
    } catch {
      ids = undefined;
    }
    const valid = Array.isArray(ids) ? ids.filter((id): id is string => typeof id === 'string' && requestIdPattern.test(id)) : [];
    if (valid.length > 0) this.listener.changed(valid);
    else this.log.debug('ignored a change notice that names no request');
  }

  private flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const channel = this.publisher;
    // Held until a connection is back (setUp flushes again).
    if (!channel || this.gathered.size === 0) return;
    const ids = [...this.gathered];
    this.gathered.clear();
    try {
      for (let start = 0; start < ids.length; start += maxIdsPerMessage) {
        channel.publish(this.exchange, '', Buffer.from(JSON.stringify(ids.slice(start, start + maxIdsPerMessage))), { contentType: 'application/json', persistent: false });
      }
    } catch (error) {
      // A channel closing under the publish: the subscribers' re-check covers what this message said.
      this.log.debug({ err: error }, 'could not publish change notices');
    }
  }

  /** A channel broke while its connection lives on: drop the whole connection, so recovery rebuilds both channels. */
  private lost(model: ChannelModel, reason: string, error?: unknown): void {
    if (this.closing || (this.model !== model && this.consumingOn !== model)) return;
    this.log.warn({ reason, err: error }, 'change feed channel lost; reconnecting');
    this.model = undefined;
    this.publisher = undefined;
    this.consumingOn = undefined;
    void bounded(model.close());
  }
}
