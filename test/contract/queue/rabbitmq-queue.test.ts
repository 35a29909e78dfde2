import { expect } from 'chai';
import { pino, type Logger } from 'pino';
import { amqpSocketOf, isCoalescingWrites } from '../../../src/kernel/queue/coalesced-writes.js';
import { maxJobsPerMessage } from '../../../src/kernel/queue/job-messages.js';
import type { RabbitMqConnection } from '../../../src/kernel/queue/rabbitmq-connection.js';
import { RabbitMqQueue, type RabbitMqQueueOptions } from '../../../src/kernel/queue/rabbitmq-queue.js';
import type { KnownRow } from '../../../src/kernel/store/known-rows.js';
import { countSocketWrites } from '../../support/socket-writes.js';
import { forceCloseConnections, messageCounts, rabbitMqUrl, requireRabbitMq, startBrokerProxy, uniquePrefix, withBrokerChannel, type BrokerProxy } from '../../support/rabbitmq.js';
import { describeQueueContract, quietPeriod, waitFor } from './queue-contract.js';

/** A fine, short countdown keeps the suite fast: 50 ms units in base 4 over 3 levels, up to 3.15 s in one pass. */
const testDelays = { delayResolutionMs: 50, delayRadix: 4, delayLevels: 3 };

function queueOptions(overrides: Partial<RabbitMqQueueOptions> = {}): RabbitMqQueueOptions {
  return {
    url: rabbitMqUrl,
    prefix: uniquePrefix(),
    deliveryLimit: 3,
    ...testDelays,
    reconnect: { initialMs: 50, maxMs: 400 },
    publishTimeoutMs: 5_000,
    redeliveryDelayMs: 20,
    log: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    ...overrides,
  };
}

/** A logger that keeps its lines, to assert what the adapter reported. */
function recordingLog(): { log: Logger; messages: () => string[] } {
  const lines: { msg: string }[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, messages: () => lines.map((line) => line.msg) };
}

describe('RabbitMqQueue', function () {
  before(async function () {
    await requireRabbitMq(this);
  });

  describeQueueContract('RabbitMqQueue', async () => {
    const queue = new RabbitMqQueue(queueOptions());
    await queue.connect();
    return { queue, cleanup: () => queue.destroyTopology() };
  });

  describe('on a real broker', function () {
    const created: RabbitMqQueue[] = [];
    const proxies: BrokerProxy[] = [];
    function make(overrides: Partial<RabbitMqQueueOptions> = {}): RabbitMqQueue {
      const queue = new RabbitMqQueue(queueOptions(overrides));
      created.push(queue);
      return queue;
    }

    afterEach(async function () {
      for (const proxy of proxies) proxy.setOutage(false);
      for (const queue of created.splice(0)) await queue.destroyTopology();
      for (const proxy of proxies.splice(0)) await proxy.close();
    });

    it('resolves publish once the broker holds the job: persistent JSON {requestId} in the work queue', async function () {
      const queue = make();
      await queue.publish({ requestId: 'req_confirmed' });

      const message = await withBrokerChannel((channel) => channel.get(queue.topology.workQueue, { noAck: true }));
      if (!message) throw new Error('the confirmed job is not in the work queue');
      expect(JSON.parse(message.content.toString())).to.deep.equal({ requestId: 'req_confirmed' });
      expect(message.properties.deliveryMode).to.equal(2);
      expect(message.properties.contentType).to.equal('application/json');
    });

    it('parks a delayed job in the wait queue of its highest digit, the delay spelled in its routing key', async function () {
      const prefix = uniquePrefix();
      const queue = make({ prefix });
      // 1300 ms = 26 units of 50 ms = 122 in base 4: level 2, digit 1 (800 ms) first. 1210 ms rounds up to 25 units = 121.
      await queue.publish({ requestId: 'req_start' }, { delayMs: 1_300 });
      await queue.publish({ requestId: 'req_poll', poll: 2 }, { delayMs: 1_210 });
      // Past the 3.15 s the levels hold together (333): all of it now, the rest in a header.
      await queue.publish({ requestId: 'req_long', poll: 0 }, { delayMs: 5_000 });

      const parked = await withBrokerChannel(async (channel) => {
        const found: Record<string, unknown> = {};
        for (const wait of ['2.1', '2.3']) {
          const name = `${prefix}.delay.${wait}`;
          for (let message = await channel.get(name, { noAck: true }); message; message = await channel.get(name, { noAck: true })) {
            found[JSON.parse(message.content.toString()).requestId] = { wait, key: message.fields.routingKey, body: JSON.parse(message.content.toString()), remaining: message.properties.headers?.['mediagate-remaining-ms'] };
          }
        }
        return found;
      });
      expect(parked).to.deep.equal({
        req_start: { wait: '2.1', key: '1.2.2.work', body: { requestId: 'req_start' }, remaining: undefined },
        req_poll: { wait: '2.1', key: '1.2.1.poll', body: { requestId: 'req_poll', poll: 2 }, remaining: undefined },
        req_long: { wait: '2.3', key: '3.3.3.poll', body: { requestId: 'req_long', poll: 0 }, remaining: 1_850 },
      });
    });

    it('counts a delay down through the levels inside the broker and delivers polls from the poll queue', async function () {
      const queue = make();
      const received: { job: unknown; atMs: number }[] = [];
      await queue.consume(async (job) => void received.push({ job, atMs: Date.now() }), { concurrency: 1, pollConcurrency: 1 });
      const publishedAt = Date.now();
      // 1550 ms = 31 units = 133 in base 4: three waits, then the poll queue; 4000 ms takes a second pass for 850 ms.
      // A poll carries its due time through the broker (for the poll-lateness metric); its in-process row does not go.
      // A start carries its admitted row (queue-port.ts), through the delay levels too.
      await queue.publish({ requestId: 'req_five_levels', poll: 4, dueAtMs: publishedAt + 1_550, known: '{"id":"req_five_levels"}' as KnownRow }, { delayMs: 1_550 });
      await queue.publish({ requestId: 'req_two_passes', known: '{"id":"req_two_passes","input":{"prompt":"\\"ü\\""}}' as KnownRow }, { delayMs: 4_000 });

      await waitFor(() => received.length === 2, 10_000, 'both delayed jobs');
      expect(received.map((arrival) => arrival.job)).to.deep.equal([
        { requestId: 'req_five_levels', poll: 4, dueAtMs: publishedAt + 1_550 },
        { requestId: 'req_two_passes', known: '{"id":"req_two_passes","input":{"prompt":"\\"ü\\""}}' },
      ]);
      const waited = received.map((arrival) => arrival.atMs - publishedAt);
      expect(waited[0]).to.be.within(1_550 - 20, 1_550 + 1_000);
      expect(waited[1]).to.be.within(4_000 - 20, 4_000 + 1_500);
      expect(await queue.waiting()).to.equal(0);
    });

    it('sends the publishes of one turn and the acks of one turn to the broker as one socket write each', async function () {
      const queue = make();
      await queue.connect();
      const model = (queue as unknown as { connection: RabbitMqConnection }).connection.session?.connection;
      const socket = model && amqpSocketOf(model);
      if (!socket) throw new Error('the queue has no amqplib socket to look at');
      expect(isCoalescingWrites(socket)).to.equal(true);
      const writes = countSocketWrites(socket);

      const published = Array.from({ length: 20 }, (_, i) => queue.publish({ requestId: `req_turn_${i}` }));
      await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setImmediate(resolve));
      // amqplib writes each publish as a frame of its own: 20 writes without the coalescing, one with it.
      expect(writes.calls()).to.be.at.most(2);
      await Promise.all(published);

      const handled: string[] = [];
      const before = writes.calls();
      await queue.consume(async (job) => void handled.push(job.requestId), { concurrency: 20, pollConcurrency: 1 });
      await waitFor(() => handled.length === 20, 5_000, 'the 20 jobs');
      await queue.close();
      // The consume set-up and the close (a few frames each, every one waiting for its reply) and 20 acks: 20 writes
      // for the acks alone without the coalescing; with it, the acks of the jobs delivered in one turn share one.
      expect(writes.calls() - before).to.be.below(20);
      expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 0 });
    });

    describe('held polls (holdPollsUpToMs)', () => {
      const waitQueues = (queue: RabbitMqQueue) => queue.topology.delayLevels.flatMap((level) => level.waits.map((wait) => wait.queue));

      it('keeps a delayed poll in the consuming process and runs it there when due, sending nothing to the broker', async function () {
        const outcomes: string[] = [];
        const queue = make({ holdPollsUpToMs: 2_000, onPublish: (outcome) => outcomes.push(outcome) });
        const received: { job: unknown; atMs: number }[] = [];
        await queue.consume(async (job) => void received.push({ job, atMs: Date.now() }), { concurrency: 1, pollConcurrency: 2 });
        const publishedAt = Date.now();
        await queue.publish({ requestId: 'req_held', poll: 3 }, { delayMs: 600 });
        // Nothing waits in the broker while the poll is held.
        const parked = await messageCounts([...waitQueues(queue), queue.topology.pollQueue]);
        expect(Object.values(parked).reduce((sum, count) => sum + count, 0)).to.equal(0);

        await waitFor(() => received.length === 1, 5_000, 'the held poll');
        expect(received[0].job).to.deep.equal({ requestId: 'req_held', poll: 3 });
        expect(received[0].atMs - publishedAt).to.be.within(600 - 5, 600 + 500);
        expect(outcomes).to.deep.equal([]);
      });

      it('sends starts, polls due later than the limit and polls of a process that does not consume through the broker', async function () {
        const outcomes: string[] = [];
        const consuming = make({ holdPollsUpToMs: 500, onPublish: (outcome) => outcomes.push(outcome) });
        const received: unknown[] = [];
        await consuming.consume(async (job) => void received.push(job), { concurrency: 1, pollConcurrency: 1 });
        await consuming.publish({ requestId: 'req_start_later' }, { delayMs: 200 });
        await consuming.publish({ requestId: 'req_poll_far', poll: 1 }, { delayMs: 800 });
        await consuming.publish({ requestId: 'req_poll_now', poll: 2 });
        expect(outcomes).to.deep.equal(['confirmed', 'confirmed', 'confirmed']);
        await waitFor(() => received.length === 3, 5_000, 'the three jobs through the broker');

        const publishing = make({ holdPollsUpToMs: 500 });
        await publishing.publish({ requestId: 'req_not_consuming', poll: 0 }, { delayMs: 100 });
        const parked = await messageCounts(waitQueues(publishing));
        expect(Object.values(parked).reduce((sum, count) => sum + count, 0)).to.equal(1);
      });

      it('hands held polls back to the broker on close, with the delay they still had, for another worker to run', async function () {
        const prefix = uniquePrefix();
        const stopping = make({ prefix, holdPollsUpToMs: 5_000 });
        await stopping.consume(async () => {
          throw new Error('this worker never runs it');
        }, { concurrency: 1, pollConcurrency: 1 });
        const publishedAt = Date.now();
        await stopping.publish({ requestId: 'req_handed_back', poll: 7 }, { delayMs: 1_500 });
        await stopping.close();

        const received: { job: unknown; atMs: number }[] = [];
        const taking = make({ prefix, holdPollsUpToMs: 5_000 });
        await taking.consume(async (job) => void received.push({ job, atMs: Date.now() }), { concurrency: 1, pollConcurrency: 1 });
        await waitFor(() => received.length === 1, 8_000, 'the handed-back poll');
        expect(received[0].job).to.deep.equal({ requestId: 'req_handed_back', poll: 7 });
        // Never early; late by at most the countdown's rounding and the hops.
        expect(received[0].atMs - publishedAt).to.be.within(1_500 - 5, 1_500 + 1_000);
      });

      it('hands a held poll that failed to the broker, whose delivery limit then counts it', async function () {
        const deadLetters: string[] = [];
        const queue = make({ holdPollsUpToMs: 2_000, deliveryLimit: 1, onDeadLetter: async (requestId) => void deadLetters.push(requestId) });
        let attempts = 0;
        await queue.consume(async () => {
          attempts += 1;
          throw new Error('vendor answer unreadable');
        }, { concurrency: 1, pollConcurrency: 1 });
        await queue.publish({ requestId: 'req_failing_poll', poll: 1 }, { delayMs: 100 });

        await waitFor(() => deadLetters.length === 1, 10_000, 'the failing poll to be dead-lettered');
        // Once held, then the broker's delivery and its one redelivery.
        expect(attempts).to.equal(3);
        expect(deadLetters).to.deep.equal(['req_failing_poll']);
      });
    });

    describe('the starts of one turn in one message', () => {
      /** Every message in `queueName`, taken off it: their bodies. */
      async function drain(queueName: string): Promise<unknown[]> {
        return withBrokerChannel(async (channel) => {
          const bodies: unknown[] = [];
          for (let message = await channel.get(queueName, { noAck: true }); message; message = await channel.get(queueName, { noAck: true })) bodies.push(JSON.parse(message.content.toString()));
          return bodies;
        });
      }

      it('sends the starts published in one turn as one message; a delayed job, a poll and a start of another turn go alone', async function () {
        const outcomes: string[] = [];
        const queue = make({ onPublish: (outcome) => outcomes.push(outcome) });
        await queue.connect();
        const known = '{"id":"req_batch_b","input":{"prompt":"\\"ü\\" \'); DROP TABLE"}}' as KnownRow;
        await Promise.all([
          queue.publish({ requestId: 'req_batch_a' }),
          queue.publish({ requestId: 'req_batch_b', known }),
          queue.publish({ requestId: 'req_poll_now', poll: 1 }),
          queue.publish({ requestId: 'req_start_later' }, { delayMs: 100 }),
          queue.publish({ requestId: 'req_batch_c' }),
        ]);
        await queue.publish({ requestId: 'req_next_turn' });
        // Each caller is told of its own publish.
        expect(outcomes).to.deep.equal(Array(6).fill('confirmed'));

        expect(await drain(queue.topology.workQueue)).to.deep.equal([
          { jobs: [{ requestId: 'req_batch_a' }, { requestId: 'req_batch_b', known }, { requestId: 'req_batch_c' }] },
          { requestId: 'req_next_turn' },
        ]);
        expect(await drain(queue.topology.pollQueue)).to.deep.equal([{ requestId: 'req_poll_now', poll: 1 }]);
        let delayed: unknown[] = [];
        await waitFor(() => delayed.length > 0, 5_000, 'the delayed start', async () => (delayed = delayed.concat(await drain(queue.topology.workQueue))));
        expect(delayed).to.deep.equal([{ requestId: 'req_start_later' }]);
      });

      it(`carries at most ${maxJobsPerMessage} jobs in a message, and delivers every job of a batch to the handler once`, async function () {
        const queue = make();
        await queue.connect();
        const ids = Array.from({ length: 2 * maxJobsPerMessage + 3 }, (_, i) => `req_many_${i}`);
        await Promise.all(ids.map((requestId) => queue.publish({ requestId })));
        expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 3 });

        const handled: string[] = [];
        let running = 0;
        let mostAtOnce = 0;
        await queue.consume(
          async (job) => {
            running += 1;
            mostAtOnce = Math.max(mostAtOnce, running);
            await new Promise((resolve) => setTimeout(resolve, 2));
            handled.push(job.requestId);
            running -= 1;
          },
          { concurrency: 4 },
        );
        await waitFor(() => handled.length === ids.length, 5_000, 'every job of the batches');
        await queue.close();
        expect([...handled].sort()).to.deep.equal([...ids].sort());
        // The lane's limit holds across the jobs of a message, not per message.
        expect(mostAtOnce).to.equal(4);
        expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 0 });
      });

      it('hands a job that failed in a batch back alone, counted by the delivery limit from there; the others run once', async function () {
        const deadLetters: string[] = [];
        const queue = make({ deliveryLimit: 1, onDeadLetter: async (requestId) => void deadLetters.push(requestId) });
        const attempts = new Map<string, number>();
        await queue.consume(
          async (job) => {
            attempts.set(job.requestId, (attempts.get(job.requestId) ?? 0) + 1);
            if (job.requestId === 'req_poison') throw new Error('poison');
            if (job.requestId === 'req_flaky' && attempts.get('req_flaky') === 1) throw new Error('store blip');
          },
          { concurrency: 2 },
        );
        await Promise.all(['req_fine_1', 'req_poison', 'req_flaky', 'req_fine_2'].map((requestId) => queue.publish({ requestId })));

        await waitFor(() => deadLetters.length === 1, 10_000, 'the poison job to be dead-lettered');
        await quietPeriod(200);
        // The poison job: once in the batch, then alone its first delivery and its one redelivery.
        expect(Object.fromEntries(attempts)).to.deep.equal({ req_fine_1: 1, req_poison: 3, req_flaky: 2, req_fine_2: 1 });
        expect(deadLetters).to.deep.equal(['req_poison']);
        await queue.close();
        expect(await messageCounts([queue.topology.workQueue, queue.topology.deadQueue])).to.deep.equal({ [queue.topology.workQueue]: 0, [queue.topology.deadQueue]: 0 });
      });

      it('close() before every job of a batch got a slot hands the whole message back, once its running jobs are done', async function () {
        const queue = make();
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const started: string[] = [];
        await queue.consume(
          async (job) => {
            started.push(job.requestId);
            await gate;
          },
          { concurrency: 1 },
        );
        await Promise.all(['req_first', 'req_second', 'req_third'].map((requestId) => queue.publish({ requestId })));
        await waitFor(() => started.length === 1, 5_000, 'the first job to start');
        const closing = queue.close();
        setTimeout(release, 100);
        await closing;
        expect(started).to.deep.equal(['req_first']);
        // Back whole: the next worker's claim of req_first finds it claimed already and does nothing.
        expect(await drain(queue.topology.workQueue)).to.deep.equal([{ jobs: [{ requestId: 'req_first' }, { requestId: 'req_second' }, { requestId: 'req_third' }] }]);
      });

      it('gives every job of a dead-lettered batch to onDeadLetter, and dead-letters a batch with a job it cannot read', async function () {
        const deadLetters: string[] = [];
        const queue = make({ onDeadLetter: async (requestId) => void deadLetters.push(requestId) });
        const handled: string[] = [];
        await queue.consume(async (job) => void handled.push(job.requestId), { concurrency: 2 });
        await withBrokerChannel(async (channel) => {
          channel.sendToQueue(queue.topology.deadQueue, Buffer.from(JSON.stringify({ jobs: [{ requestId: 'req_dead_a' }, { requestId: 'req_dead_b' }] })));
          channel.sendToQueue(queue.topology.workQueue, Buffer.from(JSON.stringify({ jobs: [{ requestId: 'req_readable' }, { poll: 1 }] })));
          channel.sendToQueue(queue.topology.workQueue, Buffer.from(JSON.stringify({ jobs: [] })));
          // The channel's close-ok follows the publishes on the same channel: they are with the broker.
          await channel.close();
        });

        await waitFor(() => deadLetters.length === 2, 5_000, 'both jobs of the dead letter');
        expect(deadLetters).to.deep.equal(['req_dead_a', 'req_dead_b']);
        // The unreadable batches went to the dead-letter queue whole, and its consumer discarded them.
        let counts: Record<string, number> = {};
        const empty = () => Object.keys(counts).length === 2 && Object.values(counts).every((count) => count === 0);
        await waitFor(empty, 5_000, 'both queues empty', async () => (counts = await messageCounts([queue.topology.workQueue, queue.topology.deadQueue])));
        await quietPeriod(100);
        expect(handled).to.deep.equal([]);
        expect(deadLetters).to.deep.equal(['req_dead_a', 'req_dead_b']);
      });
    });

    it('rejects a publish the broker cannot route instead of losing it silently', async function () {
      const queue = make();
      await queue.connect();
      await withBrokerChannel((channel) => channel.deleteQueue(queue.topology.workQueue));

      let failure: unknown;
      await queue.publish({ requestId: 'req_nowhere' }).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/could not route the job/);
    });

    it('dead-letters a job that fails on every delivery and calls onDeadLetter with its request id', async function () {
      const deadLetters: string[] = [];
      const queue = make({ deliveryLimit: 2, onDeadLetter: async (requestId) => void deadLetters.push(requestId) });
      let attempts = 0;
      await queue.consume(
        async () => {
          attempts += 1;
          throw new Error('poison');
        },
        { concurrency: 1 },
      );
      await queue.publish({ requestId: 'req_poison' });

      await waitFor(() => deadLetters.length > 0, 10_000, 'the poison job to be dead-lettered');
      await quietPeriod(200);
      // x-delivery-limit 2 = the first delivery plus two redeliveries.
      expect(attempts).to.equal(3);
      expect(deadLetters).to.deep.equal(['req_poison']);
      await queue.close();
      expect(await messageCounts([queue.topology.workQueue, queue.topology.deadQueue])).to.deep.equal({ [queue.topology.workQueue]: 0, [queue.topology.deadQueue]: 0 });
    });

    it('reconnects after the broker closes its connection, and resumes consuming', async function () {
      const recorded = recordingLog();
      const prefix = uniquePrefix();
      const queue = make({ prefix, log: recorded.log });
      const received: string[] = [];
      await queue.consume(async (job) => void received.push(job.requestId), { concurrency: 2 });
      await queue.publish({ requestId: 'req_before' });
      await waitFor(() => received.length === 1, 5_000, 'the first job');

      expect(await forceCloseConnections(prefix)).to.equal(1);
      await queue.publish({ requestId: 'req_after' });

      await waitFor(() => received.length === 2, 10_000, 'the job published after the drop');
      expect(received).to.deep.equal(['req_before', 'req_after']);
      expect(recorded.messages().filter((message) => /^RabbitMQ (connected|connection lost)/.test(message))).to.deep.equal([
        'RabbitMQ connected; topology declared',
        'RabbitMQ connection lost',
        'RabbitMQ connected; topology declared',
      ]);
    });

    it('holds a publish through a short outage and completes it once the broker is back', async function () {
      const proxy = await startBrokerProxy();
      proxies.push(proxy);
      const queue = make({ url: proxy.url });
      await queue.connect();

      proxy.setOutage(true);
      await waitFor(() => !queue.connected, 2_000, 'the adapter to notice the outage');
      const publishing = queue.publish({ requestId: 'req_during_outage' });
      await quietPeriod(300);
      proxy.setOutage(false);
      await publishing;
      expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 1 });
    });

    it('rejects a publish when the outage outlasts publishTimeoutMs', async function () {
      const proxy = await startBrokerProxy();
      proxies.push(proxy);
      const queue = make({ url: proxy.url, publishTimeoutMs: 400 });
      await queue.connect();
      proxy.setOutage(true);
      await waitFor(() => !queue.connected, 2_000, 'the adapter to notice the outage');

      const startedAt = Date.now();
      let failure: unknown;
      await queue.publish({ requestId: 'req_lost' }).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.include('RabbitMQ is unreachable; gave up after 400 ms');
      expect(Date.now() - startedAt).to.be.within(350, 1_500);
    });

    it('rejects publishes at once once the outage has lasted longer than publishTimeoutMs, and waits again after a reconnect', async function () {
      const proxy = await startBrokerProxy();
      proxies.push(proxy);
      const queue = make({ url: proxy.url, publishTimeoutMs: 400 });
      await queue.connect();
      proxy.setOutage(true);
      await waitFor(() => !queue.connected, 2_000, 'the adapter to notice the outage');
      await quietPeriod(500);

      const startedAt = Date.now();
      let failure: unknown;
      await queue.publish({ requestId: 'req_known_outage' }).catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/^Error: RabbitMQ is unreachable \(down for \d+ ms\); not waiting for it$/);
      expect(Date.now() - startedAt).to.be.below(50);

      proxy.setOutage(false);
      await waitFor(() => queue.connected, 5_000, 'the adapter to reconnect');
      await queue.publish({ requestId: 'req_after_outage' });
      expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 1 });
    });

    it('fails the publishes unconfirmed when the connection drops, and every confirmed job is delivered', async function () {
      const proxy = await startBrokerProxy();
      proxies.push(proxy);
      const queue = make({ url: proxy.url });
      await queue.connect();

      const ids = Array.from({ length: 300 }, (_, i) => `req_${i}`);
      const outcomes = ids.map((requestId) => queue.publish({ requestId }));
      await new Promise((resolve) => setImmediate(resolve));
      proxy.dropConnections();
      const settled = await Promise.race([
        Promise.allSettled(outcomes),
        new Promise<'hung'>((resolve) => setTimeout(() => resolve('hung'), 7_000)),
      ]);
      if (settled === 'hung') throw new Error('a publish neither resolved nor rejected after the connection dropped');
      const confirmed = ids.filter((_, i) => settled[i].status === 'fulfilled');
      const failures = settled.flatMap((outcome) => (outcome.status === 'rejected' ? [String(outcome.reason)] : []));
      expect(failures.length, 'no publish was in flight when the connection dropped').to.be.greaterThan(0);
      expect(new Set(failures)).to.deep.equal(new Set(['Error: RabbitMQ connection lost before the broker confirmed']));

      const received = new Set<string>();
      await queue.consume(async (job) => void received.add(job.requestId), { concurrency: 20 });
      await waitFor(() => confirmed.every((id) => received.has(id)), 10_000, 'every confirmed job to be delivered');
    });

    it('close() acks the job it waited for before closing the channel: nothing is redelivered', async function () {
      const queue = make();
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let started = false;
      await queue.consume(
        async () => {
          started = true;
          await gate;
        },
        { concurrency: 1 },
      );
      await queue.publish({ requestId: 'req_inflight' });
      await waitFor(() => started, 5_000, 'the handler to start');
      const closing = queue.close();
      setTimeout(release, 100);
      await closing;
      expect(await messageCounts([queue.topology.workQueue])).to.deep.equal({ [queue.topology.workQueue]: 0 });
    });

    it('refuses to start on a queue declared with other arguments, naming the queue', async function () {
      const prefix = uniquePrefix();
      await make({ prefix, deliveryLimit: 3 }).connect();

      let failure: unknown;
      await make({ prefix, deliveryLimit: 4 })
        .connect()
        .catch((error: unknown) => (failure = error));
      expect(String(failure)).to.include(`RabbitMQ refused queue ${prefix}.work`);
      expect(String(failure)).to.include('PRECONDITION_FAILED');
    });

    it('fails connect() at once when no broker listens', async function () {
      const queue = new RabbitMqQueue(queueOptions({ url: 'amqp://guest:guest@127.0.0.1:1' }));
      let failure: unknown;
      await queue.connect().catch((error: unknown) => (failure = error));
      expect(String(failure)).to.match(/ECONNREFUSED/);
      await queue.close();
    });
  });
});
