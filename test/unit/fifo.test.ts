import { expect } from 'chai';
import { Fifo } from '../../src/kernel/queue/fifo.js';

describe('Fifo', () => {
  it('hands items back in the order they were pushed, across its compactions', () => {
    const fifo = new Fifo<number>();
    const taken: number[] = [];
    // Interleaved pushes and shifts past the compaction threshold (1,024 consumed, half the array).
    for (let i = 0; i < 5000; i += 1) {
      fifo.push(i);
      if (i % 3 === 0) taken.push(fifo.shift()!);
    }
    expect(fifo.length).to.equal(5000 - taken.length);
    while (fifo.length > 0) taken.push(fifo.shift()!);
    expect(taken).to.deep.equal(Array.from({ length: 5000 }, (_, i) => i));
    expect(fifo.shift()).to.equal(undefined);
  });

  it('is empty after clear and usable again', () => {
    const fifo = new Fifo<string>();
    fifo.push('a');
    fifo.push('b');
    fifo.clear();
    expect(fifo.length).to.equal(0);
    expect(fifo.shift()).to.equal(undefined);
    fifo.push('c');
    expect([fifo.length, fifo.shift(), fifo.length]).to.deep.equal([1, 'c', 0]);
  });
});
