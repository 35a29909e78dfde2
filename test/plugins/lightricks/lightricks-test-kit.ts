/**
 * What the Lightricks (LTX API) tests share: credentials, the API host with its Bearer key required, and the
 * async API's answers as LTX documents them: a submit answers 202 `{id, created_at}`, a poll
 * `{id, status, created_at, completed_at?, result?: {video_url}, error?}` (https://docs.ltx.video/async-jobs), an
 * error `{type: "error", error: {type, message}}` (https://docs.ltx.video/authentication).
 */
import nock from 'nock';
import lightricksPlugin from '../../../plugins/lightricks/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { useHarnessPerTest } from '../../support/vendor-conformance.js';

export const API = 'https://api.ltx.video';
export const KEY = 'ltxv-test-key-not-real';
export const CONFIG = { api_key: KEY };
export const OPERATION = 'video.generate';
export const JOB_ID = 'a1b2c3d4-e5f6-7890-abcd-ef1234567890';
export const FIRST = 'https://media.example/inputs/sunset.jpg';

/** Where a completed job's `result.video_url` points (a signed storage URL). */
export const STORAGE = 'https://storage.googleapis.com';
export const VIDEO_PATH = '/ltx-api-outputs/a1b2c3d4-e5f6-7890-abcd-ef1234567890/video.mp4';
export const MP4 = Buffer.from('\x00\x00\x00\x18ftypisom LTX-2 rendered clip with audio');

/** LTX's API with the Bearer key required on every call. */
export function ltxApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

export function submitted(id = JOB_ID): Record<string, unknown> {
  return { id, created_at: '2026-01-15T10:00:00.000Z' };
}

/** A job as the poll answers it; `extra` adds `result` or `error`. */
export function job(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: JOB_ID, status, created_at: '2026-01-15T10:00:00.000Z', ...extra };
}

export function completed(): Record<string, unknown> {
  return job('completed', { completed_at: '2026-01-15T10:02:30.000Z', result: { video_url: `${STORAGE}${VIDEO_PATH}?X-Goog-Signature=3f2a` } });
}

/** An LTX error body. */
export function ltxError(type: string, message: string): Record<string, unknown> {
  return { type: 'error', error: { type, message } };
}

/** The signed result URL answering the clip (no API key: the signature is in the URL). */
export function serveClip(): nock.Scope {
  return nock(STORAGE, { badheaders: ['authorization'] }).get(VIDEO_PATH).query(true).reply(200, MP4, { 'content-type': 'video/mp4' });
}

/** A fresh harness per test of the enclosing `describe`, without real network, returned by the accessor. */
export function useLightricksHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  return useHarnessPerTest(lightricksPlugin, CONFIG, breaker);
}
