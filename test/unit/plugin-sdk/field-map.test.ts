/** `textAt`: the non-blank string at a path of a vendor answer, trimmed; anything else is absent. */
import { expect } from 'chai';
import { textAt } from '../../../src/kernel/plugin-sdk/index.js';

describe('plugin SDK: textAt', () => {
  const answer = { output: { message: '  content blocked ', code: '', count: 3, items: [{ reason: 'nsfw' }] } };

  it('reads a nested string, trimmed, array indexes included', () => {
    expect(textAt(answer, 'output.message')).to.equal('content blocked');
    expect(textAt(answer, 'output.items.0.reason')).to.equal('nsfw');
  });

  it('gives undefined for a blank string, another type, or a missing path', () => {
    expect(textAt(answer, 'output.code')).to.equal(undefined);
    expect(textAt(answer, 'output.count')).to.equal(undefined);
    expect(textAt(answer, 'output.missing.deeper')).to.equal(undefined);
    expect(textAt(undefined, 'output')).to.equal(undefined);
  });
});
