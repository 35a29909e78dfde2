/**
 * The RabbitMQ topology as data: every exchange, queue, argument and binding the RabbitMQ queue adapter
 * declares, derived from a prefix so several deployments (and test runs) share one broker. The same
 * description drives `declare`, `delete` and the tables in docs/rabbitmq.md (a test keeps the two in step).
 *
 *   publish ──> <p>.work (direct) ──work──> <p>.work (quorum) ─┐
 *                                 ──poll──> <p>.poll (quorum) ─┴─dead-letter──> <p>.dead (fanout) ──> <p>.dead
 *   publish with delay ──> <p>.delay.<k> (topic, k = the delay's highest non-zero digit)
 *        digit k = d > 0 ──> <p>.delay.<k>.<d> (quorum, TTL resolution·d·radix^k) ──dead-letter──┐
 *        digit k = 0 ─────────────────────────────────────────────────────────────────────────┴──> <p>.delay.<k-1> ... ──> <p>.due (topic) ──> work | poll
 *
 * A delay is counted down inside the broker, one digit per level, as NServiceBus's and Celery's RabbitMQ transports
 * do in binary (https://docs.particular.net/transports/rabbitmq/delayed-delivery): the routing key spells the delay
 * (most significant digit first) and then the destination, and each level's topic exchange sends the job through the
 * wait queue of its digit, or straight on when the digit is 0. No consumer takes part until the job is due, and the
 * delay is met to one `delayResolutionMs`, never early. In base 16 rather than 2 a typical poll delay waits in two
 * queues instead of four or five: each wait is a few quorum-queue commands, the broker's main cost per poll.
 */
import type { Channel } from 'amqplib';

/** Delays are rounded up to a multiple of this. */
export const defaultDelayResolutionMs = 250;
/** The base the delay is written in: each level has a wait queue per non-zero digit. */
export const defaultDelayRadix = 16;
/** Levels of the countdown: one pass through them delays up to resolution·(radix^levels − 1), 4.55 h by default. */
export const defaultDelayLevels = 4;

/** Where a job is consumed: starts in the work queue, polls of vendor tasks in the poll queue. */
export type Destination = 'work' | 'poll';
export const destinations: readonly Destination[] = ['work', 'poll'];

export interface TopologyOptions {
  /** Names every exchange and queue: `<prefix>.work`, `<prefix>.delay.1.3`, ... */
  prefix: string;
  /** Redeliveries a job gets after its handler failed (or its consumer vanished) before it is dead-lettered. */
  deliveryLimit: number;
  /** Granularity of delays (default 250 ms): a delay is rounded up to a multiple of it. */
  delayResolutionMs?: number;
  /** Base of the countdown, 2 to 16 (default 16): level k holds a job for resolution·d·radix^k, d its digit there. */
  delayRadix?: number;
  /** Levels of the countdown (default 4). */
  delayLevels?: number;
}

export type QueueArguments = Record<string, string | number>;

export interface ExchangeSpec {
  name: string;
  type: 'direct' | 'fanout' | 'topic';
}

export interface QueueSpec {
  name: string;
  arguments: QueueArguments;
}

/** A binding of a queue, or of another exchange (`toExchange`), to `exchange`. */
export type BindingSpec = { exchange: string; routingKey: string } & ({ queue: string; toExchange?: undefined } | { toExchange: string; queue?: undefined });

export interface DelayLevel {
  level: number;
  /** The level's topic exchange. */
  exchange: string;
  /** One wait queue per non-zero digit `d`, holding a job for resolution·d·radix^level. */
  waits: { digit: number; delayMs: number; queue: string }[];
}

export interface RabbitMqTopology {
  workExchange: string;
  deadExchange: string;
  /** Where a delay ends: routes the job to its destination queue. */
  dueExchange: string;
  /** Consumed with `concurrency`: jobs that start requests. */
  workQueue: string;
  /** Consumed with `pollConcurrency`: jobs that poll vendor tasks. */
  pollQueue: string;
  deadQueue: string;
  delayResolutionMs: number;
  delayRadix: number;
  /** Ascending by level. */
  delayLevels: DelayLevel[];
  exchanges: ExchangeSpec[];
  queues: QueueSpec[];
  bindings: BindingSpec[];
}

/**
 * At-least-once dead-lettering (RabbitMQ 3.10+, quorum source queues only) moves a message to the
 * dead-letter exchange with publisher confirms inside the broker, so a job is never lost between two delay
 * levels, or between a work queue and the DLQ. RabbitMQ only honours it together with `x-overflow:
 * reject-publish`; without a length limit that overflow setting changes nothing else.
 * https://www.rabbitmq.com/blog/2022/03/29/at-least-once-dead-lettering
 */
const safeDeadLettering: QueueArguments = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };

export function describeTopology(options: TopologyOptions): RabbitMqTopology {
  const delayResolutionMs = options.delayResolutionMs ?? defaultDelayResolutionMs;
  const radix = options.delayRadix ?? defaultDelayRadix;
  const levels = options.delayLevels ?? defaultDelayLevels;
  validateTopologyOptions(options, delayResolutionMs, radix, levels);
  const { prefix } = options;
  const workExchange = `${prefix}.work`;
  const deadExchange = `${prefix}.dead`;
  const dueExchange = `${prefix}.due`;
  const workQueue = `${prefix}.work`;
  const pollQueue = `${prefix}.poll`;
  const deadQueue = `${prefix}.dead`;
  const delayLevels: DelayLevel[] = Array.from({ length: levels }, (_, level) => ({
    level,
    exchange: `${prefix}.delay.${level}`,
    waits: Array.from({ length: radix - 1 }, (_, index) => ({ digit: index + 1, delayMs: delayResolutionMs * (index + 1) * radix ** level, queue: `${prefix}.delay.${level}.${(index + 1).toString(radix)}` })),
  }));
  // Where a level sends a job after it (or past it): the next level down, or, after level 0, the due exchange.
  const below = (level: number): string => (level === 0 ? dueExchange : delayLevels[level - 1].exchange);
  const consumed = { 'x-queue-type': 'quorum', 'x-delivery-limit': options.deliveryLimit, 'x-dead-letter-exchange': deadExchange, ...safeDeadLettering };

  return {
    workExchange,
    deadExchange,
    dueExchange,
    workQueue,
    pollQueue,
    deadQueue,
    delayResolutionMs,
    delayRadix: radix,
    delayLevels,
    exchanges: [
      { name: workExchange, type: 'direct' },
      { name: deadExchange, type: 'fanout' },
      { name: dueExchange, type: 'topic' },
      ...delayLevels.map((delay) => ({ name: delay.exchange, type: 'topic' as const })),
    ],
    queues: [
      { name: workQueue, arguments: consumed },
      { name: pollQueue, arguments: consumed },
      { name: deadQueue, arguments: { 'x-queue-type': 'quorum' } },
      ...delayLevels.flatMap((delay) =>
        delay.waits.map((wait) => ({
          name: wait.queue,
          arguments: { 'x-queue-type': 'quorum', 'x-message-ttl': wait.delayMs, 'x-dead-letter-exchange': below(delay.level), ...safeDeadLettering },
        })),
      ),
    ],
    bindings: [
      { exchange: workExchange, routingKey: 'work', queue: workQueue },
      { exchange: workExchange, routingKey: 'poll', queue: pollQueue },
      { exchange: deadExchange, routingKey: '', queue: deadQueue },
      { exchange: dueExchange, routingKey: '#.work', queue: workQueue },
      { exchange: dueExchange, routingKey: '#.poll', queue: pollQueue },
      ...delayLevels.flatMap((delay): BindingSpec[] => [
        ...delay.waits.map((wait) => ({ exchange: delay.exchange, routingKey: digitPattern(delay.level, levels, wait.digit.toString(radix)), queue: wait.queue })),
        { exchange: delay.exchange, routingKey: digitPattern(delay.level, levels, '0'), toExchange: below(delay.level) },
      ]),
    ],
  };
}

/** The topic pattern matching routing keys whose digit for `level` is `digit` (digits are words, highest level first). */
export function digitPattern(level: number, levels: number, digit: string): string {
  return `${'*.'.repeat(levels - 1 - level)}${digit}.#`;
}

export interface DelayPlan {
  /** The level exchange to publish to: the delay's highest non-zero digit. */
  exchange: string;
  /** The delay in units of the resolution, one word per digit in the radix, then the destination. */
  routingKey: string;
  /** Delay beyond what one pass through the levels holds; carried in a header and waited for afterwards. */
  remainingMs: number;
}

/**
 * How a delay travels: rounded up to the resolution (so a job is never early, and at most one resolution late),
 * spelled in the radix over the levels. A delay longer than every level together waits the most they hold, and the
 * rest again when it comes out.
 */
export function planDelay(delayMs: number, destination: Destination, topology: Pick<RabbitMqTopology, 'delayResolutionMs' | 'delayRadix' | 'delayLevels'>): DelayPlan | undefined {
  if (!(delayMs > 0)) return undefined;
  const levels = topology.delayLevels.length;
  const most = topology.delayRadix ** levels - 1;
  const units = Math.min(most, Math.ceil(delayMs / topology.delayResolutionMs));
  const remainingMs = units === most ? Math.max(0, delayMs - most * topology.delayResolutionMs) : 0;
  const digits = units.toString(topology.delayRadix).padStart(levels, '0').split('');
  const highest = levels - 1 - digits.findIndex((digit) => digit !== '0');
  return { exchange: topology.delayLevels[highest].exchange, routingKey: `${digits.join('.')}.${destination}`, remainingMs };
}

/** Declares everything; idempotent. A queue that exists with other arguments makes the broker refuse (406). */
export async function declareTopology(channel: Channel, topology: RabbitMqTopology): Promise<void> {
  for (const exchange of topology.exchanges) await channel.assertExchange(exchange.name, exchange.type, { durable: true, autoDelete: false });
  for (const queue of topology.queues) {
    try {
      await channel.assertQueue(queue.name, { durable: true, exclusive: false, autoDelete: false, arguments: queue.arguments });
    } catch (error) {
      throw new Error(
        `RabbitMQ refused queue ${queue.name} with arguments ${JSON.stringify(queue.arguments)}: ${(error as Error).message}. ` +
          'A queue that already exists with other arguments must be deleted (or changed through a policy) first; see docs/rabbitmq.md.',
        { cause: error },
      );
    }
  }
  for (const binding of topology.bindings) {
    if (binding.toExchange !== undefined) await channel.bindExchange(binding.toExchange, binding.exchange, binding.routingKey);
    else await channel.bindQueue(binding.queue, binding.exchange, binding.routingKey);
  }
}

/** Deletes every queue (with its messages) and exchange of the topology; for tests and decommissioning. */
export async function deleteTopology(channel: Channel, topology: RabbitMqTopology): Promise<void> {
  for (const queue of topology.queues) await channel.deleteQueue(queue.name);
  for (const exchange of topology.exchanges) await channel.deleteExchange(exchange.name);
}

function validateTopologyOptions(options: TopologyOptions, delayResolutionMs: number, radix: number, levels: number): void {
  const problems: string[] = [];
  // Dots separate our suffixes; keep names readable in the management UI and safe in policies' regexes.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(options.prefix)) problems.push(`prefix must be 1-100 letters, digits, '_' or '-' (got ${JSON.stringify(options.prefix)})`);
  if (!Number.isInteger(options.deliveryLimit) || options.deliveryLimit < 0) problems.push(`deliveryLimit must be a non-negative integer (got ${options.deliveryLimit})`);
  if (!Number.isInteger(delayResolutionMs) || delayResolutionMs <= 0) problems.push(`delayResolutionMs must be a positive integer (got ${delayResolutionMs})`);
  if (!Number.isInteger(radix) || radix < 2 || radix > 16) problems.push(`delayRadix must be an integer from 2 to 16 (got ${radix})`);
  // x-message-ttl is at most 2^32 - 1 ms.
  else if (!Number.isInteger(levels) || levels < 1 || delayResolutionMs * (radix - 1) * radix ** (levels - 1) > 2 ** 32 - 1) {
    problems.push(`delayLevels must be an integer from 1 up to where the longest wait, resolution·(radix-1)·radix^(levels-1), stays below 2^32 ms (got ${levels})`);
  }
  if (problems.length > 0) throw new Error(`invalid RabbitMQ queue settings: ${problems.join('; ')}`);
}
