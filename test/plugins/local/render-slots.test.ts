/**
 * The local provider bounds its own renders (`providers.local.renders`), so the worker may run many starts at once
 * without as many ffmpeg processes: a render beyond the bound waits for a slot, first come first served, an abort
 * ends the wait, and a text-only operation never waits behind a render.
 */
import { expect } from 'chai';
import localPlugin, { type LocalConfig } from '../../../plugins/local/index.js';
import { RenderSlots, renderSlotsFor } from '../../../plugins/local/render-slots.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { eventually } from '../../support/eventually.js';
import { createLocalHarness, TEST_ROUTE, type LocalHarness } from './local-harness.js';

/** A render the test finishes when it likes, recording when it began. */
function heldRender(log: string[], name: string) {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  return {
    finish: () => finish(),
    render: async () => {
      log.push(`${name} began`);
      await finished;
      return name;
    },
  };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('local plugin: render slots', () => {
  it('runs at most `size` renders at once and hands a freed slot to the longest waiter', async () => {
    const slots = new RenderSlots(2);
    const log: string[] = [];
    const renders = ['a', 'b', 'c', 'd'].map((name) => heldRender(log, name));
    const results = renders.map((held) => slots.run(new AbortController().signal, held.render));
    await settled();
    expect(log).to.deep.equal(['a began', 'b began']);
    expect(slots.queued).to.equal(2);

    renders[1].finish();
    await settled();
    expect(log).to.deep.equal(['a began', 'b began', 'c began']);
    // A start arriving now queues behind d, although no slot is idle for long.
    const late = heldRender(log, 'e');
    const lateResult = slots.run(new AbortController().signal, late.render);
    renders[0].finish();
    await settled();
    expect(log.slice(3)).to.deep.equal(['d began']);
    renders[2].finish();
    renders[3].finish();
    late.finish();
    expect(await Promise.all([...results, lateResult])).to.deep.equal(['a', 'b', 'c', 'd', 'e']);
    expect(slots.queued).to.equal(0);
  });

  it('frees the slot when a render fails', async () => {
    const slots = new RenderSlots(1);
    await slots.run(new AbortController().signal, () => Promise.reject(new Error('render failed'))).catch(() => undefined);
    expect(await slots.run(new AbortController().signal, async () => 'next')).to.equal('next');
  });

  it('ends a wait at the abort with a retryable error, and the waiter takes no slot', async () => {
    const slots = new RenderSlots(1);
    const log: string[] = [];
    const holder = heldRender(log, 'holder');
    const held = slots.run(new AbortController().signal, holder.render);
    const abort = new AbortController();
    const waiting = slots.run(abort.signal, heldRender(log, 'aborted').render).then(
      () => undefined,
      (error: unknown) => error,
    );
    const next = heldRender(log, 'next');
    const nextResult = slots.run(new AbortController().signal, next.render);
    await settled();
    expect(slots.queued).to.equal(2);

    abort.abort();
    const error = await waiting;
    expect(ProviderError.is(error), String(error)).to.equal(true);
    expect((error as ProviderError).message).to.equal('media processing was interrupted');
    expect((error as ProviderError).retryable).to.equal(true);
    expect(slots.queued).to.equal(1);

    holder.finish();
    next.finish();
    expect(await Promise.all([held, nextResult])).to.deep.equal(['holder', 'next']);
    expect(log).to.deep.equal(['holder began', 'next began']);
  });

  it('refuses a start whose signal is already aborted without running it', async () => {
    const slots = new RenderSlots(1);
    const abort = new AbortController();
    abort.abort();
    let ran = false;
    const error = await slots.run(abort.signal, async () => (ran = true)).catch((failure: unknown) => failure);
    expect(ProviderError.is(error)).to.equal(true);
    expect(ran).to.equal(false);
  });

  describe('in the plugin', () => {
    let harness: LocalHarness;
    before(async () => {
      harness = await createLocalHarness({ renders: 1 });
    });
    after(() => harness.cleanup());

    it('queues a second video behind the first while a text-only operation runs at once', async () => {
      const config: LocalConfig = harness.ctx.config;
      const video = (prompt: string) =>
        localPlugin.operations['video.generate'].start(
          { prompt, duration: 5, resolution: '720p', aspect_ratio: '16:9' },
          { ...harness.ctx, operation: 'video.generate' },
          TEST_ROUTE,
        );
      const first = video('a lighthouse in a storm at night');
      const second = video('a paper boat drifting down a rain gutter');
      const slots = renderSlotsFor(config);
      await eventually('the second video to wait for the slot', async () => (slots.queued === 1 ? true : undefined));

      const enhanced = await localPlugin.operations['prompt.enhance.video'].start(
        { prompt: 'a fox in the snow' },
        { ...harness.ctx, operation: 'prompt.enhance.video' },
        TEST_ROUTE,
      );
      expect(enhanced, 'the text-only operation finished while the video still waited').to.have.property('done');
      expect(slots.queued).to.equal(1);

      const results = await Promise.all([first, second]);
      for (const result of results) expect(result).to.have.nested.property('done.video_url');
      expect(slots.queued).to.equal(0);
    });
  });
});
