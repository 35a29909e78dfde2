import { expect } from 'chai';
import nock from 'nock';
import partner2 from '../../../plugins/partner2/index.js';
import { describePartner2Error } from '../../../plugins/partner2/partner2-vendor.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { failure, useNock } from '../../support/vendor-conformance.js';
import { API_KEY, CONFIG, videoObject, videosApi } from './partner2-test-kit.js';

describe('partner2 plugin: definition', () => {
  it('serves the partner2 family and partner-2 video.generate; only character.create finishes in start', () => {
    expect(Object.keys(partner2.operations).sort()).to.deep.equal([
      'partner2.character.create',
      'partner2.video.edit',
      'partner2.video.generate_with_characters',
      'partner2.video.remix',
      'video.generate',
    ]);
    const polled = Object.entries(partner2.operations).filter(([, handler]) => handler.status !== undefined).map(([operation]) => operation);
    expect(polled.sort()).to.deep.equal(['partner2.video.edit', 'partner2.video.generate_with_characters', 'partner2.video.remix', 'video.generate']);
  });

  it('is enabled only with an API key', () => {
    expect(partner2.isEnabled({})).to.equal(false);
    expect(partner2.isEnabled({ api_key: '' })).to.equal(false);
    expect(partner2.isEnabled({ base_url: 'https://videos.example' })).to.equal(false);
    expect(partner2.isEnabled(CONFIG)).to.equal(true);
  });

  it('has snake_case settings, OpenAI as the default base URL and a longer default timeout for video files', () => {
    const schema = partner2.configSchema as { additionalProperties: boolean; properties: Record<string, { default?: unknown }> };
    expect(schema.additionalProperties).to.equal(false);
    expect(schema.properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
    expect(schema.properties.base_url.default).to.equal('https://api.openai.com');
    expect(schema.properties.timeout_ms.default).to.equal(180_000);
  });
});

describe('partner2 plugin: base URL and error reading', () => {
  useNock();
  let harness: PluginHarness;
  afterEach(() => harness.close());

  it('calls a compatible server under its own path prefix when base_url has one', async () => {
    harness = await createPluginHarness(partner2, { api_key: API_KEY, base_url: 'https://videos.example/openai' });
    const compatible = nock('https://videos.example', { reqheaders: { authorization: `Bearer ${API_KEY}` } })
      .post('/openai/v1/videos', { model: 'sora-2', prompt: 'a fox', seconds: '4', size: '1280x720' })
      .reply(200, videoObject('video_compat1', 'queued'));

    const result = await harness.start('video.generate', { prompt: 'a fox', model: 'partner-2' }, 'partner-2');

    expect(result).to.deep.equal({ task: { taskId: 'video_compat1', state: { output: { duration: 4, aspect_ratio: '16:9' } } } });
    expect(compatible.isDone()).to.equal(true);
  });

  it('treats a 429 that means "no credits left" as permanent, without waiting', async () => {
    harness = await createPluginHarness(partner2, CONFIG);
    const quota = {
      error: { message: 'You exceeded your current quota, please check your plan and billing details.', type: 'insufficient_quota', param: null, code: 'insufficient_quota' },
    };
    videosApi().post('/v1/videos').reply(429, quota, { 'Retry-After': '7' });

    const error = await failure(harness.start('video.generate', { prompt: 'a fox', model: 'partner-2' }, 'partner-2'));

    expect(error.retryable).to.equal(false);
    expect(error.details.vendorStatus).to.equal(429);
    expect(error.message).to.contain(quota.error.message);
    expect(harness.sleeps).to.deep.equal([]);
  });

  it('reads every billing code as permanent and a rate limit as retryable', () => {
    for (const code of ['credit_balance_exhausted', 'organization_spend_limit_exceeded', 'project_spend_limit_exceeded', 'organization_usage_limit_exceeded']) {
      expect(describePartner2Error({ error: { message: 'billing', type: 'insufficient_quota', param: null, code } }, 429)).to.deep.equal({ message: 'billing', code, retryable: false });
    }
    expect(describePartner2Error({ error: { message: 'slow down', type: 'requests', param: null, code: 'rate_limit_exceeded' } }, 429)).to.deep.equal({
      message: 'slow down',
      code: 'rate_limit_exceeded',
    });
    expect(describePartner2Error('Bad Gateway', 502)).to.deep.equal({});
  });
});
