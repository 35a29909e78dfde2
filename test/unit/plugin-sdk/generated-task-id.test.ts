/** Task ids made up for synchronous vendors: the provider, then random hex, never the same twice. */
import { expect } from 'chai';
import { generatedTaskId } from '../../../src/kernel/plugin-sdk/index.js';

describe('plugin SDK: generated task ids', () => {
  it('names the provider, then 12 random bytes as hex', () => {
    expect(generatedTaskId('acme')).to.match(/^acme_[0-9a-f]{24}$/);
  });

  it('takes another length of random bytes', () => {
    expect(generatedTaskId('acme', 8)).to.match(/^acme_[0-9a-f]{16}$/);
  });

  it('gives a fresh id on every call', () => {
    const ids = new Set(Array.from({ length: 100 }, () => generatedTaskId('acme')));
    expect(ids.size).to.equal(100);
  });
});
