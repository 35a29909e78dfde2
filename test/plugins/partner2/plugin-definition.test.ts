import { expect } from 'chai';
import nock from 'nock';
import partner2 from '../../../plugins/partner2/index.js';
import { describePartner2Error } from '../../../plugins/partner2/partner2-vendor.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { describePluginBasics, failure, useNock } from '../../support/vendor-conformance.js';
import { API_KEY, CONFIG, videoObject, videosApi } from './partner2-test-kit.js';

// No cancel: DELETE only deletes finished videos. No reconcile: the Videos API takes no idempotency key or id of ours.
describePluginBasics(partner2, {
  operations: ['partner2.character.create'],
  polled: ['partner2.video.edit', 'partner2.video.generate_with_characters', 'partner2.video.remix', 'video.generate'],
  defaultBaseUrl: 'https://api.openai.com',
  // Finished 20 s clips and 100 MB character sources take longer than the SDK's 60 s default.
  defaultTimeoutMs: 180_000,
  config: CONFIG,
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
