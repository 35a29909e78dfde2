import { expect } from 'chai';
import bytedancePlugin from '../../../plugins/bytedance/index.js';
import { describeArkError } from '../../../plugins/bytedance/ark-vendor.js';
import { describePluginBasics } from '../../support/vendor-conformance.js';
import { API, KEY } from './bytedance-test-kit.js';

// Seedance tasks can be cancelled while queued; nothing reconciles (ModelArk takes no idempotency key or id of ours).
describePluginBasics(bytedancePlugin, {
  operations: ['image.generate', 'image.edit'],
  polled: ['video.generate'],
  cancellable: ['video.generate'],
  defaultBaseUrl: API,
  // Seedream answers synchronously, and a 4K render takes well over the SDK's 60 s default.
  defaultTimeoutMs: 180_000,
  config: { api_key: KEY },
});

describe('bytedance plugin: error body', () => {
  it('reads ModelArk\'s error body; only an exhausted quota makes a 429 permanent', () => {
    const body = (code: string) => ({ error: { code, message: 'm', param: '', type: 'TooManyRequests' } });
    expect(describeArkError(body('ModelQuotaExhausted'), 429)).to.deep.equal({ message: 'm', code: 'ModelQuotaExhausted', retryable: false });
    expect(describeArkError(body('RateLimitExceeded.EndpointRPMExceeded'), 429)).to.deep.equal({ message: 'm', code: 'RateLimitExceeded.EndpointRPMExceeded' });
    expect(describeArkError(body('ModelQuotaExhausted'), 400)).to.deep.equal({ message: 'm', code: 'ModelQuotaExhausted' });
    expect(describeArkError('Bad Gateway', 502)).to.deep.equal({});
  });
});
