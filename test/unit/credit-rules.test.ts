import { expect } from 'chai';
import { priceRequest } from '../../src/kernel/credits/credit-rules.js';

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
