/**
 * Fewer polls per result, in the embedded default: `Prefer: wait=N` on the poll answers the moment the request
 * finishes (or, with If-None-Match, the moment it changes), out of time it answers with the current state, the poll
 * carries a weak ETag and answers If-None-Match with 304 and no body, and every wait gives its watch back: when it is
 * answered, when its client goes away, when the process reaches its limit of watches, and at shutdown. Timings are
 * bounds far from the waits asked for, never exact figures: the point is "at the change, not at the end of the wait".
 */
import { request as httpRequest } from 'node:http';
import { expect } from 'chai';
import { withFixtures } from '../support/fixtures.js';
import { eventually } from '../support/eventually.js';
import { startTestService, type TestService } from '../support/test-service.js';

const echo = (script: Record<string, unknown>, message = 'long poll') => ({ operation: 'test.echo', input: { message, script } });
const weakTag = /^W\/"[A-Za-z0-9_-]{22}"$/;

describe('long polls and conditional polls', function () {
  let service: TestService;
  let key: string;

  before(async () => {
    service = await startTestService({ ...withFixtures, worker: { concurrency: 8 }, watches: { recheck_interval_ms: 60_000 } });
    ({ key } = await service.createKey({ credits: 10_000 }));
  });
  after(async () => service?.stop());

  const get = (id: string, headers: Record<string, string> = {}) => service.api('GET', `/api/v1/requests/${id}`, { key, headers });
  const create = async (script: Record<string, unknown>) => {
    const created = await service.api('POST', '/api/v1/requests', { key, body: echo(script) });
    expect(created.status).to.equal(202);
    return created.body.id as string;
  };
  /** A request whose start takes `ms` (the scripted vendor sleeps), processing with its start recorded. */
  const running = async (ms: number) => {
    const id = await create({ start_delay_ms: ms });
    await eventually('the start to be recorded', async () => ((await get(id)).body.output?.provider === 'scripted' ? true : undefined));
    return id;
  };
  const cancel = (id: string) => service.api('POST', `/api/v1/requests/${id}/cancel`, { key });

  it('answers a long poll the moment the request finishes, well before the wait is over', async () => {
    const id = await create({ start_delay_ms: 1_500 });
    const began = performance.now();
    const answer = await get(id, { prefer: 'wait=30' });
    const tookMs = performance.now() - began;
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('preference-applied')).to.equal('wait=30');
    expect(answer.body).to.include({ id, status: 'succeeded' });
    expect(answer.body.output.echo).to.equal('long poll');
    expect(answer.body.credits).to.deep.include({ charged: 2, refunded: 0, net: 2 });
    // It waited for the 1.5 s start, and answered long before the 30 s it was allowed.
    expect(tookMs).to.be.within(1_000, 15_000);
    expect(Date.now() - answer.body.completedAtMs).to.be.below(15_000);
    expect(await service.service.gateway.watches.size).to.equal(0);
  });

  it('answers the long polls a finish wakes with their credits from the re-read of the notice, not a ledger read per answer', async () => {
    const accounts = service.service.gateway.accounts;
    const single: string[] = [];
    const batched: string[][] = [];
    const { listRequestLedger, listRequestLedgers } = accounts;
    accounts.listRequestLedger = async (requestId, db) => (single.push(requestId), listRequestLedger.call(accounts, requestId, db));
    accounts.listRequestLedgers = async (requestIds) => (batched.push([...requestIds]), listRequestLedgers.call(accounts, requestIds));
    try {
      const ids = [await create({ start_delay_ms: 1_000 }), await create({ start_delay_ms: 1_000 }), await create({ start_delay_ms: 1_000 })];
      const answers = await Promise.all(ids.map((id) => get(id, { prefer: 'wait=30' })));
      for (const [index, answer] of answers.entries()) {
        expect(answer.body).to.include({ id: ids[index], status: 'succeeded' });
        expect(answer.body.credits).to.deep.include({ charged: 2, refunded: 0, net: 2 });
        expect(answer.body.credits.entries).to.have.length(1);
      }
      expect(single.filter((id) => ids.includes(id))).to.deep.equal([]);
      expect(batched.flat().filter((id) => ids.includes(id)).sort()).to.deep.equal([...ids].sort());
    } finally {
      accounts.listRequestLedger = listRequestLedger;
      accounts.listRequestLedgers = listRequestLedgers;
    }
  });

  it('answers a finished request at once, waited for or not, and a create with Prefer: wait with the result', async () => {
    const created = await service.api('POST', '/api/v1/requests', { key, body: echo({ start_delay_ms: 800 }), headers: { prefer: 'wait=30' } });
    expect(created.status).to.equal(200);
    expect(created.headers.get('preference-applied')).to.equal('wait=30');
    expect(created.body).to.include({ status: 'succeeded' });
    const began = performance.now();
    const again = await get(created.body.id, { prefer: 'wait=30' });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.equal(created.body);
    expect(performance.now() - began).to.be.below(5_000);
  });

  it('answers with the current state when the wait runs out first', async () => {
    const id = await running(60_000);
    const began = performance.now();
    const answer = await get(id, { prefer: 'wait=1' });
    const tookMs = performance.now() - began;
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('preference-applied')).to.equal('wait=1');
    expect(answer.body).to.include({ id, status: 'processing', completedAtMs: null });
    expect(answer.body.output).to.include({ status: 'processing', provider: 'scripted' });
    expect(tookMs).to.be.within(900, 10_000);
    expect(answer.headers.get('etag')).to.equal((await get(id)).headers.get('etag'));
    expect((await cancel(id)).body.status).to.equal('failed');
  });

  it('caps the wait at 60 s and reads wait=0 as no wait', async () => {
    const id = await running(60_000);
    const capped = service.api('GET', `/api/v1/requests/${id}`, { key, headers: { prefer: 'respond-async, wait=600' } });
    await eventually('the long poll to be held', async () => (service.service.gateway.watches.size === 1 ? true : undefined));
    const immediate = await get(id, { prefer: 'wait=0' });
    expect(immediate.status).to.equal(200);
    expect(immediate.headers.get('preference-applied')).to.equal(null);
    await cancel(id);
    const answer = await capped;
    expect(answer.headers.get('preference-applied')).to.equal('wait=60');
    expect(answer.body).to.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
  });

  it('tags every poll answer with a weak ETag of its state and answers a matching If-None-Match with 304 and no body', async () => {
    const id = await create({});
    const finished = await get(id, { prefer: 'wait=30' });
    const etag = finished.headers.get('etag')!;
    expect(etag).to.match(weakTag);
    expect(finished.headers.get('cache-control')).to.equal('private, no-cache');

    const unchanged = await get(id, { 'if-none-match': etag });
    expect(unchanged.status).to.equal(304);
    expect(unchanged.body).to.equal('');
    expect(unchanged.headers.get('etag')).to.equal(etag);
    expect(unchanged.headers.get('cache-control')).to.equal('private, no-cache');
    // Weak comparison: the strong form of the same tag, or the tag among others, matches too.
    expect((await get(id, { 'if-none-match': `"nope", ${etag.slice(2)}` })).status).to.equal(304);
    expect((await get(id, { 'if-none-match': '*' })).status).to.equal(304);

    const other = await get(id, { 'if-none-match': 'W/"somethingelse"' });
    expect(other.status).to.equal(200);
    expect(other.headers.get('etag')).to.equal(etag);
    expect(other.body).to.deep.equal(finished.body);
  });

  it('changes the ETag with every change a client can see, and keeps it while nothing changes', async () => {
    const id = await running(60_000);
    const processing = await get(id);
    expect((await get(id)).headers.get('etag')).to.equal(processing.headers.get('etag'));
    const cancelled = await cancel(id);
    expect(cancelled.body.status).to.equal('failed');
    const failed = await get(id, { 'if-none-match': processing.headers.get('etag')! });
    expect(failed.status).to.equal(200);
    expect(failed.body.status).to.equal('failed');
    expect(failed.headers.get('etag')).to.not.equal(processing.headers.get('etag'));
  });

  it('with If-None-Match, holds the poll until the state differs from the one the client has, else answers 304 when the wait is over', async () => {
    const id = await running(60_000);
    const etag = (await get(id)).headers.get('etag')!;

    const began = performance.now();
    const unchanged = await get(id, { 'if-none-match': etag, prefer: 'wait=1' });
    expect(unchanged.status).to.equal(304);
    expect(unchanged.headers.get('preference-applied')).to.equal('wait=1');
    expect(performance.now() - began).to.be.within(900, 10_000);

    const held = get(id, { 'if-none-match': etag, prefer: 'wait=30' });
    await eventually('the conditional long poll to be held', async () => (service.service.gateway.watches.size === 1 ? true : undefined));
    const cancelledAt = performance.now();
    await cancel(id);
    const changed = await held;
    expect(changed.status).to.equal(200);
    expect(changed.body).to.include({ status: 'failed', errorMessage: 'the request was cancelled by the client' });
    expect(changed.headers.get('etag')).to.not.equal(etag);
    expect(performance.now() - cancelledAt).to.be.below(10_000);
  });

  it('wakes a waiter on a change that announced nothing at the periodic re-check (the retention purge)', async () => {
    const recheck = await startTestService({ ...withFixtures, watches: { recheck_interval_ms: 200 } });
    try {
      const { key: own } = await recheck.createKey({ credits: 100 });
      const created = await recheck.api('POST', '/api/v1/requests', { key: own, body: echo({}), headers: { prefer: 'wait=30' } });
      expect(created.body.status).to.equal('succeeded');
      const etag = (await recheck.api('GET', `/api/v1/requests/${created.body.id}`, { key: own })).headers.get('etag')!;
      const held = recheck.api('GET', `/api/v1/requests/${created.body.id}`, { key: own, headers: { 'if-none-match': etag, prefer: 'wait=30' } });
      await eventually('the long poll to be held', async () => (recheck.service.gateway.watches.size === 1 ? true : undefined));
      const purgedAt = performance.now();
      expect(await recheck.service.gateway.retention.purge(Date.now() + 8 * 86_400_000)).to.equal(1);
      const changed = await held;
      expect(changed.status).to.equal(200);
      expect(changed.body.dataRemovedAtMs).to.be.a('number');
      expect(changed.body.output).to.deep.equal({});
      expect(performance.now() - purgedAt).to.be.below(10_000);
    } finally {
      await recheck.stop();
    }
  });

  it('gives the watch back when the client goes away in the middle of a long poll', async () => {
    const id = await running(60_000);
    const { hostname, port } = new URL(service.url);
    const gone = new Promise<string>((resolve) => {
      const sent = httpRequest({ hostname, port, path: `/api/v1/requests/${id}`, agent: false, headers: { 'x-api-key': key, prefer: 'wait=60' } }, () => resolve('answered'));
      sent.on('error', () => resolve('aborted'));
      sent.end();
      void eventually('the long poll to be held', async () => (service.service.gateway.watches.size === 1 ? true : undefined)).then(() => sent.destroy());
    });
    expect(await gone).to.equal('aborted');
    await eventually('the watch to be given back', async () => (service.service.gateway.watches.size === 0 ? true : undefined), 5_000);
    await cancel(id);
  });

  it('refuses no poll but stops waiting past watches.max_per_process: the next long poll is answered at once', async () => {
    const limited = await startTestService({ ...withFixtures, watches: { max_per_process: 1 } });
    try {
      const { key: own } = await limited.createKey({ credits: 100 });
      const created = await limited.api('POST', '/api/v1/requests', { key: own, body: echo({ start_delay_ms: 60_000 }) });
      const path = `/api/v1/requests/${created.body.id}`;
      const first = limited.api('GET', path, { key: own, headers: { prefer: 'wait=30' } });
      await eventually('the first long poll to be held', async () => (limited.service.gateway.watches.size === 1 ? true : undefined));
      const began = performance.now();
      const second = await limited.api('GET', path, { key: own, headers: { prefer: 'wait=30' } });
      expect(second.status).to.equal(200);
      expect(second.headers.get('preference-applied')).to.equal(null);
      expect(performance.now() - began).to.be.below(5_000);
      const stream = await limited.api('GET', `${path}/events`, { key: own });
      expect(stream.status).to.equal(503);
      expect(stream.headers.get('retry-after')).to.equal('5');
      expect(stream.body).to.include({ code: 'MG_UNAVAILABLE' });
      await limited.api('POST', `${path}/cancel`, { key: own });
      expect((await first).body.status).to.equal('failed');
    } finally {
      await limited.stop();
    }
  });

  it('outlives the server\'s slow-client bounds, which are for receiving requests, not for answering them', async () => {
    const strict = await startTestService({ ...withFixtures, server: { headers_timeout_ms: 500, body_timeout_ms: 500 } });
    try {
      const { key: own } = await strict.createKey({ credits: 100 });
      const created = await strict.api('POST', '/api/v1/requests', { key: own, body: echo({ start_delay_ms: 60_000 }) });
      const began = performance.now();
      // Node's requestTimeout here is 500 + 500 + 1000 ms: the wait is longer.
      const answer = await strict.api('GET', `/api/v1/requests/${created.body.id}`, { key: own, headers: { prefer: 'wait=3' } });
      expect(answer.status).to.equal(200);
      expect(answer.body.status).to.be.oneOf(['queued', 'processing']);
      expect(performance.now() - began).to.be.within(2_900, 15_000);
      await strict.api('POST', `/api/v1/requests/${created.body.id}/cancel`, { key: own });
    } finally {
      await strict.stop();
    }
  });

  it('answers every held long poll with its current state at shutdown, without waiting for the wait to end', async () => {
    const stopping = await startTestService(withFixtures);
    const { key: own } = await stopping.createKey({ credits: 100 });
    const created = await stopping.api('POST', '/api/v1/requests', { key: own, body: echo({}, 'held at shutdown') });
    const finished = await stopping.api('GET', `/api/v1/requests/${created.body.id}`, { key: own, headers: { prefer: 'wait=30' } });
    const etag = finished.headers.get('etag')!;
    const held = stopping.api('GET', `/api/v1/requests/${created.body.id}`, { key: own, headers: { prefer: 'wait=60', 'if-none-match': etag } });
    await eventually('the long poll to be held', async () => (stopping.service.gateway.watches.size === 1 ? true : undefined));
    const began = performance.now();
    await stopping.stop();
    const answer = await held;
    expect(answer.status).to.equal(304);
    expect(answer.headers.get('preference-applied')).to.equal('wait=60');
    expect(performance.now() - began).to.be.below(10_000);
  });
});
