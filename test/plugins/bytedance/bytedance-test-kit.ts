/**
 * What the bytedance tests share: the key, nock scopes that insist on the bearer key, and answers shaped like
 * ModelArk's documented ones: the ImagesResponse (https://docs.byteplus.com/en/docs/ModelArk/1541523; fields as
 * in byteplus-go-sdk-v2 service/arkruntime/model/images.go), the task object of the Retrieve call (the official
 * cURL response of https://ai.byteplus.com/ark/region:ap-southeast-1/docs/get-video-generation-task-api, with the
 * Seedance 1.0 Pro model) and the error body of https://docs.byteplus.com/en/docs/ModelArk/1299023.
 */
import nock from 'nock';
import bytedancePlugin from '../../../plugins/bytedance/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { useHarnessPerTest } from '../../support/vendor-conformance.js';
export { failure, HOSTED_URL } from '../../support/vendor-conformance.js';

export const API = 'https://ark.ap-southeast.bytepluses.com';
export const KEY = 'ark-test-not-a-real-key';
export const CONFIG = { api_key: KEY };
export const IMAGES_PATH = '/api/v3/images/generations';
export const TASKS_PATH = '/api/v3/contents/generations/tasks';
export const TASK_ID = 'cgt-20250826150347-h7kq2';
export const TASK_PATH = `${TASKS_PATH}/${TASK_ID}`;
/** Where the tests' input images live; the failure suite recognises input interceptors by `/inputs/`. */
export const INPUTS = 'https://images.example';

/** ModelArk's result storage; results are signed links valid for 24 hours. */
export const TOS = 'https://ark-content-generation-ap-southeast-1.tos-ap-southeast-1.volces.com';
export const TOS_QUERY = { 'X-Tos-Algorithm': 'TOS4-HMAC-SHA256', 'X-Tos-Expires': '86400', 'X-Tos-Signature': 'c2lnbmF0dXJl' };
export const MP4 = Buffer.from('\x00\x00\x00\x1cftypisom seedance clip bytes');

/** Every call carries the bearer key. */
export function arkApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

/** A signed result URL on ModelArk's storage, and the interceptor that serves `bytes` there. */
export function tosFile(path: string, bytes: Buffer): string {
  nock(TOS).get(path).query(TOS_QUERY).reply(200, bytes, { 'content-type': 'application/octet-stream' });
  return `${TOS}${path}?${new URLSearchParams(TOS_QUERY).toString()}`;
}

/** An ImagesResponse holding `items` (each `{ url, size }` or `{ error }`). */
export function imagesResponse(items: Record<string, unknown>[]): Record<string, unknown> {
  const generated = items.filter((item) => 'url' in item).length;
  return {
    model: 'seedream-4-0-250828',
    created: 1757469067,
    data: items,
    usage: { generated_images: generated, output_tokens: 16384 * generated, total_tokens: 16384 * generated },
  };
}

/** The create answer. */
export function created(id = TASK_ID): Record<string, unknown> {
  return { id };
}

/** A task as the Retrieve call returns it; `extra` adds to or replaces its fields. */
export function taskAnswer(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: TASK_ID,
    model: 'seedance-1-0-pro-250528',
    status,
    created_at: 1756191827,
    updated_at: 1756191881,
    seed: 10,
    resolution: '1080p',
    ratio: '16:9',
    duration: 5,
    framespersecond: 24,
    service_tier: 'default',
    execution_expires_after: 172800,
    ...extra,
  };
}

/** A finished task whose clip is served at `videoUrl`. */
export function succeeded(videoUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return taskAnswer('succeeded', { content: { video_url: videoUrl }, usage: { completion_tokens: 246840, total_tokens: 246840 }, ...extra });
}

/** ModelArk's documented 401 for a bad key. */
export const AUTHENTICATION_ERROR = {
  error: {
    code: 'AuthenticationError',
    message: 'The API key or AK/SK in the request is missing or invalid. Request id: 021756191827095e3b0b1c5c1fd8b0b9e2b5d27c0b5d3a7a3b8e2',
    param: '',
    type: 'Unauthorized',
  },
};

/** No real network; a fresh harness per test (breaker settings as given). */
export function useBytedanceHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  return useHarnessPerTest(bytedancePlugin, CONFIG, breaker);
}
