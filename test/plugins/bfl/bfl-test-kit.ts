/**
 * What the bfl tests share: credentials, BFL's API with the `x-key` header required, and answers shaped like
 * BFL's reference: the submit answer `{id, polling_url, cost, input_mp, output_mp}`
 * (https://docs.bfl.ai/api-reference/models/generate-or-edit-an-image-with-flux2-[pro]) and the poll answer
 * `{id, status, result, progress, details, preview}` (https://docs.bfl.ai/api-reference/utility/get-result).
 */
import nock from 'nock';

export const API = 'https://api.bfl.ai';
/** The cluster that took the task: polling URLs point at it, not at the host we posted to. */
export const CLUSTER = 'https://api.eu2.bfl.ai';
/** Where finished images are delivered (signed, expiring after 10 minutes). */
export const DELIVERY = 'https://delivery-eu2.bfl.ai';
/** Client inputs the gateway fetches itself (FLUX1.1 [pro]'s base64 image prompt). */
export const INPUTS = 'https://images.example';
export const API_KEY = 'bfl-test-key-not-real';
export const CONFIG = { api_key: API_KEY };
export const TASK_ID = 'd5ba37dc-ba09-4658-852e-deea7e176439';
export const POLLING_URL = `${CLUSTER}/v1/get_result?id=${TASK_ID}`;
export const SAMPLE_PATH = `/results/2b/18c5b6a3c1b94f6db0b35b1b0d6e3c2a/sample.jpeg`;
export const SAMPLE_QUERY = { se: '2026-10-04T10:10:00Z', sp: 'r', sig: 'c2lnbmF0dXJl' };
export const SAMPLE_URL = `${DELIVERY}${SAMPLE_PATH}?se=2026-10-04T10%3A10%3A00Z&sp=r&sig=c2lnbmF0dXJl`;
export const JPEG = Buffer.from('\xff\xd8\xff\xe0 a FLUX image, as BFL delivers it', 'latin1');

/** A host with the key required on every call. */
export function withKey(origin: string): nock.Scope {
  return nock(origin, { reqheaders: { 'x-key': API_KEY } });
}

export function bflApi(): nock.Scope {
  return withKey(API);
}

/**
 * The submit answer (`null`: one without `polling_url`); FLUX.2 answers also carry the task's cost in BFL
 * credits and its megapixels.
 */
export function submitted(pollingUrl: string | null = POLLING_URL): Record<string, unknown> {
  return { id: TASK_ID, ...(pollingUrl === null ? {} : { polling_url: pollingUrl }), cost: 3.0, input_mp: 0.0, output_mp: 1.05 };
}

/** A poll answer with `status`; `extra` sets `result`, `details`, ... */
export function result(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id: TASK_ID, status, result: null, progress: null, details: null, preview: null, ...extra };
}

/** `result` as BFL's guide shows it (black-forest-labs/skills, skills/bfl-api/references/endpoints.md). */
export function ready(): Record<string, unknown> {
  return result('Ready', { result: { sample: SAMPLE_URL, prompt: 'a lighthouse', seed: 1234567890 } });
}

/** Serves the finished image at its signed delivery URL (no key: delivery URLs are signed). */
export function serveSample(): nock.Scope {
  return nock(DELIVERY, { badheaders: ['x-key'] }).get(SAMPLE_PATH).query(SAMPLE_QUERY).reply(200, JPEG, { 'content-type': 'application/octet-stream' });
}
