/**
 * The settle rules of the product manifests: which operations settle, and what each one settles to from the usage
 * its providers report — the same credit rule as the quote, with the measured values in place of the declared ones.
 * The inputs go through the manifest's defaults and validation first, exactly as a create prices them.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../../src/kernel/config/index.js';
import { settleOutput, settlePrice } from '../../../src/kernel/credits/index.js';
import { loadManifests, OperationRegistry } from '../../../src/kernel/manifests/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';

describe('settle rules of the product manifests', () => {
  let registry: OperationRegistry;
  before(async () => {
    registry = new OperationRegistry(await loadManifests([join(projectRoot, 'manifests/operations')]));
  });

  /** The quote of `input` and its settled price for `usage`, as the finisher computes them. */
  function settle(operation: string, input: JsonObject, usage: JsonObject): { quote: number; settled: number | undefined } {
    const definition = registry.require(operation);
    const prepared = definition.prepare(input);
    return { quote: prepared.credits, settled: settlePrice(definition.manifest.credits, prepared.input, usage) };
  }

  it('settles exactly the operations whose price is an estimate from declared lengths', () => {
    const settled = registry.all().filter((definition) => definition.manifest.credits.settle).map((definition) => [definition.name, definition.manifest.credits.settle]);
    expect(settled).to.deep.equal([
      ['lipsync.generate', { replace: { video_duration: 'output_seconds', audio_duration: 'output_seconds' } }],
      ['video.upscale', { replace: { duration_seconds: 'output_seconds' } }],
    ]);
  });

  describe('video.upscale: the measured seconds replace duration_seconds, every factor stays', () => {
    const video = 'https://example.com/v.mp4';
    const cases: [string, JsonObject, number, number, number][] = [
      // input, measured seconds, quote, settled
      ['bytedance-upscaler 1080p, length not declared (10 s assumed)', { video_url: video }, 4.2, 10, 5],
      ['bytedance-upscaler 4k, declared 10 s, measured 12.5 s', { video_url: video, duration_seconds: 10, target_resolution: '4k' }, 12.5, 40, 50],
      ['topaz-proteus 4x, declared 10 s, measured 3 s', { video_url: video, duration_seconds: 10, model: 'topaz-proteus', upscale_factor: 4 }, 3, 60, 18],
      ['topaz-starlight 60 fps, declared 2 s, measured 2.04 s', { video_url: video, duration_seconds: 2, model: 'topaz-starlight', target_fps: 60 }, 2.04, 32, 33],
      ['a very short clip is held at the minimum of 2', { video_url: video, duration_seconds: 5 }, 0.4, 5, 2],
    ];
    for (const [name, input, seconds, quote, settled] of cases) {
      it(`${name}: ${quote} quoted, ${settled} settled`, () => {
        expect(settle('video.upscale', input, { output_seconds: seconds })).to.deep.equal({ quote, settled });
      });
    }
  });

  describe('lipsync.generate: the billed output seconds replace both declared lengths', () => {
    const input = { video_url: 'https://example.com/v.mp4', audio_url: 'https://example.com/a.wav' };
    const cases: [string, JsonObject, number, number, number][] = [
      ['nothing declared (10 s + 10 s assumed), 9.98 s billed', input, 9.98, 15, 15],
      ['20 s + 18 s declared, 18.2 s billed', { ...input, video_duration: 20, audio_duration: 18 }, 18.2, 29, 28],
      ['3 s + 3 s declared, 24 s billed', { ...input, video_duration: 3, audio_duration: 3 }, 24, 5, 36],
      ['a very short output is held at the minimum of 3', input, 0.8, 15, 3],
    ];
    for (const [name, given, seconds, quote, settled] of cases) {
      it(`${name}: ${quote} quoted, ${settled} settled`, () => {
        expect(settle('lipsync.generate', given, { output_seconds: seconds })).to.deep.equal({ quote, settled });
      });
    }
  });

  it('settles nothing when the provider measured nothing: the quote stands and the output says so', () => {
    const definition = registry.require('lipsync.generate');
    const prepared = definition.prepare({ video_url: 'https://example.com/v.mp4', audio_url: 'https://example.com/a.wav', video_duration: 4 });
    const quote = { input: prepared.input as JsonObject, billableCredits: prepared.credits };
    expect(settlePrice(definition.manifest.credits, prepared.input, {})).to.equal(undefined);
    expect(settleOutput(definition.manifest.credits, quote, { status: 'succeeded' })).to.deep.equal({ output: { status: 'succeeded', exact_cost_credits: 11 }, exactCost: undefined });
  });

  it('settles nothing on an operation without a settle rule, whatever usage is reported', () => {
    const definition = registry.require('video.generate');
    const prepared = definition.prepare({ prompt: 'a paper boat' });
    expect(settlePrice(definition.manifest.credits, prepared.input, { output_seconds: 12 })).to.equal(undefined);
    const settlement = settleOutput(definition.manifest.credits, { input: prepared.input as JsonObject, billableCredits: prepared.credits }, { status: 'succeeded', usage: { output_seconds: 12 } });
    expect(settlement).to.deep.equal({ output: { status: 'succeeded', usage: { output_seconds: 12 } } });
  });
});
