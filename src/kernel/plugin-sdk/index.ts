export * from './contract.js';
export { ProviderError } from './provider-error.js';
export { createVendorHttp, parseRetryAfter, type StreamedBody, type SubmissionHooks, type VendorHttp, type VendorHttpOptions, type VendorRequest, type VendorResponse } from './vendor-http.js';
export { mapFields, pick, requireField, textAt, MalformedVendorResponse, type FieldMap, type FieldRule } from './field-map.js';
export { extensionForContentType, contentTypeForKey } from '../blobs/content-types.js';
export { apiKeyVendor, type ApiKeyVendor, type ApiKeyVendorConfig } from './api-key-vendor.js';
export { finishedAsset, imageGenerationOutput } from './finished-output.js';
export { describeFastApiError, describeGoogleApiError, describeOpenAIStyleError } from './error-bodies.js';
export { promptWithStyle, styleJoinsPrompt, styleJoinsPromptUnlessMapped } from './style-hint.js';
export { generatedTaskId } from './generated-task-id.js';
export { unsupportedInput, unsupportedModel } from './input-refusals.js';
export { askedVideoShape, failedVideoTask, videoTaskStatus, type AskedVideoShape, type VideoTaskView } from './polled-video.js';
export {
  ALLOWED_INPUT_FORMATS, filterValue, MediaToolError, probeMedia, runFfmpeg, runFfmpegToBuffer,
  type AudioStreamInfo, type MediaProbe, type MediaRunOptions, type VideoStreamInfo,
} from './media-tools.js';
export {
  currentMediaTools, locateMediaTools, MediaToolsMissing, startMediaTools, useMediaTools,
  type LocatedTool, type MediaToolchain, type MediaToolSettings,
} from './media-tool-binaries.js';
export { createGuardedFetch, OutboundFetchError, unreachableMessage, type GuardedFetch, type HostResolver, type OutboundRequest, type OutboundResponse } from './guarded-fetch.js';
export { addressRefusal, OutboundAllowList } from './outbound-address-policy.js';
