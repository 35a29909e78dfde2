export * from './contract.js';
export { ProviderError } from './provider-error.js';
