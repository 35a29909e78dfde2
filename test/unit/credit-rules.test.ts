import { expect } from 'chai';
import { priceRequest, settlePrice } from '../../src/kernel/credits/credit-rules.js';

describe('credit rules', () => {
  it('is base alone for a fixed price', () => {
    expect(priceRequest({ base: 1 }, { prompt: 'x' })).to.equal(1);
    expect(priceRequest({ base: 0 }, {})).to.equal(0);
  });

  it('adds per-unit terms, with defaults for absent fields, and multiplies lookups', () => {
    const rule = {
      base: 2,
      per: [{ field: 'duration', rate: 3, default: 5 }],
      multiply: [{ field: 'resolution', map: { '720p': 1, '1080p': 2 }, default: 1 }],
    };
    expect(priceRequest(rule, { duration: 4, resolution: '1080p' })).to.equal((2 + 12) * 2);
    expect(priceRequest(rule, {})).to.equal(2 + 15);
    expect(priceRequest(rule, { duration: 4, resolution: '8k' })).to.equal(14);
  });

  it('prices arrays by length, nested fields by dot path, counts numerically', () => {
    expect(priceRequest({ base: 0, per: [{ field: 'urls', rate: 2, measure: 'length' }] }, { urls: ['a', 'b', 'c'] })).to.equal(6);
    expect(priceRequest({ base: 1, per: [{ field: 'camera.zoom', rate: 1 }] }, { camera: { zoom: 3 } })).to.equal(4);
    expect(priceRequest({ base: 3, multiply: [{ field: 'n', numeric: true, default: 1 }] }, { n: 4 })).to.equal(12);
  });

  it('rounds up fractions without floating-point noise and clamps to min and max', () => {
    expect(priceRequest({ base: 0, per: [{ field: 's', rate: 0.1 }] }, { s: 30 })).to.equal(3);
    expect(priceRequest({ base: 0, per: [{ field: 's', rate: 0.25 }] }, { s: 5 })).to.equal(2);
    expect(priceRequest({ base: 0, min: 1 }, {})).to.equal(1);
    expect(priceRequest({ base: 500, max: 100 }, {})).to.equal(100);
  });
});

describe('settled prices', () => {
  const rule = {
    base: 1,
    per: [
      { field: 'video', rate: 0.5, default: 10 },
      { field: 'audio', rate: 0.5, default: 10 },
    ],
    multiply: [{ field: 'tier', map: { hd: 2 }, default: 1 }],
    settle: { replace: { video: 'output_seconds' as const, audio: 'output_seconds' as const } },
  };

  it('is the same rule over the input with each replaced field set to its measure', () => {
    // (1 + 0.5 × 3 + 0.5 × 3) × 2 = 8, where the quote was (1 + 5 + 5) × 2 = 22.
    expect(priceRequest(rule, { video: 10, tier: 'hd' })).to.equal(22);
    expect(settlePrice(rule, { video: 10, tier: 'hd' }, { output_seconds: 3 })).to.equal(8);
    expect(settlePrice(rule, { audio: 20 }, { output_seconds: 3.3 })).to.equal(5);
  });

  it('leaves the input it was given untouched', () => {
    const input = { video: 10, audio: 20 };
    settlePrice(rule, input, { output_seconds: 1 });
    expect(input).to.deep.equal({ video: 10, audio: 20 });
  });

  it('is undefined when nothing it names was measured, or the rule settles nothing', () => {
    expect(settlePrice(rule, { video: 10 }, {})).to.equal(undefined);
    expect(settlePrice({ base: 1, per: [{ field: 'video', rate: 1 }] }, { video: 10 }, { output_seconds: 3 })).to.equal(undefined);
  });
});
