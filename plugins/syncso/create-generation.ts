/**
 * POST v2/generate: a lip-sync generation from one video and one audio, both given by URL, answered with the
 * generation `{id, status: "PENDING", ...}` (https://sync.so/docs/api-reference/api/generate-api/create; body
 * per sync.'s SDK, synchronicity-labs/sync-typescript-sdk, CreateGenerationDto).
 *
 * The `Idempotency-Key` header names the one generation a request stands for: a create that timed out or is
 * retried after a lost answer returns the generation already made instead of paying for another
 * (https://sync.so/docs/api-reference/guides/idempotency). The key is our request id, the same on every
 * attempt by any worker, and within the documented 1-128 characters of [A-Za-z0-9._~-] (`req_` + base 36).
 */
import { ProviderError, type JsonObject, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './syncso-vendor.js';

export const CREATE_GENERATION_PATH = 'v2/generate';

/**
 * Our media fields -> sync.'s `input` items, in the order sync. lists them (one video, one audio). Both must
 * be hosted URLs (the spec: "Both video_url and audio_url must be hosted URLs"); sync. fetches them itself.
 * Not sent: video_duration and audio_duration (they price the request), video_title and audio_title (display).
 */
const MEDIA_INPUTS = [
  { field: 'video_url', type: 'video' },
  { field: 'audio_url', type: 'audio' },
] as const;

/**
 * What to do when the audio and the video differ in length: `cut_off` ends the output with the shorter input
 * (https://sync.so/docs/developer-guides/sync-mode), so nothing is looped, reversed or padded that the client
 * did not send, and the billed output is never longer than either input.
 */
const DEFAULT_SYNC_MODE = 'cut_off';

export function createGenerationBody(input: JsonObject, route: RoutedModel): JsonObject {
  return {
    model: route.vendorModel,
    input: MEDIA_INPUTS.map(({ field, type }) => ({ type, url: hostedUrl(input, field) })),
    options: { sync_mode: DEFAULT_SYNC_MODE },
  };
}

export function idempotencyHeaders(requestId: string): Record<string, string> {
  return { 'idempotency-key': requestId };
}

/** The hosted URL a media field holds; anything else fails the request at once. */
export function hostedUrl(input: JsonObject, field: string): string {
  const value = input[field];
  if (typeof value === 'string' && /^https?:\/\/[^/\s]+/.test(value)) return value;
  throw new ProviderError(`syncso: ${field} must be a hosted http(s) URL`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unsupported_input' });
}
