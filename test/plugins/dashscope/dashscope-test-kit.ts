/**
 * What the DashScope tests share: the key, nock scopes that insist on the documented headers, the answers
 * DashScope documents (https://docs.qwencloud.com/api-reference/video-generation/wan-text-to-video/query-result)
 * and a harness per test.
 */
import nock from 'nock';
import dashScopePlugin from '../../../plugins/dashscope/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { useHarnessPerTest } from '../../support/vendor-conformance.js';
export { failure, HOSTED_URL } from '../../support/vendor-conformance.js';

export const API = 'https://dashscope-intl.aliyuncs.com';
export const KEY = 'sk-test-not-a-real-key';
export const CONFIG = { api_key: KEY };
export const SUBMIT_PATH = '/api/v1/services/aigc/video-generation/video-synthesis';
export const KEYFRAME_PATH = '/api/v1/services/aigc/image2video/video-synthesis';
export const TASK_ID = '0385dc79-5ff8-4d82-bcb6-6f9e3a1b2c4d';
export const OSS = 'https://dashscope-result-sgp.oss-ap-southeast-1.aliyuncs.com';
export const VIDEO_PATH = '/1d/7f/20260715/a3c9e1f2/0385dc79-5ff8-4d82-bcb6-6f9e3a1b2c4d.mp4';
export const VIDEO_QUERY = { Expires: '1784160000', OSSAccessKeyId: 'LTAI5tTestOnly', Signature: 'c2lnbmF0dXJl' };
export const MP4 = Buffer.from('\x00\x00\x00\x1cftypisom wan clip bytes');

/** Every call carries the bearer key. */
export function dashScopeApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

/** Submits must also ask for asynchronous processing. */
export function submitApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}`, 'x-dashscope-async': 'enable', 'content-type': 'application/json' } });
}

/** The create answer. */
export function created(status = 'PENDING'): Record<string, unknown> {
  return { request_id: '4909100c-7b5a-9f92-bfe5-5a1c2d3e4f60', output: { task_id: TASK_ID, task_status: status } };
}

/** A query answer; `extra` adds to `output`, `usage` is the finished task's usage block. */
export function taskAnswer(status: string, extra: Record<string, unknown> = {}, usage?: Record<string, unknown>): Record<string, unknown> {
  const done = status === 'SUCCEEDED' || status === 'FAILED';
  return {
    request_id: 'c1209113-8437-424f-a386-7d8e9f0a1b2c',
    output: {
      task_id: TASK_ID,
      task_status: status,
      submit_time: '2026-07-15 12:00:00.000',
      ...(done ? { end_time: '2026-07-15 12:03:00.000' } : {}),
      task_metrics: { TOTAL: 1, SUCCEEDED: status === 'SUCCEEDED' ? 1 : 0, FAILED: status === 'FAILED' ? 1 : 0 },
      ...extra,
    },
    ...(usage ? { usage } : {}),
  };
}

/** A finished task; `usage` null leaves the usage block out. */
export function succeeded(usage: Record<string, unknown> | null = { video_count: 1, video_duration: 8 }): Record<string, unknown> {
  const query = new URLSearchParams(VIDEO_QUERY).toString();
  return taskAnswer('SUCCEEDED', { video_url: `${OSS}${VIDEO_PATH}?${query}`, orig_prompt: 'a paper boat', actual_prompt: 'a paper boat drifting' }, usage ?? undefined);
}

/** No real network; a fresh harness per test (breaker settings as given). */
export function useDashScopeHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  return useHarnessPerTest(dashScopePlugin, CONFIG, breaker);
}
