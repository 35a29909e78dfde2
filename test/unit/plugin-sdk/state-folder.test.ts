/**
 * `ctx.stateDir()`: a plugin's own folder under the gateway's data folder (the harness's `plugin-state`), the same on
 * every call, so what a plugin remembers there outlives the call (and the process: the folder is on disk).
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { definePlugin } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';

// Counts its calls in a file of its state folder, and says where that folder is.
const counter = definePlugin({
  id: 'counter',
  configSchema: { type: 'object' },
  isEnabled: () => true,
  operations: {
    'image.generate': {
      async start(_input, ctx) {
        const dir = await ctx.stateDir();
        const file = join(dir, 'calls');
        const calls = Number(await readFile(file, 'utf8').catch(() => '0')) + 1;
        await writeFile(file, String(calls));
        return { done: { dir, calls } };
      },
    },
  },
});

describe('a plugin state folder (ctx.stateDir)', () => {
  let harness: PluginHarness;
  before(async () => {
    harness = await createPluginHarness(counter, {});
  });
  after(() => harness.close());

  it('is <state root>/<plugin id>, made on first use, and the same folder on every call', async () => {
    const first = await harness.start('image.generate', { prompt: 'one' });
    const second = await harness.start('image.generate', { prompt: 'two' });
    if (!('done' in first) || !('done' in second)) throw new Error('the counter plugin answers at once');
    expect(first.done.dir).to.match(/\/plugin-state\/counter$/);
    expect((await stat(String(first.done.dir))).isDirectory()).to.equal(true);
    expect(second.done).to.deep.equal({ dir: first.done.dir, calls: 2 });
  });
});
