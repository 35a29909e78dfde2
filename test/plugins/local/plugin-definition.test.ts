import { expect } from 'chai';
import localPlugin from '../../../plugins/local/index.js';
import { aspectOrientation, imageFrameSize, parseAspectRatio, videoFrameSize } from '../../../plugins/local/media/frame-size.js';
import { ALL_OPERATIONS } from '../../support/operation-catalogue.js';

describe('local plugin: definition', () => {
  it('serves the 18 operations of the spec and the 3 it only names, each finished in start', () => {
    expect(localPlugin.id).to.equal('local');
    expect(Object.keys(localPlugin.operations).sort()).to.deep.equal([...ALL_OPERATIONS].sort());
    for (const handler of Object.values(localPlugin.operations)) expect(handler.status).to.equal(undefined);
  });

  it('is enabled unless switched off, and has a small config schema with defaults', () => {
    expect(localPlugin.isEnabled({})).to.equal(true);
    expect(localPlugin.isEnabled({ enabled: false })).to.equal(false);
    expect(localPlugin.configSchema).to.deep.equal({
      type: 'object',
      additionalProperties: false,
      properties: {
        enabled: { type: 'boolean', default: true },
        maxInputBytes: { type: 'integer', minimum: 1024, default: 104857600 },
        videoFps: { type: 'integer', minimum: 1, maximum: 60, default: 12 },
        libraryDir: { type: 'string', minLength: 1 },
        renders: { type: 'integer', minimum: 1, default: 2 },
      },
    });
  });
});

describe('local plugin: frame sizes', () => {
  it('names the long side of images: 16:9 at 1K is 1024x576', () => {
    expect(imageFrameSize({ width: 16, height: 9 }, '1K')).to.deep.equal({ width: 1024, height: 576 });
    expect(imageFrameSize({ width: 9, height: 16 }, '2k')).to.deep.equal({ width: 1152, height: 2048 });
    expect(imageFrameSize({ width: 1, height: 1 }, '4K')).to.deep.equal({ width: 4096, height: 4096 });
    expect(imageFrameSize({ width: 3, height: 2 }, undefined)).to.deep.equal({ width: 1024, height: 683 });
  });

  it('names the short side of videos, always even', () => {
    expect(videoFrameSize({ width: 16, height: 9 }, '720p')).to.deep.equal({ width: 1280, height: 720 });
    expect(videoFrameSize({ width: 16, height: 9 }, '480p')).to.deep.equal({ width: 854, height: 480 });
    expect(videoFrameSize({ width: 9, height: 16 }, '1080p')).to.deep.equal({ width: 1080, height: 1920 });
    expect(videoFrameSize({ width: 21, height: 9 }, undefined)).to.deep.equal({ width: 1680, height: 720 });
  });

  it('reads ratios in the forms clients send', () => {
    expect(parseAspectRatio('16:9')).to.deep.equal({ width: 16, height: 9 });
    expect(parseAspectRatio('9x16')).to.deep.equal({ width: 9, height: 16 });
    expect(parseAspectRatio('portrait')).to.deep.equal({ width: 9, height: 16 });
    expect(parseAspectRatio('wide')).to.equal(undefined);
    expect(aspectOrientation({ width: 4, height: 3 })).to.equal('landscape');
  });
});
