import { expect } from 'chai';
import { MicroBatcher, type Outcome } from '../../src/kernel/store/micro-batcher.js';

describe('MicroBatcher', () => {
  it('hands the submissions of one turn to one run and answers each with its own outcome', async () => {
    const runs: number[][] = [];
    const batcher = new MicroBatcher<number, number>(async (items) => {
      runs.push(items);
      return items.map((item): Outcome<number> => (item < 0 ? { ok: false, error: new Error(`negative ${item}`) } : { ok: true, value: item * 2 }));
    });
    const results = await Promise.allSettled([1, -2, 3].map((item) => batcher.submit(item)));
    expect(runs).to.deep.equal([[1, -2, 3]]);
    expect(results.map((result) => (result.status === 'fulfilled' ? result.value : (result.reason as Error).message))).to.deep.equal([2, 'negative -2', 6]);
  });

  it('fails every item of a batch whose run throws, and keeps serving later submissions', async () => {
    let calls = 0;
    const batcher = new MicroBatcher<string, string>(async (items) => {
      calls += 1;
      if (calls === 1) throw new Error('connection lost');
      return items.map((item) => ({ ok: true, value: item }));
    });
    const first = await Promise.allSettled([batcher.submit('a'), batcher.submit('b')]);
    expect(first.map((result) => result.status)).to.deep.equal(['rejected', 'rejected']);
    expect(await batcher.submit('c')).to.equal('c');
  });

  it('serves work submitted by the answer of the batch that is ending (it is not stranded behind a finishing drain)', async () => {
    const batcher = new MicroBatcher<number, number>(async (items) => items.map((item) => ({ ok: true, value: item })));
    // Each answer's handler submits again from a promise chain: exactly when a drain is deciding to stop.
    const chained = (depth: number): Promise<number> => batcher.submit(depth).then((value) => (value < 20 ? Promise.resolve().then(() => chained(value + 1)) : value));
    expect(await Promise.race([chained(0), new Promise((resolve) => setTimeout(() => resolve('stuck'), 2000))])).to.equal(20);
    await batcher.idle();
  });

  it('runs at most `parallel` batches at once and caps their size', async () => {
    let open = 0;
    let mostOpen = 0;
    const sizes: number[] = [];
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        open += 1;
        mostOpen = Math.max(mostOpen, open);
        sizes.push(items.length);
        await new Promise((resolve) => setTimeout(resolve, 5));
        open -= 1;
        return items.map((item) => ({ ok: true, value: item }));
      },
      { parallel: 2, maxBatch: 4 },
    );
    await Promise.all(Array.from({ length: 20 }, (_, index) => batcher.submit(index)));
    await batcher.idle();
    expect(mostOpen).to.equal(2);
    expect(Math.max(...sizes)).to.equal(4);
    expect(sizes.reduce((sum, size) => sum + size, 0)).to.equal(20);
  });

  it('caps a batch by weight; an item heavier than the cap goes alone', async () => {
    const sizes: number[][] = [];
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        sizes.push(items);
        return items.map((item) => ({ ok: true, value: item }));
      },
      { maxWeight: 10, weigh: (item) => item },
    );
    await Promise.all([4, 4, 4, 12, 1, 9, 1].map((item) => batcher.submit(item)));
    expect(sizes).to.deep.equal([[4, 4], [4], [12], [1, 9], [1]]);
  });
});
