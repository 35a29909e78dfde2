/**
 * The end of a polled video task: pending with any progress, failed with the vendor's message, or finished with
 * the MP4 hosted and the length and shape stated, from the vendor's answer where it gives them and else from
 * what `start` kept with the task (or the vendor's defaults).
 */
import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { askedVideoShape, failedVideoTask, videoTaskStatus, type ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { createFakePluginContext, FAKE_STORAGE_URL, type FakePluginContext } from '../../support/fake-plugin-context.js';

const HEAD = { taskId: 'task-1', provider: 'acme', model: 'acme-video' };
const DEFAULTS = { durationSeconds: 5, aspectRatio: '16:9' };
const MP4 = Buffer.from('\x00\x00\x00\x18ftypisom acme clip');

describe('plugin SDK: polled video tasks', () => {
  let ctx: FakePluginContext<unknown>;
  let clipUrl: string;
  beforeEach(async () => {
    ctx = await createFakePluginContext();
    const path = join(ctx.root, 'clip.bin');
    await writeFile(path, MP4);
    clipUrl = pathToFileURL(path).href;
  });
  afterEach(() => ctx.cleanup());

  it('reports a pending task with the vendor\'s progress, or none', async () => {
    expect(await videoTaskStatus({ state: 'pending', progress: 40 }, ctx, HEAD, DEFAULTS)).to.deep.equal({ pending: { progress: 40 } });
    expect(await videoTaskStatus({ state: 'pending' }, ctx, HEAD, DEFAULTS)).to.deep.equal({ pending: {} });
    expect(ctx.hosted).to.deep.equal([]);
  });

  it('reports a failed task with the vendor\'s message', async () => {
    expect(await videoTaskStatus({ state: 'failed', message: 'acme: content blocked' }, ctx, HEAD, DEFAULTS)).to.deep.equal({ failed: 'acme: content blocked' });
  });

  it('hosts the finished clip as MP4 and states the length and shape the vendor reports', async () => {
    const result = await videoTaskStatus({ state: 'succeeded', videoUrl: clipUrl, durationSeconds: 10, aspectRatio: '9:16' }, ctx, HEAD, DEFAULTS);

    expect(ctx.hosted).to.have.length(1);
    const [hosted] = ctx.hosted;
    expect(hosted.contentType).to.equal('video/mp4');
    expect(hosted.url).to.match(new RegExp(`^${FAKE_STORAGE_URL}/req_[0-9a-f]+/[0-9a-f]{16}\\.mp4$`));
    expect(result).to.deep.equal({
      done: { task_id: 'task-1', asset_type: 'video', status: 'succeeded', provider: 'acme', model: 'acme-video', video_url: hosted.url, duration: 10, aspect_ratio: '9:16' },
    });
  });

  it('states the asked length and shape where the vendor reports none', async () => {
    const result = await videoTaskStatus({ state: 'succeeded', videoUrl: clipUrl }, ctx, HEAD, { durationSeconds: 8, aspectRatio: '1:1' });

    expect(result).to.have.nested.property('done.duration', 8);
    expect(result).to.have.nested.property('done.aspect_ratio', '1:1');
  });

  it('reads a failed task\'s message and code where the vendor puts them, with a stand-in for a missing message', () => {
    const at = { message: 'error.message', code: 'error.code' };
    expect(failedVideoTask('acme', { error: { message: ' Output blocked. ', code: 'OutputImageSensitiveContentDetected' } }, at)).to.deep.equal({
      state: 'failed',
      message: 'acme: Output blocked. (OutputImageSensitiveContentDetected)',
    });
    expect(failedVideoTask('acme', { error: { message: 'Output blocked.', code: '' } }, at)).to.deep.equal({ state: 'failed', message: 'acme: Output blocked.' });
    expect(failedVideoTask('acme', {}, at)).to.deep.equal({ state: 'failed', message: 'acme: the task failed without a message' });
  });

  it('reads the asked length and shape from the task state, each falling back to the vendor\'s default', () => {
    const task = (state?: ProviderTask['state']): ProviderTask => ({ taskId: 'task-1', state });
    expect(askedVideoShape(task({ duration: 10, aspect_ratio: '9:16' }), DEFAULTS)).to.deep.equal({ durationSeconds: 10, aspectRatio: '9:16' });
    expect(askedVideoShape(task({ duration: 10, aspect_ratio: null }), DEFAULTS)).to.deep.equal({ durationSeconds: 10, aspectRatio: '16:9' });
    expect(askedVideoShape(task({ duration: '10' }), DEFAULTS)).to.deep.equal(DEFAULTS);
    expect(askedVideoShape(task(), DEFAULTS)).to.deep.equal(DEFAULTS);
  });
});
