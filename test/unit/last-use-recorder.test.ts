import { expect } from 'chai';
import { LastUseRecorder } from '../../src/kernel/accounts/index.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A recorder whose writes are kept, each as the uses it was given. */
function recording(options: { resolutionMs?: number; flushMs?: number; failWith?: Error } = {}) {
  const writes: [string, number][][] = [];
  const errors: unknown[] = [];
  const recorder = new LastUseRecorder(
    async (uses) => {
      writes.push([...uses]);
      if (options.failWith) throw options.failWith;
    },
    { resolutionMs: options.resolutionMs ?? 1000, flushMs: options.flushMs ?? 20, onError: (error) => errors.push(error) },
  );
  return { recorder, writes, errors };
}

describe('LastUseRecorder', () => {
  it("writes the uses of many ids together, once, each id's first use in its resolution", async () => {
    const { recorder, writes } = recording();
    recorder.record('key_a', 10_000);
    recorder.record('key_b', 10_100);
    recorder.record('key_a', 10_900);
    recorder.record('key_c', 10_950);
    expect(writes, 'nothing before the flush delay').to.deep.equal([]);
    await sleep(60);
    expect(writes).to.deep.equal([
      [
        ['key_a', 10_000],
        ['key_b', 10_100],
        ['key_c', 10_950],
      ],
    ]);
    await sleep(40);
    expect(writes, 'no write while nothing is new').to.have.length(1);
  });

  it('keeps a use again once the resolution has passed since the last one kept', async () => {
    const { recorder, writes } = recording();
    recorder.record('key_a', 10_000);
    await recorder.flush();
    recorder.record('key_a', 10_999);
    await recorder.flush();
    recorder.record('key_a', 11_000);
    recorder.record('key_b', 11_000);
    await recorder.flush();
    expect(writes).to.deep.equal([[['key_a', 10_000]], [['key_a', 11_000], ['key_b', 11_000]]]);
  });

  it('writes what it holds at close without waiting for the delay', async () => {
    const { recorder, writes } = recording({ flushMs: 60_000 });
    recorder.record('key_a', 5);
    await recorder.close();
    expect(writes).to.deep.equal([[['key_a', 5]]]);
  });

  it('reports a failed write and goes on recording', async () => {
    const failure = new Error('database gone');
    const { recorder, writes, errors } = recording({ failWith: failure });
    recorder.record('key_a', 1_000);
    await recorder.flush();
    recorder.record('key_b', 3_000);
    await recorder.flush();
    expect(errors).to.deep.equal([failure, failure]);
    expect(writes).to.deep.equal([[['key_a', 1_000]], [['key_b', 3_000]]]);
  });

  it('writes one batch at a time, in order', async () => {
    const order: string[] = [];
    let release!: () => void;
    const first = new Promise<void>((resolve) => (release = resolve));
    const recorder = new LastUseRecorder(
      async (uses) => {
        const ids = [...uses.keys()].join();
        order.push(`start ${ids}`);
        if (ids === 'key_a') await first;
        order.push(`end ${ids}`);
      },
      { resolutionMs: 1000, onError: () => undefined },
    );
    recorder.record('key_a', 1);
    const flushing = recorder.flush();
    recorder.record('key_b', 2);
    const second = recorder.flush();
    await sleep(10);
    release();
    await Promise.all([flushing, second]);
    expect(order).to.deep.equal(['start key_a', 'end key_a', 'start key_b', 'end key_b']);
  });
});
