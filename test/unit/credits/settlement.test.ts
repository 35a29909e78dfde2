/**
 * How the finisher reads a plugin's output for pricing (kernel/credits/settlement.ts): usage is checked and kept,
 * a credit figure of the plugin's own is dropped, and `exact_cost_credits` is the gateway's to write.
 */
import { expect } from 'chai';
import { readUsage, settleOutput } from '../../../src/kernel/credits/index.js';
import type { CreditRule } from '../../../src/kernel/manifests/index.js';

/** 2 credits a second, 4 s assumed, at least 3; settled on the measured seconds. */
const METERED: CreditRule = { base: 0, per: [{ field: 'seconds', rate: 2, default: 4 }], min: 3, settle: { replace: { seconds: 'output_seconds' } } };
const FLAT: CreditRule = { base: 5 };
const quote = { input: { prompt: 'x', seconds: 10 }, billableCredits: 20 };

describe('settling a plugin output', () => {
  it('re-prices by the rule on the measured usage, and writes the price into the output', () => {
    expect(settleOutput(METERED, quote, { echo: 'x', usage: { output_seconds: 6.2 } })).to.deep.equal({
      output: { echo: 'x', usage: { output_seconds: 6.2 }, exact_cost_credits: 13 },
      exactCost: 13,
    });
  });

  it('drops a credit figure the plugin wrote: the rule prices, not the plugin', () => {
    expect(settleOutput(METERED, quote, { echo: 'x', usage: { output_seconds: 2 }, exact_cost_credits: 1 })).to.deep.equal({
      output: { echo: 'x', usage: { output_seconds: 2 }, exact_cost_credits: 4 },
      exactCost: 4,
    });
    expect(settleOutput(FLAT, quote, { echo: 'x', exact_cost_credits: 1 })).to.deep.equal({ output: { echo: 'x' } });
  });

  it('keeps the quote when nothing was measured, or when the stored input is gone', () => {
    expect(settleOutput(METERED, quote, { echo: 'x' })).to.deep.equal({ output: { echo: 'x', exact_cost_credits: 20 }, exactCost: undefined });
    expect(settleOutput(METERED, { input: null, billableCredits: 20 }, { usage: { output_seconds: 2 } })).to.deep.equal({
      output: { usage: { output_seconds: 2 }, exact_cost_credits: 20 },
      exactCost: undefined,
    });
  });

  it('refuses malformed usage, naming the measure (the request then fails as malformed output, refunded)', () => {
    expect(settleOutput(METERED, quote, { usage: { output_seconds: -1 } })).to.deep.equal({ problem: 'usage.output_seconds must be a non-negative number' });
    expect(settleOutput(METERED, quote, { usage: { output_seconds: '12' } })).to.deep.equal({ problem: 'usage.output_seconds must be a non-negative number' });
    expect(settleOutput(FLAT, quote, { usage: { billed_seconds: 12 } })).to.deep.equal({ problem: 'usage.billed_seconds is not a known measure (output_seconds)' });
    expect(settleOutput(FLAT, quote, { usage: [12] })).to.deep.equal({ problem: 'usage must be an object of measures' });
  });

  it('reads absent usage as nothing measured', () => {
    expect(readUsage(undefined)).to.deep.equal({ usage: {} });
    expect(readUsage({})).to.deep.equal({ usage: {} });
    expect(readUsage({ output_seconds: 0 })).to.deep.equal({ usage: { output_seconds: 0 } });
    expect(readUsage(null)).to.deep.equal({ problem: 'usage must be an object of measures' });
  });
});
