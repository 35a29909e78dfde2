/**
 * Refusals a plugin makes before anything is sent or billed: input the routed model cannot honour (rendering
 * without it would hand the client something other than what was asked), or a vendor model the plugin does not
 * serve. Both are permanent, and the client reads the reason after the provider's name.
 */
import { ProviderError } from './provider-error.js';

/** Input the model cannot honour, e.g. reference images for a model that takes none. */
export function unsupportedInput(provider: string, reason: string): ProviderError {
  return new ProviderError(`${provider}: ${reason}`, { provider, retryable: false, vendorCode: 'unsupported_input' });
}

/** A manifest route names a vendor model this plugin does not know how to call. */
export function unsupportedModel(provider: string, reason: string): ProviderError {
  return new ProviderError(`${provider}: ${reason}`, { provider, retryable: false, vendorCode: 'unsupported_model' });
}
