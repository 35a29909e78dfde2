/**
 * `GET /api/v1/requests/{id}/events`, the server-sent event stream of one request's states, in the embedded default:
 * the states in order, each once, as the poll answers them, with the poll's ETag as the event id; the end at the
 * terminal state; `Last-Event-ID` resuming without repeats (204 once the terminal state is held); keep-alive comments;
 * the poll's authentication, scope and ownership; and the watch given back when the client leaves.
 */
import { expect } from 'chai';
import { openEventStream, type EventStreamClient, type StreamEvent } from '../support/event-stream.js';
import { eventually } from '../support/eventually.js';
import { withFixtures } from '../support/fixtures.js';
import { startTestService, type TestService } from '../support/test-service.js';

const echo = (script: Record<string, unknown>, message = 'streamed') => ({ operation: 'test.echo', input: { message, script } });
const statusRank = { queued: 0, processing: 1, succeeded: 2, failed: 2 } as const;
const parsed = (event: StreamEvent) => JSON.parse(event.data);

describe('request event streams', function () {
  let service: TestService;
  let key: string;
  const streams: EventStreamClient[] = [];

  before(async () => {
    service = await startTestService({ ...withFixtures, worker: { concurrency: 8 }, watches: { keepalive_interval_ms: 1_000, recheck_interval_ms: 60_000 } });
    ({ key } = await service.createKey({ credits: 10_000 }));
  });
  afterEach(() => streams.splice(0).forEach((stream) => stream.close()));
  after(async () => service?.stop());

  const open = async (id: string, headers: Record<string, string> = {}, apiKey = key) => {
    const stream = await openEventStream(`${service.url}/api/v1/requests/${id}/events`, { 'x-api-key': apiKey, ...headers });
    streams.push(stream);
    return stream;
  };
  const create = async (script: Record<string, unknown>) => {
    const created = await service.api('POST', '/api/v1/requests', { key, body: echo(script) });
    expect(created.status).to.equal(202);
    return created.body.id as string;
  };
  const poll = (id: string) => service.api('GET', `/api/v1/requests/${id}`, { key });

  it('sends each state once, in order, as the poll answers it, then ends after the terminal state', async () => {
    const id = await create({ start_delay_ms: 300, pending: 2 });
    const stream = await open(id);
    expect(stream.status).to.equal(200);
    expect(stream.headers.get('content-type')).to.equal('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).to.equal('no-store');
    await stream.ended;

    const states = stream.events.map(parsed);
    expect(states.length).to.be.at.least(3);
    // Queued or processing first, the vendor's progress in between, the finished request last.
    expect(states.at(-1)).to.deep.equal((await poll(id)).body);
    expect(states.at(-1)).to.include({ status: 'succeeded' });
    expect(states.map((state) => statusRank[state.status as keyof typeof statusRank])).to.deep.equal([...states.map((state) => statusRank[state.status as keyof typeof statusRank])].sort());
    const progress = states.map((state) => state.output.progress).filter((value) => value !== undefined);
    expect(progress).to.deep.equal([...progress].sort());
    // Every event has an id, no id repeats, and no two consecutive events carry the same state.
    const ids = stream.events.map((event) => event.id);
    expect(ids.every((eventId) => typeof eventId === 'string' && /^[A-Za-z0-9_-]{22}$/.test(eventId))).to.equal(true);
    expect(new Set(ids).size).to.equal(ids.length);
    for (let index = 1; index < states.length; index += 1) expect(states[index]).to.not.deep.equal(states[index - 1]);
    // The last event's id is the finished request's ETag.
    expect(`W/"${ids.at(-1)}"`).to.equal((await poll(id)).headers.get('etag'));
    expect(stream.retryMs).to.be.within(1_000, 3_000);
    expect(service.service.gateway.watches.size).to.equal(0);
  });

  it('resumes after Last-Event-ID without repeating it, and answers 204 to a client that holds the terminal state', async () => {
    const id = await create({ start_delay_ms: 1_500 });
    const first = await open(id);
    const processing = await first.waitForEvent((event) => parsed(event).output.provider === 'scripted');
    first.close();
    await eventually('the first stream\'s watch to be given back', async () => (service.service.gateway.watches.size === 0 ? true : undefined), 5_000);

    const resumed = await open(id, { 'last-event-id': processing.id! });
    await resumed.ended;
    expect(resumed.events.map((event) => event.id)).to.not.include(processing.id);
    expect(resumed.events.map((event) => parsed(event).status).at(-1)).to.equal('succeeded');
    const last = resumed.events.at(-1)!;

    const done = await open(id, { 'last-event-id': last.id! });
    expect(done.status).to.equal(204);
    await done.ended;
    expect(done.events).to.deep.equal([]);

    // Without Last-Event-ID (or with an id it does not know) a finished request streams its one terminal state.
    for (const headers of [{}, { 'last-event-id': 'not-a-state-of-this-request' }] as Record<string, string>[]) {
      const fresh = await open(id, headers);
      await fresh.ended;
      expect(fresh.events.map((event) => [event.id, parsed(event).status])).to.deep.equal([[last.id, 'succeeded']]);
    }
  });

  it('sends a keep-alive comment while nothing changes, and gives the watch back when the client leaves', async () => {
    const id = await create({ start_delay_ms: 60_000 });
    const stream = await open(id);
    await stream.waitForEvent((event) => parsed(event).output.provider === 'scripted');
    await eventually('a keep-alive comment', async () => (stream.comments.includes('keep-alive') ? true : undefined), 10_000);
    expect(service.service.gateway.watches.size).to.equal(1);
    stream.close();
    await eventually('the watch to be given back', async () => (service.service.gateway.watches.size === 0 ? true : undefined), 5_000);
    expect((await service.api('POST', `/api/v1/requests/${id}/cancel`, { key })).body.status).to.equal('failed');
  });

  it('is the poll\'s: 401 without a key, 403 without requests:read, 404 for another key\'s request', async () => {
    const id = await create({});
    const withoutKey = await service.api('GET', `/api/v1/requests/${id}/events`);
    expect(withoutKey.status).to.equal(401);
    expect(withoutKey.body.code).to.equal('MG_UNAUTHENTICATED');
    const { key: writeOnly } = await service.createKey({ scopes: ['requests:write'] });
    const forbidden = await service.api('GET', `/api/v1/requests/${id}/events`, { key: writeOnly });
    expect([forbidden.status, forbidden.body.code]).to.deep.equal([403, 'MG_FORBIDDEN_SCOPE']);
    const { key: other } = await service.createKey();
    const foreign = await service.api('GET', `/api/v1/requests/${id}/events`, { key: other });
    expect([foreign.status, foreign.body.code]).to.deep.equal([404, 'MG_REQUEST_NOT_FOUND']);
    expect(service.service.gateway.watches.size).to.equal(0);
  });

  it('ends every stream at shutdown at once, not when the request or the stream\'s time is over', async () => {
    const stopping = await startTestService(withFixtures);
    const { key: own } = await stopping.createKey({ credits: 100 });
    const created = await stopping.api('POST', '/api/v1/requests', { key: own, body: echo({ start_delay_ms: 3_000 }) });
    const stream = await openEventStream(`${stopping.url}/api/v1/requests/${created.body.id}/events`, { 'x-api-key': own });
    streams.push(stream);
    await stream.waitForEvent((event) => parsed(event).status === 'processing');
    const began = performance.now();
    const stopped = stopping.stop();
    await stream.ended;
    expect(performance.now() - began).to.be.below(2_500);
    expect(stream.events.map((event) => parsed(event).status)).to.not.include('succeeded');
    await stopped;
  });
});
