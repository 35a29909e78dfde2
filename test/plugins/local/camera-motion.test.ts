/**
 * A camera move is visible as motion between frames: the tests decode two frames of smartmotion.generate's
 * clip over a still and measure how far the picture moved.
 */
import { expect } from 'chai';
import { createLocalHarness, type LocalHarness } from './local-harness.js';
import { framePixels, horizontalShift, meanDifference, type Pixels } from './pixel-probes.js';

describe('local plugin: camera moves show as motion', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  async function firstAndLast(input: Record<string, unknown>): Promise<[Pixels, Pixels]> {
    const output = await harness.run('smartmotion.generate', { file_url: harness.urls.image, content_type: 'image/png', duration: 3, ...input });
    const path = harness.pathOf(String(output.video_url));
    return [await framePixels(path, 0.2), await framePixels(path, 2.8)];
  }

  it('panning right moves the picture left, panning left moves it right', async () => {
    const [rightStart, rightEnd] = await firstAndLast({ motion: 'pan_right' });
    const [leftStart, leftEnd] = await firstAndLast({ motion: 'pan_left' });
    expect(horizontalShift(rightStart, rightEnd, 80)).to.be.lessThan(-15);
    expect(horizontalShift(leftStart, leftEnd, 80)).to.be.greaterThan(15);
  });

  it('camera_control drives the same move as its preset', async () => {
    const [start, end] = await firstAndLast({ control_mode: 'camera_control', camera_control: { pan: 7 } });
    expect(horizontalShift(start, end, 80)).to.be.lessThan(-15);
  });

  it('a static camera holds the picture still', async () => {
    const [start, end] = await firstAndLast({ motion: 'static' });
    expect(horizontalShift(start, end, 80)).to.equal(0);
    expect(meanDifference(start, end)).to.be.lessThan(1.5);
  });
});
