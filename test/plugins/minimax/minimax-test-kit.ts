/**
 * What the MiniMax tests share: credentials, the API host with its Bearer key required, the client's frames, and
 * answers shaped as MiniMax documents them: the create `{task_id, base_resp}`, the query
 * (https://platform.minimax.io/docs/api-reference/video-generation-query) and the file retrieve
 * (`{file: {..., download_url}, base_resp}`).
 */
import nock from 'nock';
import minimaxPlugin from '../../../plugins/minimax/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { useHarnessPerTest } from '../../support/vendor-conformance.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';

export const API = 'https://api.minimax.io';
export const KEY = 'mm-test-key-not-real';
export const CONFIG = { api_key: KEY };
export const OPERATION = 'video.generate';
export const MODEL = 'hailuo-02';
export const TASK_ID = '106916112212032';
export const FILE_ID = '176844028768320';
export const FIRST = 'https://media.example/inputs/first.png';
export const LAST = 'https://media.example/inputs/last.png';

/** Where MiniMax's download link points (a signed CDN URL). */
export const CDN = 'https://public-cdn-video-data-algeng.oss-cn-wulanchabu.aliyuncs.com';
export const CDN_PATH = '/inference_output/video/2025-08-29/output_aigc.mp4';
export const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42 hailuo-02 rendered clip');

/** MiniMax's API with the Bearer key required on every call. */
export function minimaxApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

/** The envelope every answer carries; a non-zero code is a refusal. */
export function baseResp(statusCode = 0, statusMsg = 'success'): Record<string, unknown> {
  return { base_resp: { status_code: statusCode, status_msg: statusMsg } };
}

export function created(taskId = TASK_ID): Record<string, unknown> {
  return { task_id: taskId, ...baseResp() };
}

/** A query answer; `extra` adds file_id, video_width, video_height or another base_resp. */
export function queried(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { task_id: TASK_ID, status, ...baseResp(), ...extra };
}

export function succeeded(width = 1366, height = 768): Record<string, unknown> {
  return queried('Success', { file_id: FILE_ID, video_width: width, video_height: height });
}

export function retrieved(downloadUrl = `${CDN}${CDN_PATH}?Expires=1756485366&OSSAccessKeyId=LTAI5tAmwsjSaaZVA6cEFAUu&Signature=k1r3`): Record<string, unknown> {
  return {
    file: { file_id: Number(FILE_ID), bytes: MP4.length, created_at: 1756453566, filename: 'output_aigc.mp4', purpose: 'video_generation', download_url: downloadUrl },
    ...baseResp(),
  };
}

/** The signed download link answering the clip (no API key: the signature is in the URL). */
export function serveClip(): nock.Scope {
  return nock(CDN, { badheaders: ['authorization'] }).get(CDN_PATH).query(true).reply(200, MP4, { 'content-type': 'application/octet-stream' });
}

/** A fresh harness per test of the enclosing `describe`, without real network, returned by the accessor. */
export function useMinimaxHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  return useHarnessPerTest(minimaxPlugin, CONFIG, breaker);
}
