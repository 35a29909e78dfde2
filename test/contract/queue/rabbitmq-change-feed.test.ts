/**
 * The RabbitMQ change feed on a real broker: the contract across two connections (a worker's and an API process's),
 * the fanout to every subscribing process, the gap report after a dropped connection, notices held through an
 * outage of the announcer, and messages that name no request.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { RabbitMqChangeFeed, type RabbitMqChangeFeedOptions } from '../../../src/kernel/queue/index.js';
import { forceCloseConnections, rabbitMqUrl, requireRabbitMq, startBrokerProxy, uniquePrefix, withBrokerChannel, type BrokerProxy } from '../../support/rabbitmq.js';
import { describeChangeFeedContract } from './change-feed-contract.js';
import { quietPeriod, waitFor } from './queue-contract.js';

const created: RabbitMqChangeFeed[] = [];
const prefixes = new Set<string>();

async function feed(overrides: Partial<RabbitMqChangeFeedOptions> & { prefix: string }): Promise<RabbitMqChangeFeed> {
  const made = new RabbitMqChangeFeed({ url: rabbitMqUrl, reconnect: { initialMs: 50, maxMs: 400 }, log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), ...overrides });
  created.push(made);
  prefixes.add(overrides.prefix);
  await made.connect();
  return made;
}

/** Closes every feed made, then deletes their exchanges (non-durable ones outlive their connections until a broker restart). */
async function cleanUp(): Promise<void> {
  for (const made of created.splice(0)) await made.close();
  await withBrokerChannel(async (channel) => {
    for (const prefix of prefixes) for (const topic of ['changes', 'cancels']) await channel.deleteExchange(`${prefix}.${topic}`);
  });
  prefixes.clear();
}

describe('RabbitMqChangeFeed', function () {
  before(async function () {
    await requireRabbitMq(this);
  });

  describeChangeFeedContract('RabbitMqChangeFeed', async () => {
    const prefix = uniquePrefix();
    // The subscriber first: a fanout keeps nothing for a queue bound after the publish.
    const subscriber = await feed({ prefix, connectionName: `${prefix} api` });
    const announcer = await feed({ prefix, connectionName: `${prefix} worker` });
    return { announcer, subscriber, cleanup: cleanUp };
  });

  describe('on a real broker', function () {
    const proxies: BrokerProxy[] = [];
    afterEach(async function () {
      await cleanUp();
      for (const proxy of proxies.splice(0)) await proxy.close();
    });

    const listen = async (subscriber: RabbitMqChangeFeed) => {
      const seen = { ids: [] as string[], gaps: 0 };
      await subscriber.subscribe({ changed: (ids) => void seen.ids.push(...ids), missedSome: () => void (seen.gaps += 1) });
      return seen;
    };

    it('fans every notice out to every subscribing process, through the <prefix>.changes exchange', async function () {
      const prefix = uniquePrefix();
      const [first, second] = [await listen(await feed({ prefix })), await listen(await feed({ prefix }))];
      const worker = await feed({ prefix });
      expect(worker.exchange).to.equal(`${prefix}.changes`);
      worker.announce('req_both');
      await waitFor(() => first.ids.length > 0 && second.ids.length > 0, 5_000, 'both subscribers');
      expect([first.ids, second.ids]).to.deep.equal([['req_both'], ['req_both']]);
    });

    it('keeps each topic on its exchange: cancel notices reach only cancel subscribers, state changes only theirs', async function () {
      const prefix = uniquePrefix();
      const [changes, cancels] = [await listen(await feed({ prefix })), await listen(await feed({ prefix, topic: 'cancels' }))];
      const [changeAnnouncer, cancelAnnouncer] = [await feed({ prefix }), await feed({ prefix, topic: 'cancels' })];
      expect(cancelAnnouncer.exchange).to.equal(`${prefix}.cancels`);
      changeAnnouncer.announce('req_changed');
      cancelAnnouncer.announce('req_cancelasked');
      await waitFor(() => changes.ids.length > 0 && cancels.ids.length > 0, 5_000, 'both topics');
      await quietPeriod(100);
      expect([changes.ids, cancels.ids]).to.deep.equal([['req_changed'], ['req_cancelasked']]);
    });

    it('tells the listener it may have missed notices when its connection was dropped, and delivers again after', async function () {
      const prefix = uniquePrefix();
      const seen = await listen(await feed({ prefix, connectionName: `${prefix} dropped-api` }));
      const worker = await feed({ prefix, connectionName: `${prefix} worker` });
      expect(await forceCloseConnections(`${prefix} dropped-api`)).to.equal(1);
      await waitFor(() => seen.gaps === 1, 10_000, 'the gap report after the reconnect');
      worker.announce('req_afterdrop');
      await waitFor(() => seen.ids.includes('req_afterdrop'), 5_000, 'the notice after the reconnect');
    });

    it('holds what is announced while its own connection is down and sends it once the connection is back', async function () {
      const prefix = uniquePrefix();
      const seen = await listen(await feed({ prefix }));
      const proxy = await startBrokerProxy();
      proxies.push(proxy);
      const worker = await feed({ prefix, url: proxy.url });
      proxy.setOutage(true);
      proxy.dropConnections();
      await quietPeriod(100);
      worker.announce('req_duringoutage');
      await quietPeriod(300);
      expect(seen.ids).to.deep.equal([]);
      proxy.setOutage(false);
      await waitFor(() => seen.ids.includes('req_duringoutage'), 10_000, 'the held notice');
      expect(seen.gaps).to.equal(0);
    });

    it('ignores a message that names no request', async function () {
      const prefix = uniquePrefix();
      const seen = await listen(await feed({ prefix }));
      await withBrokerChannel(async (channel) => {
        channel.publish(`${prefix}.changes`, '', Buffer.from('not json'));
        channel.publish(`${prefix}.changes`, '', Buffer.from(JSON.stringify({ requestId: 'req_x' })));
        channel.publish(`${prefix}.changes`, '', Buffer.from(JSON.stringify(['DROP TABLE', 42, 'req_bad_id', 'req_ok'])));
        // Closing the channel waits for the broker to have taken the publishes.
        await channel.close();
      });
      await waitFor(() => seen.ids.length > 0, 5_000, 'the one valid id');
      await quietPeriod(100);
      expect(seen.ids).to.deep.equal(['req_ok']);
    });
  });
});
