/**
 * Local synthesis is CPU-bound JavaScript and WASM; it runs in worker threads so that the process keeps
 * answering HTTP while it renders. Measured with the event loop's own delay histogram, as a share of the render
 * time (a ratio within one run, robust on a loaded machine): rendered on the event loop, the longest stall is the
 * whole render (1.5 s of 1.5 s before the change); off it, a few percent at most.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { expect } from 'chai';
import { createLocalHarness, type LocalHarness } from './local-harness.js';

/** The longest stall may be at most this share of the render time. */
const MAX_STALL_SHARE = 0.25;

describe('local plugin: synthesis off the event loop', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  for (const [operation, input] of [
    ['music.generate', { prompt: 'a long slow ambient piece', duration_seconds: 120 }],
    ['narration.generate', { text: 'The lighthouse keeper counted the waves every night. '.repeat(40), voice: 'en' }],
  ] as const) {
    it(`${operation} never stalls the event loop for more than a quarter of a render that takes over a second`, async () => {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      delay.enable();
      const started = performance.now();
      await harness.run(operation, { ...input });
      const elapsedMs = performance.now() - started;
      delay.disable();
      expect(elapsedMs, 'the render must be long enough to matter').to.be.greaterThan(1000);
      expect(delay.max / 1e6, `longest stall in ${Math.round(elapsedMs)} ms of rendering`).to.be.lessThan(elapsedMs * MAX_STALL_SHARE);
    });
  }
});
