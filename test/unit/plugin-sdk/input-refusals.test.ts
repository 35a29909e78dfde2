/** Refusals made before any vendor call: permanent ProviderErrors with the provider's name and a stable code. */
import { expect } from 'chai';
import { ProviderError, unsupportedInput, unsupportedModel } from '../../../src/kernel/plugin-sdk/index.js';

describe('plugin SDK: input refusals', () => {
  it('refuses input the model cannot honour, permanently, with the reason after the provider', () => {
    const error = unsupportedInput('acme', 'acme-1 takes no reference images');
    expect(ProviderError.is(error)).to.equal(true);
    expect(error.message).to.equal('acme: acme-1 takes no reference images');
    expect(error.details).to.deep.equal({ provider: 'acme', retryable: false, vendorCode: 'unsupported_input' });
  });

  it('refuses a vendor model the plugin does not serve, permanently', () => {
    const error = unsupportedModel('acme', 'cannot render with acme-0: this plugin serves acme-1 only');
    expect(error.message).to.equal('acme: cannot render with acme-0: this plugin serves acme-1 only');
    expect(error.details).to.deep.equal({ provider: 'acme', retryable: false, vendorCode: 'unsupported_model' });
  });
});
