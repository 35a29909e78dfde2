/**
 * The RabbitMQ topology as data, without a broker: bucket planning, backoff bounds, settings checked at
 * construction, and docs/rabbitmq.md agreeing with the declared topology both ways.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { RabbitMqQueue, reconnectDelay } from '../../../src/kernel/queue/rabbitmq-queue.js';
import { defaultWaitBucketsMs, describeTopology, planWait } from '../../../src/kernel/queue/rabbitmq-topology.js';

describe('RabbitMQ topology', function () {
  describe('planWait', function () {
    const buckets = defaultWaitBucketsMs;

    it('sends an undelayed job straight to work', function () {
      expect(planWait(0, buckets)).to.equal(undefined);
      expect(planWait(-5, buckets)).to.equal(undefined);
    });

    it('spends a delay in the largest bucket not above it and carries the rest', function () {
      expect(planWait(1_000, buckets)).to.deep.equal({ bucketMs: 1_000, remainingMs: 0 });
      expect(planWait(20_000, buckets)).to.deep.equal({ bucketMs: 15_000, remainingMs: 5_000 });
      expect(planWait(2_500, buckets)).to.deep.equal({ bucketMs: 1_000, remainingMs: 1_500 });
      expect(planWait(3_600_000, buckets)).to.deep.equal({ bucketMs: 900_000, remainingMs: 2_700_000 });
    });

    it('rounds a delay below the smallest bucket up to it, never down', function () {
      expect(planWait(1, buckets)).to.deep.equal({ bucketMs: 1_000, remainingMs: 0 });
      expect(planWait(999, buckets)).to.deep.equal({ bucketMs: 1_000, remainingMs: 0 });
    });

    it('adds up, hop by hop, to the delay asked for, late by less than the smallest bucket', function () {
      const hops: number[] = [];
      for (let plan = planWait(23_700, buckets); plan; plan = planWait(plan.remainingMs, buckets)) hops.push(plan.bucketMs);
      // 15 + 5 + 1 + 1 + 1 = 23 s, and the last 700 ms round up to one more 1 s bucket: 24 s.
      expect(hops).to.deep.equal([15_000, 5_000, 1_000, 1_000, 1_000, 1_000]);
    });
  });

  describe('reconnectDelay', function () {
    const backoff = { initialMs: 250, maxMs: 30_000 };

    it('doubles from initialMs with jitter between half and all of the step', function () {
      expect([1, 2, 3].map((attempt) => reconnectDelay(attempt, backoff, () => 0))).to.deep.equal([125, 250, 500]);
      expect([1, 2, 3].map((attempt) => reconnectDelay(attempt, backoff, () => 1))).to.deep.equal([250, 500, 1_000]);
    });

    it('never exceeds maxMs however many attempts failed', function () {
      expect(reconnectDelay(50, backoff, () => 1)).to.equal(30_000);
      expect(reconnectDelay(5_000, backoff, () => 0)).to.equal(15_000);
    });
  });

  it('rejects bad settings at construction, naming each', function () {
    expect(
      () => new RabbitMqQueue({ url: 'amqp://127.0.0.1', prefix: 'bad prefix!', deliveryLimit: -1, waitBucketsMs: [1_000, 1_000, 0] }),
    ).to.throw(
      'invalid RabbitMQ queue settings: prefix must be 1-100 letters, digits, \'_\' or \'-\' (got "bad prefix!"); deliveryLimit must be a non-negative integer (got -1); ' +
        'waitBucketsMs entries must be positive integers (got 0); waitBucketsMs must not repeat a bucket',
    );
    expect(() => new RabbitMqQueue({ url: 'amqp://127.0.0.1', prefix: 'ok', reconnect: { initialMs: 500, maxMs: 100 }, publishTimeoutMs: 0 })).to.throw(
      'invalid RabbitMQ queue settings: reconnect needs 0 < initialMs <= maxMs; publishTimeoutMs must be positive',
    );
  });

  describe('docs/rabbitmq.md', function () {
    const doc = readFileSync(new URL('../../../docs/rabbitmq.md', import.meta.url), 'utf8');
    const topology = describeTopology({ prefix: 'mediagate', deliveryLimit: 5, waitBucketsMs: defaultWaitBucketsMs });
    const pattern = (name: string): string => name.replace(/^mediagate\./, '<prefix>.').replace(/\.wait\.\d+ms$/, '.wait.<ms>ms');
    const unique = (rows: string[]): string[] => [...new Set(rows)].sort();

    it('lists every exchange with its type, and no other', function () {
      const documented = tableRows(doc, '## Exchanges').map(([name, type]) => `${name} ${type}`);
      expect(unique(documented)).to.deep.equal(unique(topology.exchanges.map((exchange) => `${pattern(exchange.name)} ${exchange.type}`)));
    });

    it('lists every queue argument with its value, and no other', function () {
      const documented = tableRows(doc, '## Queues and their arguments').map(([queue, argument, value]) => `${queue} ${argument} ${value}`);
      const declared = topology.queues.flatMap((queue) =>
        Object.entries(queue.arguments).map(([argument, value]) => {
          const shown = argument === 'x-message-ttl' ? '<ms>' : argument === 'x-delivery-limit' ? 'deliveryLimit (default 5)' : pattern(String(value));
          return `${pattern(queue.name)} ${argument} ${shown}`;
        }),
      );
      expect(unique(documented)).to.deep.equal(unique(declared));
    });

    it('lists every binding, and no other', function () {
      const documented = tableRows(doc, '### Bindings').map(([exchange, key, queue]) => `${exchange} ${key} ${queue}`);
      const declared = topology.bindings.map(
        (binding) => `${pattern(binding.exchange)} ${binding.routingKey === '' ? '(none, fanout)' : binding.routingKey.replace(/^\d+$/, '<ms>')} ${pattern(binding.queue)}`,
      );
      expect(unique(documented)).to.deep.equal(unique(declared));
    });

    it('states the default wait buckets', function () {
      expect(doc).to.include(`| \`waitBucketsMs\` | ${defaultWaitBucketsMs.join(', ')} |`);
    });
  });
});

/** Body rows of the first table after `heading`, cells trimmed and stripped of backticks. */
function tableRows(markdown: string, heading: string): string[][] {
  const start = markdown.indexOf(`${heading}\n`);
  if (start < 0) throw new Error(`docs/rabbitmq.md has no "${heading}" section`);
  const lines = markdown.slice(start).split('\n').slice(1);
  const first = lines.findIndex((line) => line.startsWith('|'));
  const table: string[] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith('|')) break;
    table.push(line);
  }
  return table.slice(2).map((line) =>
    line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim().replace(/`/g, '')),
  );
}
