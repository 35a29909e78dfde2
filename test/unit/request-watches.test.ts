/**
 * RequestWatches on its own, with a change feed the test drives and a store read the test answers: what one notice
 * costs however many clients wait (one batched read per process), the race between a caller's first read and the
 * wait, the slow re-check for lost notices, the limit, the deadline, shutdown, and a store that fails.
 */
import { expect } from 'chai';
import { pino } from 'pino';
import { RequestWatches, requestStateTag, type RequestWatch } from '../../src/kernel/lifecycle/index.js';
import type { ChangeFeed, ChangeListener } from '../../src/kernel/queue/index.js';
import type { RequestViewRecord } from '../../src/kernel/store/index.js';
import { eventually } from '../support/eventually.js';

class DrivenFeed implements ChangeFeed {
  listener: ChangeListener | undefined;
  announce(): void {}
  async subscribe(listener: ChangeListener): Promise<void> {
    this.listener = listener;
  }
  async close(): Promise<void> {}
}

/** The store as the watches read it: rows the test sets, every read recorded, optionally held until released. */
class FakeStore {
  readonly rows = new Map<string, RequestViewRecord>();
  readonly reads: string[][] = [];
  failing = false;
  private gate: Promise<void> | undefined;
  private openGate: (() => void) | undefined;

  set(id: string, status: RequestViewRecord['status'], output: RequestViewRecord['output'] = null): RequestViewRecord {
    const row: RequestViewRecord = { id, operation: 'test.echo', status, billableCredits: 2, input: {}, output, errorMessage: null, createdAtMs: 1, startedAtMs: null, completedAtMs: null, dataRemovedAtMs: null };
    this.rows.set(id, row);
    return row;
  }

  hold(): void {
    this.gate = new Promise((resolve) => (this.openGate = resolve));
  }

  release(): void {
    this.openGate?.();
    this.gate = undefined;
  }

  read = async (ids: readonly string[]): Promise<RequestViewRecord[]> => {
    this.reads.push([...ids]);
    const snapshot = ids.flatMap((id) => (this.rows.has(id) ? [structuredClone(this.rows.get(id)!)] : []));
    await this.gate;
    if (this.failing) throw new Error('database is down');
    return snapshot;
  };
}

const soon = () => performance.now() + 5_000;
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('RequestWatches', () => {
  let feed: DrivenFeed;
  let store: FakeStore;
  let watches: RequestWatches;
  const opened: RequestWatch[] = [];
  const make = (settings: Partial<{ max_per_process: number; recheck_interval_ms: number }> = {}) =>
    new RequestWatches({ feed, read: store.read, settings: { max_per_process: 100, recheck_interval_ms: 60_000, ...settings }, log: pino({ level: 'silent' }) });
  const open = (id: string): RequestWatch => {
    const watch = watches.open(id)!;
    opened.push(watch);
    return watch;
  };

  beforeEach(() => {
    feed = new DrivenFeed();
    store = new FakeStore();
    watches = make();
  });
  afterEach(async () => {
    opened.splice(0).forEach((watch) => watch.close());
    await watches.close();
  });

  it('reads the changed requests once per notice batch, whatever the number of clients waiting on them', async () => {
    const a = store.set('req_a', 'processing');
    const b = store.set('req_b', 'processing');
    const waits = [open('req_a'), open('req_a'), open('req_b'), open('req_c')].map((watch, index) => watch.next(requestStateTag(index < 2 ? a : b), soon()));
    await settle();
    store.reads.length = 0;
    store.set('req_a', 'succeeded');
    store.set('req_b', 'failed');
    feed.listener!.changed(['req_a', 'req_b', 'req_unwatched']);
    const [first, second, third] = await Promise.all(waits.slice(0, 3));
    expect(store.reads).to.deep.equal([['req_a', 'req_b']]);
    expect([first?.status, second?.status, third?.status]).to.deep.equal(['succeeded', 'succeeded', 'failed']);
  });

  it('keeps waiting through a notice that changed nothing the client can see', async () => {
    const row = store.set('req_a', 'processing');
    const watch = open('req_a');
    await settle();
    let answered = false;
    const waiting = watch.next(requestStateTag(row), soon()).then((record) => ((answered = true), record));
    feed.listener!.changed(['req_a']);
    await eventually('the read', async () => (store.reads.some((ids) => ids.includes('req_a')) ? true : undefined));
    await settle();
    expect(answered).to.equal(false);
    store.set('req_a', 'processing', { progress: 0.5 });
    feed.listener!.changed(['req_a']);
    expect((await waiting)?.output).to.deep.equal({ progress: 0.5 });
  });

  it('does not lose a change that lands while the caller reads the state it starts from, and costs no read otherwise', async () => {
    open('req_subscribed');
    await settle();
    const before = store.set('req_a', 'processing');
    const quiet = store.set('req_b', 'processing');
    const watch = open('req_a');
    const untouched = open('req_b');
    store.reads.length = 0;
    // The caller's own read returned `before`; the request finished and was announced before its first next().
    store.set('req_a', 'succeeded');
    feed.listener!.changed(['req_a']);
    expect(store.reads).to.deep.equal([]);
    const next = await watch.next(requestStateTag(before), soon());
    expect(next?.status).to.equal('succeeded');
    expect(store.reads).to.deep.equal([['req_a']]);
    // Nothing was announced for the other request while its caller read: its wait starts without a read.
    expect(await untouched.next(requestStateTag(quiet), performance.now() + 100)).to.equal(undefined);
    expect(store.reads).to.deep.equal([['req_a']]);
  });

  it('never hands a watch a row read before it began waiting', async () => {
    const first = store.set('req_a', 'processing');
    const waiting = open('req_a');
    await settle();
    const firstWait = waiting.next(requestStateTag(first), soon());
    await settle();
    // A read for the waiting watch starts (and sees `queued`, older than what comes next) while a second client's
    // caller is still reading its starting state, which by then is `succeeded`.
    store.set('req_a', 'queued');
    store.hold();
    const late = open('req_a');
    feed.listener!.changed(['req_a']);
    await eventually('the read to start', async () => (store.reads.length > 0 ? true : undefined));
    const succeeded = store.set('req_a', 'succeeded');
    store.release();
    expect((await firstWait)?.status).to.equal('queued');
    // The late watch never goes back to `queued`: it waits on from `succeeded`.
    expect(await late.next(requestStateTag(succeeded), performance.now() + 300)).to.equal(undefined);
  });

  it('re-checks everything watched in batches of 256 on its slow timer, and only while something is watched', async () => {
    watches = make({ recheck_interval_ms: 100, max_per_process: 1_000 });
    const ids = Array.from({ length: 600 }, (_, index) => `req_${index.toString(36)}`);
    const waits = ids.map((id) => {
      const row = store.set(id, 'processing');
      return open(id).next(requestStateTag(row), soon());
    });
    await settle();
    store.reads.length = 0;
    // A change whose notice was lost: found by the re-check.
    store.set(ids[599], 'succeeded');
    expect((await waits[599])?.status).to.equal('succeeded');
    expect(store.reads.slice(0, 3).map((batch) => batch.length)).to.deep.equal([256, 256, 88]);
    opened.splice(0).forEach((watch) => watch.close());
    await Promise.all(waits);
    const readsWhenIdle = store.reads.length;
    await new Promise((resolve) => setTimeout(resolve, 350));
    expect(store.reads.length).to.equal(readsWhenIdle);
  });

  it('re-reads everything waited on when the feed says notices may have been lost', async () => {
    const a = store.set('req_a', 'processing');
    const waiting = open('req_a').next(requestStateTag(a), soon());
    await settle();
    store.set('req_a', 'succeeded');
    feed.listener!.missedSome();
    expect((await waiting)?.status).to.equal('succeeded');
  });

  it('holds at most max_per_process watches and gives a place back when a watch closes', () => {
    watches = make({ max_per_process: 2 });
    const first = open('req_a');
    open('req_b');
    expect(watches.open('req_c')).to.equal(undefined);
    expect(watches.size).to.equal(2);
    first.close();
    first.close();
    expect(watches.size).to.equal(1);
    expect(open('req_c')).to.not.equal(undefined);
  });

  it('answers undefined at the deadline, and at once after end()', async () => {
    const row = store.set('req_a', 'processing');
    const watch = open('req_a');
    const began = performance.now();
    expect(await watch.next(requestStateTag(row), performance.now() + 150)).to.equal(undefined);
    expect(performance.now() - began).to.be.within(140, 2_000);
    const pending = watch.next(requestStateTag(row), soon());
    watch.end();
    expect(await pending).to.equal(undefined);
  });

  it('ends every wait at shutdown, refuses new ones, and resolves once every watch is given back', async () => {
    const row = store.set('req_a', 'processing');
    const watch = open('req_a');
    const pending = watch.next(requestStateTag(row), soon());
    let closed = false;
    const closing = watches.close().then(() => (closed = true));
    expect(await pending).to.equal(undefined);
    expect(watches.open('req_b')).to.equal(undefined);
    await settle();
    expect(closed).to.equal(false);
    watch.close();
    await closing;
    expect(watches.size).to.equal(0);
  });

  it('drops a failed read instead of retrying it in a loop, and reads again at the next notice', async () => {
    const row = store.set('req_a', 'processing');
    const waiting = open('req_a').next(requestStateTag(row), soon());
    await settle();
    store.reads.length = 0;
    store.failing = true;
    feed.listener!.changed(['req_a']);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(store.reads).to.have.length(1);
    store.failing = false;
    store.set('req_a', 'succeeded');
    feed.listener!.changed(['req_a']);
    expect((await waiting)?.status).to.equal('succeeded');
  });
});
