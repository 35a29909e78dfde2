/**
 * The connection lifecycle: open a session (connection, topology, publish channel, consumers), and when
 * it is lost re-open it with capped, jittered exponential backoff: topology re-declared, channels
 * re-created, consumers resumed. Callers wait for a live session up to their own deadline.
 */
import amqp, { type Message } from 'amqplib';
import type { Logger } from 'pino';
import { amqpSocketOptions, coalesceAmqpWrites } from './coalesced-writes.js';
import { bounded, sleep, withDeadline } from './deadline.js';
import { Session } from './rabbitmq-session.js';
import { declareTopology, type RabbitMqTopology } from './rabbitmq-topology.js';

const connectTimeoutMs = 10_000;

/** The consuming side as the connection sees it: each new session starts consuming as part of its set-up. */
export interface SessionConsumers {
  /** Whether `consume()` was called. */
  wanted(): boolean;
  /** Opens the consume channels on `session`; does nothing if it consumes already or nothing is wanted. */
  start(session: Session): Promise<void>;
}

export interface RabbitMqConnectionOptions {
  url: string;
  connectionName: string;
  topology: RabbitMqTopology;
  reconnect: { initialMs: number; maxMs: number };
  /** Only named in the errors of `waitForSession`; each caller picks its own deadline. */
  publishTimeoutMs: number;
  consumers: SessionConsumers;
  log: Logger;
}

export class RabbitMqConnection {
  private currentSession: Session | undefined;
  /** When the last live session was lost; unset while connected or before the first connection. */
  private lostSinceMs: number | undefined;
  private firstConnect: Promise<void> | undefined;
  private supervisor: Promise<void> | undefined;
  private sessionWaiters = new Set<() => void>();
  private wakeSupervisor: (() => void) | undefined;
  private isClosing = false;

  constructor(private readonly options: RabbitMqConnectionOptions) {}

  /** True once `close()` began: no more connects, publishes or deliveries. */
  get closing(): boolean {
    return this.isClosing;
  }

  /** The newest session, which may be lost already. */
  get session(): Session | undefined {
    return this.currentSession;
  }

  /** When the last live session was lost; unset while connected or before the first connection. */
  get outageSinceMs(): number | undefined {
    return this.lostSinceMs;
  }

  /** True once the first connection succeeded: from then on drops are repaired in the background. */
  get supervised(): boolean {
    return this.supervisor !== undefined;
  }

  /** True while a connection with its channels is up. */
  get connected(): boolean {
    return this.currentSession !== undefined && !this.currentSession.isLost;
  }

  /**
   * Connects and declares the topology. Until the first success every call makes one attempt and rejects
   * on failure (a wrong URL or a refused topology fails the start); afterwards drops are repaired in the
   * background and this resolves once a connection is up again.
   */
  async connect(): Promise<void> {
    if (this.isClosing) throw new Error('the RabbitMQ queue is closed');
    if (this.supervisor) return this.waitForSession(Number.POSITIVE_INFINITY).then(() => undefined);
    this.firstConnect ??= this.openSession()
      .then((session) => {
        if (this.isClosing) {
          void session.connection.close().catch(() => {});
          throw new Error('the RabbitMQ queue was closed while connecting');
        }
        this.adopt(session);
        this.supervisor = this.supervise(session);
      })
      .finally(() => (this.firstConnect = undefined));
    return this.firstConnect;
  }

  /**
   * The live session, waiting for a reconnect until `deadline`. Before the first connection, each caller
   * retries connecting with backoff until its deadline.
   */
  async waitForSession(deadline: number): Promise<Session> {
    for (let attempt = 1; ; attempt += 1) {
      if (this.isClosing) throw new Error('the RabbitMQ queue is closed');
      const session = this.currentSession;
      if (session && !session.isLost) return session;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new Error(`RabbitMQ is unreachable; gave up after ${this.options.publishTimeoutMs} ms`);
      if (!this.supervisor) {
        try {
          await withDeadline(this.connect(), deadline, `RabbitMQ did not accept a connection within ${this.options.publishTimeoutMs} ms`);
        } catch (error) {
          if (this.isClosing || Date.now() + 1 >= deadline) throw error;
          this.options.log.warn({ err: error, attempt }, 'could not connect to RabbitMQ; retrying');
          await sleep(Math.min(reconnectDelay(attempt, this.options.reconnect), deadline - Date.now()));
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

  /**
   * First step of closing: later connects and waits reject, the supervisor stops. Returns the session
   * to hand to `finishClose()` once the consumers are drained.
   */
  beginClose(): Session | undefined {
    this.isClosing = true;
    this.wakeSupervisor?.();
    for (const wake of this.sessionWaiters) wake();
    this.sessionWaiters.clear();
    return this.currentSession;
  }

  /** Closes the session's channels and connection, then waits for a connect or reconnect in progress. */
  async finishClose(session: Session | undefined): Promise<void> {
    if (session) {
      // Channel by channel first: a channel's close waits for the broker's close-ok, which follows the acks
      // sent before it. Closing only the connection lost those last acks in our tests (the job came back).
      for (const { channel } of session.consumerChannels) await bounded(channel.close());
      await bounded(session.connection.close());
    }
    await this.firstConnect?.catch(() => {});
    await this.supervisor;
    this.currentSession = undefined;
  }

  private async openSession(): Promise<Session> {
    const { log } = this.options;
    // The socket timeout bounds the connect and handshake only; amqplib clears it once the connection is open.
    const connection = await amqp.connect(this.options.url, { ...amqpSocketOptions, timeout: connectTimeoutMs, clientProperties: { connection_name: this.options.connectionName } });
    coalesceAmqpWrites(connection);
    const session = new Session(connection, (reason, error) => {
      if (!this.isClosing) log.warn({ reason, err: error }, 'RabbitMQ connection lost');
    });
    connection.on('error', (error: Error) => log.debug({ err: error }, 'RabbitMQ connection error'));
    connection.on('close', (error?: Error) => session.markLost(error ? error.message : 'connection closed', error));
    connection.on('blocked', (reason: string) => log.warn({ reason }, 'RabbitMQ blocked publishing (resource alarm)'));
    connection.on('unblocked', () => log.info('RabbitMQ unblocked publishing'));
    try {
      const setup = await connection.createChannel();
      setup.on('error', () => {});
      await declareTopology(setup, this.options.topology);
      await setup.close();

      const publisher = await connection.createConfirmChannel();
      publisher.on('error', (error: Error) => log.debug({ err: error }, 'RabbitMQ publish channel error'));
      publisher.on('close', () => session.markLost('publish channel closed'));
      publisher.on('return', (message: Message) => {
        const id = message.properties.messageId;
        if (typeof id === 'string') session.returned.add(id);
      });
      session.publisher = publisher;
      if (this.options.consumers.wanted()) await this.options.consumers.start(session);
      return session;
    } catch (error) {
      session.markLost('setup failed', error);
      throw error;
    }
  }

  private adopt(session: Session): void {
    this.currentSession = session;
    this.lostSinceMs = undefined;
    this.options.log.info('RabbitMQ connected; topology declared');
    // consume() may have been called while this session was being opened.
    if (this.options.consumers.wanted() && !session.consuming) {
      void this.options.consumers.start(session).catch((error) => session.markLost('could not start consuming', error));
    }
    for (const wake of this.sessionWaiters) wake();
    this.sessionWaiters.clear();
  }

  /** Waits for the session to be lost, then reconnects with backoff until it works or the queue closes. */
  private async supervise(first: Session): Promise<void> {
    let session = first;
    while (!this.isClosing) {
      await session.lost;
      if (this.currentSession === session) this.currentSession = undefined;
      this.lostSinceMs = Date.now();
      for (let attempt = 1; !this.isClosing; attempt += 1) {
        const delay = reconnectDelay(attempt, this.options.reconnect);
        this.options.log.info({ attempt, delayMs: delay }, 'reconnecting to RabbitMQ');
        await this.pauseSupervisor(delay);
        if (this.isClosing) return;
        try {
          session = await this.openSession();
        } catch (error) {
          this.options.log.warn({ err: error, attempt }, 'RabbitMQ reconnect failed');
          continue;
        }
        if (this.isClosing) {
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
}

/** Exponential backoff with "equal jitter": between half and all of min(maxMs, initialMs * 2^(attempt-1)). */
export function reconnectDelay(attempt: number, backoff: { initialMs: number; maxMs: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
