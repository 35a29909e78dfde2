/**
 * What the Kling tests share: credentials, the harness with nock around it, the envelope Kling answers
 * with, a matcher that checks the JWT the plugin signs (independently of the plugin's own signer), and a
 * ProviderError catcher.
 */
import { createHmac } from 'node:crypto';
import nock from 'nock';
import klingPlugin from '../../../plugins/kling/index.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
export { failure } from '../../support/vendor-conformance.js';

export const API = 'https://api-singapore.klingai.com';
export const CDN = 'https://p1-kling.klingai.com';
export const ACCESS_KEY = 'ak-test-not-real';
export const SECRET_KEY = 'sk-test-not-real';
export const CONFIG = { access_key: ACCESS_KEY, secret_key: SECRET_KEY };
export const HOSTED = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.[a-z0-9]+$/;
/** A request id as the harness makes one: every create carries it as Kling's `external_task_id`. */
export const REQUEST_ID = /^req_[0-9a-z]+$/;

/**
 * Registers the hooks of a Kling suite (no real network; a fresh harness per test) and returns the
 * current test's harness.
 */
export function useKlingHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  let harness: PluginHarness | undefined;
  before(() => nock.disableNetConnect());
  after(() => {
    nock.cleanAll();
    nock.enableNetConnect();
  });
  beforeEach(async () => {
    harness = await createPluginHarness(klingPlugin, CONFIG, breaker);
  });
  afterEach(async () => {
    nock.cleanAll();
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the Kling harness exists only inside a test');
    return harness;
  };
}

/** Kling's envelope (https://app.klingai.com/global/dev/document-api/apiReference/commonInfo). */
export function envelope(data: Record<string, unknown>, code = 0, message = 'SUCCEED'): Record<string, unknown> {
  return { code, message, request_id: 'CjMT7WdSwWcAAAAAALvB3g', data };
}

/** The create answer as Kling documents it. */
export function submitted(taskId: string): Record<string, unknown> {
  return envelope({ task_id: taskId, task_status: 'submitted', task_info: { external_task_id: '' }, created_at: 1722769557708, updated_at: 1722769557708 });
}

/** A query answer as Kling documents it; `extra` adds `task_status_msg`, `task_result`, ... */
export function taskAnswer(taskId: string, status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return envelope({ task_id: taskId, task_status: status, task_status_msg: '', task_info: { external_task_id: '' }, created_at: 1722769557708, updated_at: 1722769557708, ...extra });
}

/**
 * True when `value` is `Bearer <JWT>` signed HS256 with the secret key, header {alg, typ}, `iss` the access
 * key, valid now and for 30 minutes from 5 seconds ago.
 */
export function isKlingBearer(value: string | null): boolean {
  const match = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(value ?? '');
  if (!match) return false;
  const [, header, payload, signature] = match;
  const expected = createHmac('sha256', SECRET_KEY).update(`${header}.${payload}`).digest('base64url');
  const head = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { iss: string; exp: number; nbf: number };
  const now = Date.now() / 1000;
  return (
    signature === expected &&
    head.alg === 'HS256' &&
    head.typ === 'JWT' &&
    claims.iss === ACCESS_KEY &&
    claims.exp - claims.nbf === 1805 &&
    claims.nbf <= now &&
    claims.exp > now + 1700
  );
}

/** Kling's API with the signed token required on every call. */
export function klingApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: isKlingBearer } });
}

