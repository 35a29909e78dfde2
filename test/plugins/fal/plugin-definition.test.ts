/** What the fal plugin says about itself: its operations, settings and error reading. */
import { expect } from 'chai';
import falPlugin from '../../../plugins/fal/index.js';
import { describeFalError } from '../../../plugins/fal/fal-vendor.js';
import { queueAppId } from '../../../plugins/fal/fal-queue.js';
import { KEY } from './fal-test-kit.js';

describe('fal plugin: definition', () => {
  it('serves subtitles, video-context sound effects and upscaling, each as a cancellable queue task', () => {
    expect(Object.keys(falPlugin.operations).sort()).to.deep.equal(['soundfx.generate', 'subtitles.generate', 'video.upscale']);
    for (const handler of Object.values(falPlugin.operations)) {
      expect(handler.status).to.be.a('function');
      expect(handler.cancel).to.be.a('function');
    }
  });

  it('is enabled only with an API key', () => {
    expect(falPlugin.isEnabled({})).to.equal(false);
    expect(falPlugin.isEnabled({ api_key: '' })).to.equal(false);
    expect(falPlugin.isEnabled({ api_key: KEY })).to.equal(true);
  });

  it('has snake_case settings with the queue URL as default, and no prices', () => {
    const properties = falPlugin.configSchema.properties as Record<string, { default?: unknown }>;
    expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
    expect(properties.base_url.default).to.equal('https://queue.fal.run');
    expect(falPlugin.configSchema).to.deep.include({ additionalProperties: false });
  });
});

describe('fal plugin: queue app ids', () => {
  it('drops the endpoint path: status and results live under owner/app', () => {
    expect(queueAppId('fal-ai/bytedance-upscaler/upscale/video')).to.equal('fal-ai/bytedance-upscaler');
    expect(queueAppId('mirelo-ai/sfx-v1.5/video-to-video')).to.equal('mirelo-ai/sfx-v1.5');
    expect(queueAppId('fal-ai/topaz/upscale/video')).to.equal('fal-ai/topaz');
    expect(queueAppId('fal-ai/auto-caption')).to.equal('fal-ai/auto-caption');
  });

  it('keeps the app segment of the workflows and comfy namespaces', () => {
    expect(queueAppId('workflows/acme/captioner/run')).to.equal('workflows/acme/captioner');
    expect(queueAppId('comfy/acme/upscale')).to.equal('comfy/acme/upscale');
  });
});

describe('fal plugin: error bodies', () => {
  it('reads a request error, a model error list and a plain message', () => {
    expect(describeFalError({ detail: 'Request timed out', error_type: 'request_timeout' })).to.deep.equal({ message: 'Request timed out', code: 'request_timeout' });
    expect(
      describeFalError({
        detail: [
          { loc: ['body', 'target_resolution'], msg: "Input should be '1080p', '2k' or '4k'", type: 'enum' },
          { loc: ['body'], msg: 'Content policy violation', type: 'content_policy_violation' },
        ],
      }),
    ).to.deep.equal({ message: "target_resolution: Input should be '1080p', '2k' or '4k'; Content policy violation", code: 'enum' });
    expect(describeFalError({ message: 'User is locked. Reason: Exhausted balance.' })).to.deep.equal({ message: 'User is locked. Reason: Exhausted balance.', code: undefined });
    expect(describeFalError('<html>Bad gateway</html>')).to.deep.equal({ code: undefined });
  });
});
