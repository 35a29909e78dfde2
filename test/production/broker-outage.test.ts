/**
 * RabbitMQ down: a create is answered at once (the committed request row is the outbox) and the sweeper
 * hands the request to the broker when it is back. The broker is "down" behind a TCP proxy this test
 * controls, so the machine's RabbitMQ keeps serving everyone else.
 */
import { expect } from 'chai';
import { RabbitMqQueue } from '../../src/kernel/queue/index.js';
import { withFixtures } from '../support/fixtures.js';
import { rabbitMqUrl, requireRabbitMq, startBrokerProxy, uniquePrefix, type BrokerProxy } from '../support/rabbitmq.js';
import { pollUntilTerminal, startTestService, type TestService } from '../support/test-service.js';
import { waitFor } from '../contract/queue/queue-contract.js';

/** The bound a create must be answered within while the broker is down (today: ~10 s). */
const createBoundMs = 2_000;

describe('a create while RabbitMQ is down', function () {
  this.timeout(60_000);
  let proxy: BrokerProxy;
  let service: TestService;
  const prefix = uniquePrefix();

  before(async function () {
    await requireRabbitMq(this);
    proxy = await startBrokerProxy();
    service = await startTestService({ ...withFixtures, queue: { url: proxy.url, prefix }, worker: { sweep_interval_ms: 200, requeue_after_ms: 500 } });
  });
  after(async () => {
    proxy?.setOutage(false);
    await service?.stop();
    await proxy?.close();
    const teardown = new RabbitMqQueue({ url: rabbitMqUrl, prefix });
    await teardown.destroyTopology().catch(() => undefined);
  });

  it('answers 202 within the bound, charges once, and the sweeper publishes the request when the broker is back', async () => {
    const { key, accountId } = await service.createKey({ credits: 10 });
    const queue = service.service.gateway.queue as RabbitMqQueue;
    proxy.setOutage(true);
    await waitFor(() => !queue.connected, 5_000, 'the gateway to notice the outage');

    // The first create comes right after the drop (a blip the publish may wait out, up to publish_timeout_ms);
    // the second comes once the outage is known, when nothing should wait at all.
    const first = await timedCreate('first');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const second = await timedCreate('second');
    console.log(`      create latency with the broker down: ${first.ms} ms right after the drop, ${second.ms} ms once it is known`);
    for (const created of [first, second]) {
      expect(created.response.status).to.equal(202);
      expect(created.response.body).to.deep.equal({
        id: created.response.body.id,
        status: 'queued',
        operation: 'test.echo',
        poll_after_ms: 20,
        urls: { get: `${service.url}/api/v1/requests/${created.response.body.id}` },
      });
      expect(created.ms).to.be.below(createBoundMs);
    }
    expect((await service.service.gateway.accounts.getAccount(accountId))!.creditsBalance).to.equal(6);
    for (const created of [first, second]) {
      expect((await service.service.gateway.requests.get(created.response.body.id))!.status).to.equal('queued');
    }

    proxy.setOutage(false);
    for (const created of [first, second]) {
      const done = await pollUntilTerminal(service, key, created.response.body.id, 30_000);
      expect(done.status).to.equal('succeeded');
      expect(done.output.echo).to.equal(created.message);
    }
    expect((await service.service.gateway.accounts.getAccount(accountId))!.creditsBalance).to.equal(6);
    expect(await service.service.gateway.accounts.ledgerTotal(accountId)).to.equal(6);

    async function timedCreate(message: string) {
      const startedAt = Date.now();
      const response = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message } } });
      return { message, response, ms: Date.now() - startedAt };
    }
  });
});
