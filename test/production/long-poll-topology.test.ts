/**
 * Long polls and event streams on the production topology: API processes and a worker process apart, on MariaDB and
 * RabbitMQ. The waiters of an API process wake from its one change feed (the `<prefix>.changes` fanout), fed by the
 * worker's transitions and by the other API process's cancels. The periodic re-check is set to a minute here, far
 * beyond every bound below, so each wake-up these tests see came from a notice, or from the re-read an API process
 * makes when its feed reconnects after it may have missed some.
 */
import { expect } from 'chai';
import { openEventStream } from '../support/event-stream.js';
import { api, ProcessTopology, type ManagedProcess } from '../support/process-topology.js';
import { startBrokerProxy, type BrokerProxy } from '../support/rabbitmq.js';

describe('long polls and event streams on the production topology', function () {
  this.timeout(180_000);
  let topology: ProcessTopology;
  let apis: ManagedProcess[];
  let key: string;
  const proxies: BrokerProxy[] = [];

  before(async function () {
    topology = await ProcessTopology.create(this, { MEDIAGATE_WATCHES_RECHECK_INTERVAL_MS: '60000' });
    apis = [await topology.start('api'), await topology.start('api')];
    await topology.start('worker');
    key = await topology.createKey(100_000);
  });
  after(async () => {
    await topology?.stop();
    for (const proxy of proxies) await proxy.close();
  });

  const create = async (base: string, input: Record<string, unknown>, operation = 'test.echo') => {
    const created = await api(base, key, 'POST', '/api/v1/requests', { operation, input });
    expect(created.status).to.equal(202);
    return created.body.id as string;
  };
  const longPoll = async (base: string, id: string, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}/api/v1/requests/${id}`, { headers: { 'x-api-key': key, prefer: 'wait=60', ...headers } });
    return { status: response.status, headers: response.headers, body: response.status === 200 ? await response.json() : undefined, at: Date.now() };
  };

  it('answers a long poll on an API process the moment the worker process finishes the request', async () => {
    const id = await create(apis[0].url, { message: 'across processes', script: { start_delay_ms: 1_500 } });
    const began = performance.now();
    const answer = await longPoll(apis[1].url, id);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('preference-applied')).to.equal('wait=60');
    expect(answer.body).to.include({ id, status: 'succeeded' });
    expect(performance.now() - began).to.be.within(1_000, 20_000);
    // Observed a moment after the worker's commit, not at a re-check a minute away.
    expect(answer.at - answer.body.completedAtMs).to.be.below(5_000);
  });

  it('streams the worker\'s states to a client of an API process, and another API process\'s cancel ends it', async () => {
    const id = await create(apis[0].url, { message: 'cancel me', script: { pending: 1_000_000 } }, 'test.slow');
    const stream = await openEventStream(`${apis[1].url}/api/v1/requests/${id}/events`, { 'x-api-key': key });
    try {
      await stream.waitForEvent((event) => JSON.parse(event.data).output.progress !== undefined, 20_000);
      let cancelled;
      do cancelled = await api(apis[0].url, key, 'POST', `/api/v1/requests/${id}/cancel`);
      while (cancelled.status === 409 && cancelled.body.code === 'MG_REQUEST_BUSY');
      expect(cancelled.body).to.include({ status: 'failed' });
      await stream.ended;
      const last = JSON.parse(stream.events.at(-1)!.data);
      expect(last).to.include({ id, status: 'failed', errorMessage: 'the request was cancelled by the client' });
      expect(last.credits).to.deep.include({ charged: 7, refunded: 7, net: 0 });
    } finally {
      stream.close();
    }
  });

  it('wakes the waiters of an API process that was cut off from RabbitMQ while the request finished, once its feed is back', async () => {
    const proxy = await startBrokerProxy();
    proxies.push(proxy);
    const cutOff = await topology.start('api', undefined, { MEDIAGATE_AMQP_URL: `${proxy.url}?heartbeat=5` });
    const id = await create(apis[0].url, { message: 'finished unseen', script: { start_delay_ms: 2_500 } });
    let answered = false;
    const held = longPoll(cutOff.url, id).then((answer) => ((answered = true), answer));
    await new Promise((resolve) => setTimeout(resolve, 300));
    proxy.setOutage(true);
    proxy.dropConnections();
    // The worker finishes during the outage: its notice reaches the exchange, but the cut-off process has no queue on it.
    for (let row = await topology.requestRow(id); row.status !== 'succeeded'; row = await topology.requestRow(id)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(answered, 'answered before the feed came back').to.equal(false);
    const restoredAt = Date.now();
    proxy.setOutage(false);
    const answer = await held;
    expect(answer.status).to.equal(200);
    expect(answer.body).to.include({ id, status: 'succeeded' });
    // The feed's reconnect backoff, not the minute-long re-check.
    expect(answer.at - restoredAt).to.be.below(45_000);
  });
});
