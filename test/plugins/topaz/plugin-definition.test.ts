import { expect } from 'chai';
import topazPlugin from '../../../plugins/topaz/index.js';
import { KEY } from './topaz-test-kit.js';

describe('topaz plugin: definition', () => {
  it('serves video.upscale as a task that is polled and can be cancelled', () => {
    expect(Object.keys(topazPlugin.operations)).to.deep.equal(['video.upscale']);
    const handler = topazPlugin.operations['video.upscale'];
    expect([typeof handler.start, typeof handler.status, typeof handler.cancel]).to.deep.equal(['function', 'function', 'function']);
  });

  it('is enabled only with an API key', () => {
    expect(topazPlugin.isEnabled({})).to.equal(false);
    expect(topazPlugin.isEnabled({ api_key: '' })).to.equal(false);
    expect(topazPlugin.isEnabled({ api_key: KEY })).to.equal(true);
  });

  it('has snake_case settings with Topaz\'s base URL and documented defaults, and no prices', () => {
    const properties = topazPlugin.configSchema.properties as Record<string, { default?: unknown }>;
    expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms', 'max_input_bytes', 'max_output_bytes');
    expect(properties.base_url.default).to.equal('https://api.topazlabs.com');
    expect(properties.max_input_bytes.default).to.equal(500_000_000);
    expect(properties.max_output_bytes.default).to.equal(1_000_000_000);
    expect(topazPlugin.configSchema).to.deep.include({ additionalProperties: false });
  });
});
