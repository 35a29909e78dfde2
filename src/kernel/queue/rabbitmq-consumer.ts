/**
 * Consuming: two lanes, the work queue (starts) with prefetch = concurrency and the poll queue (vendor polls) with
 * prefetch = pollConcurrency, each with its own limit of handlers, so a backlog of starts never holds a due poll
 * back and polls, which mostly wait on a vendor, can be many. A job is acked only after its handler resolved, and
 * nacked back to its queue (after a growing pause) when it threw. The quorum queues count deliveries and dead-letter
 * a job past the delivery limit to the DLQ, whose consumer calls `onDeadLetter` so the kernel can fail and refund the
 * request. A job out of the delay levels with delay still to go is sent through them again. Delayed polls this
 * worker schedules for itself may be kept in its own timers and run in the poll lane (held-polls.ts). A message
 * carrying the starts of one turn (job-messages.ts) runs each of them in the lane as if delivered alone.
 */
import type { Channel, ConsumeMessage } from 'amqplib';
import type { Logger } from 'pino';
import { bounded } from './deadline.js';
import { HeldPolls } from './held-polls.js';
import { parseJobs } from './job-messages.js';
import type { Job, JobHandler } from './queue-port.js';
import type { RabbitMqConnection } from './rabbitmq-connection.js';
import { remainingHeader, type RabbitMqPublisher } from './rabbitmq-publisher.js';
import type { Session } from './rabbitmq-session.js';
import type { RabbitMqTopology } from './rabbitmq-topology.js';

const deadLetterPrefetch = 4;
const maxRedeliveryDelayMs = 30_000;

/** One consumed queue, with its own prefetch and its own limit of handlers running at once. */
interface Lane {
  queue: string;
  concurrency: number;
  /** Handlers running now. */
  running: number;
  /** Jobs delivered and waiting for a slot. */
  waiters: ((granted: boolean) => void)[];
}

interface Consumer {
  handler: JobHandler;
  lanes: Lane[];
}

export interface RabbitMqConsumerOptions {
  connection: RabbitMqConnection;
  /** Sends a job that came out of the delay levels with delay still to go through them again. */
  publisher: RabbitMqPublisher;
  topology: RabbitMqTopology;
  redeliveryDelayMs: number;
  /** Delayed polls up to this long are kept in this process's timers while it consumes (0: never). */
  holdPollsUpToMs: number;
  onDeadLetter?: (requestId: string) => Promise<void>;
  log: Logger;
}

export class RabbitMqConsumer {
  private readonly connection: RabbitMqConnection;
  private readonly log: Logger;
  private consumer: Consumer | undefined;
  /** Dead-letter hooks and wait hand-overs in progress; close() waits for them too. */
  private settling = 0;
  private idleWaiters: (() => void)[] = [];
  /** Pending redelivery pauses; `close()` cuts them short. */
  private pauses = new Set<() => void>();
  private readonly heldPolls = new HeldPolls((job) => void this.runHeld(job));
  /** Held polls that are due and wait for a slot of the poll lane, by their place in its waiters. */
  private readonly heldWaiting = new Map<(granted: boolean) => void, Job>();

  constructor(private readonly options: RabbitMqConsumerOptions) {
    this.connection = options.connection;
    this.log = options.log;
  }

  /** Whether `consume()` was called (and not undone by a failed first connect). */
  wanted(): boolean {
    return this.consumer !== undefined;
  }

  /** Whether `job` may be kept in this process's timers: a poll this consumer runs, due soon enough. */
  mayHold(job: Job, delayMs: number): boolean {
    if (job.poll === undefined || !(delayMs > 0) || delayMs > this.options.holdPollsUpToMs) return false;
    return this.consumer !== undefined && !this.connection.closing && this.heldPolls.accepting;
  }

  /** Keeps `job` (one `mayHold` allowed) and runs it in the poll lane once `delayMs` is over. */
  hold(job: Job, delayMs: number): void {
    this.heldPolls.hold(job, delayMs);
  }

  /**
   * First step of a graceful stop, while the connection is still open: stops holding polls and hands every held one
   * (and every due one still waiting for a slot) back to the broker with the delay it still had, so another worker
   * runs it on time. One that cannot be sent is left to the sweeper (its row says it is due).
   */
  async handBackHeldPolls(): Promise<void> {
    const taken = this.heldPolls.takeAll();
    const pollLane = this.consumer?.lanes[1];
    for (const [waiter, job] of this.heldWaiting) {
      const place = pollLane?.waiters.indexOf(waiter) ?? -1;
      if (place >= 0) pollLane!.waiters.splice(place, 1);
      taken.push({ job, remainingMs: 0 });
      waiter(false);
    }
    if (taken.length === 0) return;
    this.log.info({ polls: taken.length }, 'handing held polls back to the broker');
    await Promise.all(taken.map(({ job, remainingMs }) => this.handBack(job, remainingMs)));
  }

  async consume(handler: JobHandler, options: { concurrency: number; pollConcurrency?: number }): Promise<void> {
    if (this.consumer) throw new Error('the RabbitMQ queue already has a consumer');
    if (this.connection.closing) throw new Error('the RabbitMQ queue is closed');
    const lane = (queue: string, concurrency: number): Lane => ({ queue, concurrency: Math.max(1, Math.floor(concurrency)), running: 0, waiters: [] });
    const { topology } = this.options;
    this.consumer = { handler, lanes: [lane(topology.workQueue, options.concurrency), lane(topology.pollQueue, options.pollConcurrency ?? options.concurrency)] };
    if (!this.connection.supervised) {
      // The first session starts consuming as part of its set-up.
      await this.connection.connect().catch((error: unknown) => {
        this.consumer = undefined;
        throw error;
      });
      return;
    }
    // Otherwise start on the live session; during an outage the next session starts by itself (adopt).
    const session = this.connection.session;
    if (session && !session.isLost) await this.start(session).catch((error: unknown) => session.markLost('could not start consuming', error));
  }

  /** Opens the work, poll (and dead-letter) consume channels on `session`, once. */
  async start(session: Session): Promise<void> {
    const consumer = this.consumer;
    if (!consumer || session.consuming) return;
    session.consuming = true;
    const { topology } = this.options;
    for (const lane of consumer.lanes) {
      const channel = await session.connection.createChannel();
      channel.on('error', (error: Error) => this.log.debug({ err: error, queue: lane.queue }, 'RabbitMQ consume channel error'));
      channel.on('close', () => {
        if (!this.connection.closing) session.markLost('consume channel closed');
      });
      // prefetch = the lane's concurrency: the broker never hands this process more jobs than it may run at once.
      await channel.prefetch(lane.concurrency);
      const { consumerTag } = await channel.consume(lane.queue, (message) => {
        // null = the broker cancelled us (queue deleted or moved): rebuild the session, which re-declares.
        if (!message) return session.markLost('consumer cancelled by the broker');
        void this.deliver(channel, consumer.handler, lane, message);
      });
      session.consumerChannels.push({ channel, consumerTag });
    }

    const onDeadLetter = this.options.onDeadLetter;
    if (onDeadLetter) {
      const deadChannel = await session.connection.createChannel();
      deadChannel.on('error', (error: Error) => this.log.debug({ err: error }, 'RabbitMQ dead-letter channel error'));
      deadChannel.on('close', () => {
        if (!this.connection.closing) session.markLost('dead-letter channel closed');
      });
      await deadChannel.prefetch(deadLetterPrefetch);
      const dead = await deadChannel.consume(topology.deadQueue, (message) => {
        if (!message) return session.markLost('dead-letter consumer cancelled by the broker');
        void this.deliverDeadLetter(deadChannel, onDeadLetter, message);
      });
      session.consumerChannels.push({ channel: deadChannel, consumerTag: dead.consumerTag });
    }
  }

  /**
   * Part of closing, after `connection.beginClose()`: cancels the consumers, hands back jobs delivered but
   * not started, cuts redelivery pauses short and waits for running handlers and hand-overs to settle.
   */
  async drain(session: Session | undefined): Promise<void> {
    if (session && !session.isLost) {
      for (const { channel, consumerTag } of session.consumerChannels) await bounded(channel.cancel(consumerTag));
    }
    // Delivered but not started: back to the queue (resolving `false` makes deliver() nack with requeue).
    for (const lane of this.consumer?.lanes ?? []) lane.waiters.splice(0).forEach((resolve) => resolve(false));
    for (const done of [...this.pauses]) done();
    if (!this.idle()) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private async deliver(channel: Channel, handler: JobHandler, lane: Lane, message: ConsumeMessage): Promise<void> {
    const jobs = parseJobs(message);
    if (!jobs) {
      this.log.error({ body: message.content.toString('utf8').slice(0, 200) }, 'moving a malformed job to the dead-letter queue');
      return settle(channel, message, 'dead-letter');
    }
    if (jobs.length > 1) return this.deliverBatch(channel, handler, lane, jobs, message);
    const [job] = jobs;
    const remaining = Number(message.properties.headers?.[remainingHeader] ?? 0);
    if (remaining > 0) return this.continueWait(channel, job, remaining, message);

    // Jobs delivered over a new channel while handlers from a dropped one still run wait here, so the
    // concurrency limit holds across reconnects too.
    if (!(await this.takeSlot(lane))) return settle(channel, message, 'requeue');
    try {
      await handler(job);
      settle(channel, message, 'ack');
    } catch (error) {
      const deliveries = Number(message.properties.headers?.['x-delivery-count'] ?? 0);
      this.log.warn({ err: error, requestId: job.requestId, delivery: deliveries + 1 }, 'job handler failed; handing the job back');
      await this.pause(Math.min(maxRedeliveryDelayMs, this.options.redeliveryDelayMs * 2 ** deliveries));
      settle(channel, message, 'requeue');
    } finally {
      this.releaseSlot(lane);
    }
  }

  /**
   * A message carrying the starts of one turn (job-messages.ts): each job takes a slot of the lane as a job delivered
   * alone would, and the message is settled once every one has run. A job that threw goes back alone, through the
   * delay levels for the redelivery pause, where the queue's delivery limit counts its further attempts; the message is
   * acked once those are queued. When that fails, or when the queue closes before every job got a slot, the whole
   * message goes back: its jobs that ran already claim nothing the next time (a start's claim is pinned to a request
   * never claimed), so none is started twice.
   */
  private async deliverBatch(channel: Channel, handler: JobHandler, lane: Lane, jobs: Job[], message: ConsumeMessage): Promise<void> {
    this.settling += 1;
    try {
      const outcomes = await Promise.all(
        jobs.map(async (job): Promise<'done' | 'failed' | 'not run'> => {
          if (!(await this.takeSlot(lane))) return 'not run';
          try {
            await handler(job);
            return 'done';
          } catch (error) {
            this.log.warn({ err: error, requestId: job.requestId }, 'job handler failed; handing the job back on its own');
            return 'failed';
          } finally {
            this.releaseSlot(lane);
          }
        }),
      );
      if (outcomes.includes('not run')) return settle(channel, message, 'requeue');
      const failed = jobs.filter((_, index) => outcomes[index] === 'failed');
      try {
        await Promise.all(failed.map((job) => this.options.publisher.publish(job, { delayMs: this.options.redeliveryDelayMs, alone: true })));
      } catch (error) {
        this.log.warn({ err: error, jobs: jobs.length }, 'could not hand failed jobs of a batch back; the whole batch goes back');
        await this.pause(this.options.redeliveryDelayMs);
        return settle(channel, message, 'requeue');
      }
      settle(channel, message, 'ack');
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  /**
   * A held poll that is due: it runs in the poll lane like a delivered one. A failed run goes to the broker after the
   * redelivery pause, where the queue's delivery limit counts its further attempts.
   */
  private async runHeld(job: Job): Promise<void> {
    const consumer = this.consumer!;
    const lane = consumer.lanes[1];
    this.settling += 1;
    let failed = false;
    try {
      // Not granted: handed back by handBackHeldPolls(), or the queue is closing (then the sweeper sends it).
      if (!(await this.takeSlot(lane, job))) return;
      try {
        await consumer.handler(job);
      } catch (error) {
        this.log.warn({ err: error, requestId: job.requestId }, 'held poll failed; handing it to the broker');
        failed = true;
      } finally {
        this.releaseSlot(lane);
      }
      if (failed) await this.handBack(job, this.options.redeliveryDelayMs);
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  private async handBack(job: Job, delayMs: number): Promise<void> {
    try {
      await this.options.publisher.publish(job, { delayMs });
    } catch (error) {
      this.log.warn({ err: error, requestId: job.requestId }, 'could not hand a held poll to the broker; the sweeper will send it');
    }
  }

  /** A job out of the delay levels with more delay to go goes through them again; then this copy is acked. */
  private async continueWait(channel: Channel, job: Job, remainingMs: number, message: ConsumeMessage): Promise<void> {
    this.settling += 1;
    try {
      await this.options.publisher.continueWait(job, remainingMs);
      settle(channel, message, 'ack');
    } catch (error) {
      this.log.warn({ err: error, requestId: job.requestId }, 'could not send a delayed job through the delay levels again');
      settle(channel, message, 'requeue');
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  /** Every job of a dead letter (a batch's too) goes to `onDeadLetter`, which leaves a finished request as it is. */
  private async deliverDeadLetter(channel: Channel, onDeadLetter: (requestId: string) => Promise<void>, message: ConsumeMessage): Promise<void> {
    const jobs = parseJobs(message);
    if (!jobs) {
      this.log.error({ body: message.content.toString('utf8').slice(0, 200) }, 'discarding a malformed dead letter');
      return settle(channel, message, 'ack');
    }
    this.settling += 1;
    const requestIds = jobs.map((job) => job.requestId);
    try {
      for (const requestId of requestIds) {
        this.log.warn({ requestId }, 'job exhausted its deliveries and was dead-lettered');
        await onDeadLetter(requestId);
      }
      settle(channel, message, 'ack');
    } catch (error) {
      this.log.error({ err: error, requestIds }, 'dead-letter hook failed; retrying later');
      await this.pause(this.options.redeliveryDelayMs);
      settle(channel, message, 'requeue');
    } finally {
      this.settling -= 1;
      this.notifyIdle();
    }
  }

  /** `held`: the held poll asking, remembered while it waits so that a graceful stop can hand it back. */
  private takeSlot(lane: Lane, held?: Job): Promise<boolean> {
    if (this.connection.closing) return Promise.resolve(false);
    if (lane.running < lane.concurrency && lane.waiters.length === 0) {
      lane.running += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = (granted: boolean): void => {
        this.heldWaiting.delete(waiter);
        resolve(granted);
      };
      if (held) this.heldWaiting.set(waiter, held);
      lane.waiters.push(waiter);
    });
  }

  private releaseSlot(lane: Lane): void {
    if (this.connection.closing) lane.waiters.splice(0).forEach((resolve) => resolve(false));
    const next = lane.waiters.shift();
    // The slot passes straight to the next waiting job, so `running` never exceeds the limit.
    if (next) return next(true);
    lane.running -= 1;
    this.notifyIdle();
  }

  private idle(): boolean {
    return this.settling === 0 && (this.consumer?.lanes ?? []).every((lane) => lane.running === 0);
  }

  private notifyIdle(): void {
    if (this.idle()) this.idleWaiters.splice(0).forEach((resolve) => resolve());
  }

  private pause(ms: number): Promise<void> {
    if (this.connection.closing || ms <= 0) return Promise.resolve();
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
