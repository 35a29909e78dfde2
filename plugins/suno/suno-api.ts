/**
 * What every sunoapi.org call shares: `Authorization: Bearer <api_key>` and the `{code, msg, data}`
 * envelope, where `code` 200 is success and any other code is an error even under HTTP 200.
 * Codes (https://docs.sunoapi.org/suno-api/generate-music, "Response"): 400 invalid parameters,
 * 401 unauthorized, 404 wrong method or path, 405 rate limit exceeded, 413 prompt too long,
 * 429 insufficient credits, 430 call frequency too high, 455 maintenance, 500 server error.
 */
import { pick, ProviderError, requireField, type VendorHttp, type VendorRequest } from '../../src/kernel/plugin-sdk/index.js';
import { DEFAULT_BASE_URL, PROVIDER_ID, type SunoContext } from './suno-config.js';

const SUCCESS_CODE = 200;
/** Envelope codes worth trying again later. 429 is not among them: here it means "no credits left". */
const RETRYABLE_CODES = new Set([405, 430, 455, 500]);

/** The checked envelope of one call (method and path as given). */
export async function sunoCall(ctx: SunoContext, request: VendorRequest): Promise<unknown> {
  const response = await sunoHttp(ctx).request(request);
  const code = requireField<number>(response.data, 'code', PROVIDER_ID, 'number');
  if (code === SUCCESS_CODE) return response.data;
  throw new ProviderError(`suno: ${describeError(response.data).message ?? 'request refused'} (code ${code} on ${request.method ?? 'GET'} /${request.path})`, {
    provider: PROVIDER_ID,
    retryable: RETRYABLE_CODES.has(code),
    vendorStatus: response.status,
    vendorCode: String(code),
    refused: true,
  });
}

function sunoHttp(ctx: SunoContext): VendorHttp {
  const { api_key: apiKey, base_url: baseUrl, timeout_ms: timeoutMs } = ctx.config;
  if (!apiKey) throw new ProviderError('suno: api_key is not configured', { provider: PROVIDER_ID, retryable: false });
  return ctx.http({ provider: PROVIDER_ID, baseUrl: baseUrl ?? DEFAULT_BASE_URL, timeoutMs, headers: { authorization: `Bearer ${apiKey}` }, describeError });
}

function describeError(body: unknown): { message?: string; code?: string } {
  const message = pick(body, 'msg');
  const code = pick(body, 'code');
  return {
    message: typeof message === 'string' && message !== '' ? message : undefined,
    code: typeof code === 'number' || typeof code === 'string' ? String(code) : undefined,
  };
}
