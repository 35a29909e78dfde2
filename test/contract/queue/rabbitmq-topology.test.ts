/**
 * The RabbitMQ topology as data, without a broker: bucket planning, backoff bounds, settings checked at
 * construction, and docs/rabbitmq.md agreeing with the declared topology both ways.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { RabbitMqQueue, reconnectDelay } from '../../../src/kernel/queue/rabbitmq-queue.js';
import { defaultDelayLevels, defaultDelayRadix, defaultDelayResolutionMs, describeTopology, digitPattern, planDelay } from '../../../src/kernel/queue/rabbitmq-topology.js';

describe('RabbitMQ topology', function () {
  describe('planDelay', function () {
    // In binary, 100 ms resolution over 5 levels: level k waits 100·2^k ms, 3.1 s in one pass through all of them.
    const binary = describeTopology({ prefix: 'p', deliveryLimit: 5, delayResolutionMs: 100, delayRadix: 2, delayLevels: 5 });
    // The default: base 16 over 4 levels of 250 ms units, 4.55 h in one pass.
    const hex = describeTopology({ prefix: 'p', deliveryLimit: 5 });

    it('sends an undelayed job straight to its queue', function () {
      expect(planDelay(0, 'work', binary)).to.equal(undefined);
      expect(planDelay(-5, 'poll', hex)).to.equal(undefined);
    });

    it('spells the delay in its radix, highest digit first, then the destination, and enters at the highest non-zero digit', function () {
      // 1300 ms = 13 units = 01101: the queues of levels 3, 2 and 0 hold it (800 + 400 + 100 ms); levels 4 and 1 let it pass.
      expect(planDelay(1_300, 'poll', binary)).to.deep.equal({ exchange: 'p.delay.3', routingKey: '0.1.1.0.1.poll', remainingMs: 0 });
      expect(planDelay(100, 'work', binary)).to.deep.equal({ exchange: 'p.delay.0', routingKey: '0.0.0.0.1.work', remainingMs: 0 });
      // A 30 s poll = 120 units = 0x78: two waits, 7 x 16 x 250 ms at level 1 and 8 x 250 ms at level 0.
      expect(planDelay(30_000, 'poll', hex)).to.deep.equal({ exchange: 'p.delay.1', routingKey: '0.0.7.8.poll', remainingMs: 0 });
      expect(planDelay(15 * 60_000, 'work', hex)).to.deep.equal({ exchange: 'p.delay.2', routingKey: '0.e.1.0.work', remainingMs: 0 });
    });

    it('rounds up to the resolution, never down, so a job is never early and at most one resolution late', function () {
      expect(planDelay(1, 'work', binary)?.routingKey).to.equal('0.0.0.0.1.work');
      expect(planDelay(1_301, 'work', binary)?.routingKey).to.equal('0.1.1.1.0.work');
      expect(planDelay(1_399, 'work', binary)?.routingKey).to.equal('0.1.1.1.0.work');
      expect(planDelay(29_751, 'poll', hex)?.routingKey).to.equal('0.0.7.8.poll');
    });

    it('holds what all levels hold together and carries the rest, for another pass', function () {
      expect(planDelay(3_100, 'work', binary)).to.deep.equal({ exchange: 'p.delay.4', routingKey: '1.1.1.1.1.work', remainingMs: 0 });
      expect(planDelay(7_000, 'poll', binary)).to.deep.equal({ exchange: 'p.delay.4', routingKey: '1.1.1.1.1.poll', remainingMs: 3_900 });
      expect(planDelay(5 * 3_600_000, 'poll', hex)).to.deep.equal({ exchange: 'p.delay.3', routingKey: 'f.f.f.f.poll', remainingMs: 5 * 3_600_000 - 65_535 * 250 });
    });

    it('waits in one queue per non-zero digit, each as long as its digit and level say', function () {
      const waits = Object.fromEntries(hex.delayLevels.flatMap((level) => level.waits.map((wait) => [wait.queue, wait.delayMs])));
      expect(Object.keys(waits)).to.have.length(4 * 15);
      expect([waits['p.delay.0.1'], waits['p.delay.0.f'], waits['p.delay.1.7'], waits['p.delay.3.f']]).to.deep.equal([250, 15 * 250, 7 * 16 * 250, 15 * 4096 * 250]);
    });

    it('routes each level by its own digit: the patterns of every level match exactly the keys with that digit', function () {
      const matches = (pattern: string, key: string): boolean => new RegExp(`^${pattern.replace(/\./g, '\\.').replace(/\*/g, '[0-9a-f]').replace(/\\\.#$/, '\\..+')}$`).test(key);
      for (const level of [0, 2, 3]) {
        for (const units of [1, 6, 120, 4_095, 65_535]) {
          const key = planDelay(units * 250, 'work', hex)!.routingKey;
          const digit = Math.floor(units / 16 ** level) % 16;
          for (let candidate = 0; candidate < 16; candidate += 1) {
            expect(matches(digitPattern(level, 4, candidate.toString(16)), key), `level ${level}, digit ${candidate}, ${key}`).to.equal(candidate === digit);
          }
        }
      }
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
      () => new RabbitMqQueue({ url: 'amqp://127.0.0.1', prefix: 'bad prefix!', deliveryLimit: -1, delayResolutionMs: 0.5, delayRadix: 17 }),
    ).to.throw(
      'invalid RabbitMQ queue settings: prefix must be 1-100 letters, digits, \'_\' or \'-\' (got "bad prefix!"); deliveryLimit must be a non-negative integer (got -1); ' +
        'delayResolutionMs must be a positive integer (got 0.5); delayRadix must be an integer from 2 to 16 (got 17)',
    );
    expect(() => new RabbitMqQueue({ url: 'amqp://127.0.0.1', prefix: 'ok', delayLevels: 8 })).to.throw(
      'invalid RabbitMQ queue settings: delayLevels must be an integer from 1 up to where the longest wait, resolution·(radix-1)·radix^(levels-1), stays below 2^32 ms (got 8)',
    );
    expect(() => new RabbitMqQueue({ url: 'amqp://127.0.0.1', prefix: 'ok', reconnect: { initialMs: 500, maxMs: 100 }, publishTimeoutMs: 0 })).to.throw(
      'invalid RabbitMQ queue settings: reconnect needs 0 < initialMs <= maxMs; publishTimeoutMs must be positive',
    );
  });

  describe('docs/rabbitmq.md', function () {
    const doc = readFileSync(new URL('../../../docs/rabbitmq.md', import.meta.url), 'utf8');
    const topology = describeTopology({ prefix: 'mediagate', deliveryLimit: 5 });
    // The levels and their digits are one row each in the doc, written for level <k> and digit <d>.
    const pattern = (name: string): string => name.replace(/^mediagate\./, '<prefix>.').replace(/\.delay\.\d+\.[0-9a-f]$/, '.delay.<k>.<d>').replace(/\.delay\.\d+$/, '.delay.<k>');
    // Where a level sends a job on: the level below, or the due exchange after level 0; one row in the doc.
    const below = '<prefix>.delay.<k-1>, after level 0 <prefix>.due';
    const unique = (rows: string[]): string[] => [...new Set(rows)].sort();

    it('lists every exchange with its type, and no other', function () {
      const documented = tableRows(doc, '## Exchanges').map(([name, type]) => `${name} ${type}`);
      expect(unique(documented)).to.deep.equal(unique(topology.exchanges.map((exchange) => `${pattern(exchange.name)} ${exchange.type}`)));
    });

    it('lists every queue argument with its value, and no other', function () {
      const documented = tableRows(doc, '## Queues and their arguments').map(([queue, argument, value]) => `${queue} ${argument} ${value}`);
      const declared = topology.queues.flatMap((queue) =>
        Object.entries(queue.arguments).map(([argument, value]) => {
          const level = /\.delay\.\d+\.[0-9a-f]$/.test(queue.name);
          const shown =
            argument === 'x-message-ttl' ? 'delayResolutionMs·d·delayRadix^k'
            : argument === 'x-delivery-limit' ? 'deliveryLimit (default 5)'
            : argument === 'x-dead-letter-exchange' && level ? below
            : pattern(String(value));
          return `${pattern(queue.name)} ${argument} ${shown}`;
        }),
      );
      expect(unique(documented)).to.deep.equal(unique(declared));
    });

    it('lists every binding, and no other', function () {
      const documented = tableRows(doc, '### Bindings').map(([exchange, key, target]) => `${exchange} ${key} ${target}`);
      const declared = topology.bindings.map((binding) => {
        const digit = /^(\*\.)*([0-9a-f])\.#$/.exec(binding.routingKey)?.[2];
        const key = binding.routingKey === '' ? '(none, fanout)' : digit === undefined ? binding.routingKey : digit === '0' ? 'digit k is 0' : 'digit k is d > 0';
        const target = binding.toExchange !== undefined ? `exchange ${below}` : `queue ${pattern(binding.queue)}`;
        return `${pattern(binding.exchange)} ${key} ${target}`;
      });
      expect(unique(documented)).to.deep.equal(unique(declared));
    });

    it('states the default delay resolution, radix and levels', function () {
      expect(doc).to.include(`| \`delayResolutionMs\` | ${defaultDelayResolutionMs} |`);
      expect(doc).to.include(`| \`delayRadix\` | ${defaultDelayRadix} |`);
      expect(doc).to.include(`| \`delayLevels\` | ${defaultDelayLevels} |`);
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
