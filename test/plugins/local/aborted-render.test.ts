/**
 * `ctx.signal` stops a local render where it runs: the ffmpeg process is killed and the synthesis thread is
 * terminated, and `start` rejects at once with a retryable error (an abort comes from the kernel — a timeout, a
 * shutdown, a client's cancel — never from the media). The kernel side, a cancel reaching a running start, is
 * test/e2e/cancel-during-render.test.ts.
 */
import { expect } from 'chai';
import localPlugin from '../../../plugins/local/index.js';
import { moodOf } from '../../../plugins/local/audio/music-composer.js';
import { runOffThread } from '../../../plugins/local/off-thread/off-thread.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { childProcessesNamed } from '../../support/child-processes.js';
import { eventually } from '../../support/eventually.js';
import { createLocalHarness, TEST_ROUTE, type LocalHarness } from './local-harness.js';

describe('local plugin: an aborted render stops', () => {
  let harness: LocalHarness;
  before(async () => {
    // 60 fps: a 20-second 1080p clip takes many seconds, so the abort lands mid-render.
    harness = await createLocalHarness({ videoFps: 60 });
  });
  after(() => harness.cleanup());

  it('kills the ffmpeg of a video render and rejects at once, retryable', async () => {
    const abort = new AbortController();
    const render = localPlugin.operations['video.generate'].start(
      { prompt: 'a paper boat drifting down a rain gutter', duration: 20, resolution: '1080p', aspect_ratio: '16:9' },
      { ...harness.ctx, operation: 'video.generate', signal: abort.signal },
      TEST_ROUTE,
    );
    const outcome = render.then(
      () => undefined,
      (error: unknown) => error,
    );
    await eventually('ffmpeg to render', async () => ((await childProcessesNamed('ffmpeg')).length > 0 ? true : undefined));
    const abortedAt = performance.now();
    abort.abort(new Error('test abort'));
    const error = await outcome;
    expect(performance.now() - abortedAt, 'the render stops when aborted, not when done').to.be.lessThan(2_000);
    expect(ProviderError.is(error), String(error)).to.equal(true);
    expect((error as ProviderError).message).to.equal('media processing was interrupted');
    expect((error as ProviderError).retryable).to.equal(true);
    await eventually('no ffmpeg left running', async () => ((await childProcessesNamed('ffmpeg')).length === 0 ? true : undefined), 2_000);
  });

  it('terminates a synthesis thread and rejects once it has exited, retryable', async () => {
    const abort = new AbortController();
    // Ten minutes of music: seconds of synthesis, far more than the abort lets it run.
    const job = runOffThread('music', { seed: 7, durationSeconds: 600, mood: moodOf('calm'), loop: false, ambience: false }, abort.signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const abortedAt = performance.now();
    abort.abort();
    const error = (await job) as Error & { retryable?: boolean };
    expect(performance.now() - abortedAt).to.be.lessThan(1_000);
    expect(error).to.be.instanceOf(Error);
    expect(error.name).to.equal('AbortError');
    expect(error.message).to.equal('music synthesis was aborted');
    expect(error.retryable).to.equal(true);
  });
});
