export * from './contract.js';
export { ProviderError } from './provider-error.js';
export { createVendorHttp, parseRetryAfter, type VendorHttp, type VendorHttpOptions, type VendorRequest, type VendorResponse } from './vendor-http.js';
export { mapFields, pick, requireField, MalformedVendorResponse, type FieldMap, type FieldRule } from './field-map.js';
export { extensionForContentType, contentTypeForKey } from '../blobs/content-types.js';
export { apiKeyVendor, type ApiKeyVendor, type ApiKeyVendorConfig } from './api-key-vendor.js';
export { creditsFor, finishedAsset, imageGenerationOutput } from './finished-output.js';
export { describeOpenAIStyleError } from './error-bodies.js';
