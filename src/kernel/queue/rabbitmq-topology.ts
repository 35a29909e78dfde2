/**
 * The RabbitMQ topology as data: every exchange, queue, argument and binding the RabbitMQ queue adapter
 * declares, derived from a prefix so several deployments (and test runs) share one broker. The same
 * description drives `declare`, `delete` and the table in docs/rabbitmq.md (a test keeps the two in step).
 *
 *   publish ──> <p>.work (direct) ──work──> <p>.work  (quorum, delivery limit) ──dead-letter──> <p>.dead (fanout) ──> <p>.dead
 *   publish with delay ──> <p>.delay (direct) ──<ms>──> <p>.wait.<ms>ms (quorum, queue TTL) ──dead-letter──> <p>.work
 */
import type { Channel } from 'amqplib';

/** The default wait buckets: a delay is spent in the largest bucket that fits, then the rest again. */
export const defaultWaitBucketsMs: readonly number[] = [1_000, 5_000, 15_000, 60_000, 300_000, 900_000];

/** Routing key of the work queue binding; dead-lettered waits are re-routed with it. */
export const workRoutingKey = 'work';

export interface TopologyOptions {
  /** Names every exchange and queue: `<prefix>.work`, `<prefix>.wait.1000ms`, ... */
  prefix: string;
  /** Redeliveries a job gets after its handler failed (or its consumer vanished) before it is dead-lettered. */
  deliveryLimit: number;
  /** Queue-level TTLs of the wait queues, in milliseconds. */
  waitBucketsMs: readonly number[];
}

export type QueueArguments = Record<string, string | number>;

export interface ExchangeSpec {
  name: string;
  type: 'direct' | 'fanout';
}

export interface QueueSpec {
  name: string;
  arguments: QueueArguments;
  /** For a wait queue: the TTL every message spends in it. */
  waitMs?: number;
}

export interface BindingSpec {
  queue: string;
  exchange: string;
  routingKey: string;
}

export interface RabbitMqTopology {
  workExchange: string;
  delayExchange: string;
  deadExchange: string;
  workQueue: string;
  deadQueue: string;
  /** Ascending by delay. */
  waitQueues: { delayMs: number; name: string; routingKey: string }[];
  exchanges: ExchangeSpec[];
  queues: QueueSpec[];
  bindings: BindingSpec[];
}

/**
 * At-least-once dead-lettering (RabbitMQ 3.10+, quorum source queues only) moves a message to the
 * dead-letter exchange with publisher confirms inside the broker, so a job is never lost between a wait
 * queue and the work queue, or between the work queue and the DLQ. RabbitMQ only honours it together with
 * `x-overflow: reject-publish`; without a length limit that overflow setting changes nothing else.
 * https://www.rabbitmq.com/blog/2022/03/29/at-least-once-dead-lettering
 */
const safeDeadLettering: QueueArguments = { 'x-dead-letter-strategy': 'at-least-once', 'x-overflow': 'reject-publish' };

export function describeTopology(options: TopologyOptions): RabbitMqTopology {
  validateTopologyOptions(options);
  const { prefix } = options;
  const workExchange = `${prefix}.work`;
  const delayExchange = `${prefix}.delay`;
  const deadExchange = `${prefix}.dead`;
  const workQueue = `${prefix}.work`;
  const deadQueue = `${prefix}.dead`;
  const waitQueues = [...options.waitBucketsMs]
    .sort((a, b) => a - b)
    .map((delayMs) => ({ delayMs, name: `${prefix}.wait.${delayMs}ms`, routingKey: String(delayMs) }));

  const queues: QueueSpec[] = [
    {
      name: workQueue,
      arguments: { 'x-queue-type': 'quorum', 'x-delivery-limit': options.deliveryLimit, 'x-dead-letter-exchange': deadExchange, ...safeDeadLettering },
    },
    { name: deadQueue, arguments: { 'x-queue-type': 'quorum' } },
    ...waitQueues.map((wait) => ({
      name: wait.name,
      waitMs: wait.delayMs,
      arguments: {
        'x-queue-type': 'quorum',
        'x-message-ttl': wait.delayMs,
        'x-dead-letter-exchange': workExchange,
        'x-dead-letter-routing-key': workRoutingKey,
        ...safeDeadLettering,
      },
    })),
  ];
  return {
    workExchange,
    delayExchange,
    deadExchange,
    workQueue,
    deadQueue,
    waitQueues,
    exchanges: [
      { name: workExchange, type: 'direct' },
      { name: delayExchange, type: 'direct' },
      { name: deadExchange, type: 'fanout' },
    ],
    queues,
    bindings: [
      { queue: workQueue, exchange: workExchange, routingKey: workRoutingKey },
      { queue: deadQueue, exchange: deadExchange, routingKey: '' },
      ...waitQueues.map((wait) => ({ queue: wait.name, exchange: delayExchange, routingKey: wait.routingKey })),
    ],
  };
}

/**
 * Where a delay is spent next: the largest bucket not above it, with the rest published again when the
 * job comes out. A rest shorter than the smallest bucket is rounded up to it, so a job is never early and
 * at most one smallest bucket late.
 */
export function planWait(delayMs: number, waitBucketsMs: readonly number[]): { bucketMs: number; remainingMs: number } | undefined {
  if (!(delayMs > 0)) return undefined;
  const ascending = [...waitBucketsMs].sort((a, b) => a - b);
  const fitting = ascending.filter((bucket) => bucket <= delayMs).pop();
  if (fitting === undefined) return { bucketMs: ascending[0], remainingMs: 0 };
  return { bucketMs: fitting, remainingMs: delayMs - fitting };
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
  for (const binding of topology.bindings) await channel.bindQueue(binding.queue, binding.exchange, binding.routingKey);
}

/** Deletes every queue (with its messages) and exchange of the topology; for tests and decommissioning. */
export async function deleteTopology(channel: Channel, topology: RabbitMqTopology): Promise<void> {
  for (const queue of topology.queues) await channel.deleteQueue(queue.name);
  for (const exchange of topology.exchanges) await channel.deleteExchange(exchange.name);
}

function validateTopologyOptions(options: TopologyOptions): void {
  const problems: string[] = [];
  // Dots separate our suffixes; keep names readable in the management UI and safe in policies' regexes.
  if (!/^[A-Za-z0-9_-]{1,100}$/.test(options.prefix)) problems.push(`prefix must be 1-100 letters, digits, '_' or '-' (got ${JSON.stringify(options.prefix)})`);
  if (!Number.isInteger(options.deliveryLimit) || options.deliveryLimit < 0) problems.push(`deliveryLimit must be a non-negative integer (got ${options.deliveryLimit})`);
  if (options.waitBucketsMs.length === 0) problems.push('waitBucketsMs must name at least one bucket');
  for (const bucket of options.waitBucketsMs) {
    if (!Number.isInteger(bucket) || bucket <= 0) problems.push(`waitBucketsMs entries must be positive integers (got ${bucket})`);
  }
  if (new Set(options.waitBucketsMs).size !== options.waitBucketsMs.length) problems.push('waitBucketsMs must not repeat a bucket');
  if (problems.length > 0) throw new Error(`invalid RabbitMQ queue settings: ${problems.join('; ')}`);
}
