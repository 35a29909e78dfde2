/**
 * What every call of the `partner2` provider shares: its settings (`providers.partner2` in config, or
 * `MEDIAGATE_PROVIDER_PARTNER2_<KEY>`), Bearer auth and the reading of the OpenAI-style error body.
 *
 * partner2 speaks the OpenAI Videos API (Sora 2 shape, https://developers.openai.com/api/reference/resources/videos).
 * OpenAI's own Videos API and the sora-2 models shut down on 2026-09-24
 * (https://developers.openai.com/api/docs/guides/video-generation, deprecation banner), so operators point
 * `base_url` at a compatible server; the default stays OpenAI's until then.
 */
import { apiKeyVendor, describeOpenAIStyleError, pick, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';
// The same wire format as the `openai` plugin's: one reader of `{error: {message, type, param, code}}`.

export const PROVIDER_ID = 'partner2';

/** Without `/v1`: every path below starts with it, so a compatible server's path prefix is kept. */
export const DEFAULT_BASE_URL = 'https://api.openai.com';

/**
 * Downloading a finished 20 s clip (at 1080p tens of MB) and uploading a character source of up to 100 MB
 * take longer than the SDK's 60 s default on an ordinary link.
 */
export const DEFAULT_TIMEOUT_MS = 180_000;

export type Partner2Config = ApiKeyVendorConfig;
export type Partner2Context = PluginContext<Partner2Config>;
export type Partner2Handler = OperationHandler<Partner2Config>;

/**
 * 429 codes that mean "no money left", not "slow down": retrying cannot succeed until someone pays or raises a
 * limit. error.type stays `insufficient_quota` for all of them
 * (https://learn.microsoft.com/en-us/microsoft-cloud/dev/dev-proxy/concepts/openai-insufficient-quota, citing
 * https://platform.openai.com/docs/guides/error-codes).
 */
const BILLING_CODES = new Set([
  'insufficient_quota',
  'credit_balance_exhausted',
  'organization_spend_limit_exceeded',
  'project_spend_limit_exceeded',
  'organization_usage_limit_exceeded',
]);

const vendor = apiKeyVendor<Partner2Config>({
  provider: PROVIDER_ID,
  baseUrl: DEFAULT_BASE_URL,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: describePartner2Error,
});

export const partner2ConfigSchema = vendor.configSchema;
export const isPartner2Enabled = vendor.isEnabled;
export const partner2Http = (ctx: Partner2Context): VendorHttp => vendor.http(ctx);

export function describePartner2Error(body: unknown, status: number): { message?: string; code?: string; retryable?: boolean } {
  const described = describeOpenAIStyleError(body);
  const billing = status === 429 && (BILLING_CODES.has(described.code ?? '') || pick(body, 'error.type') === 'insufficient_quota');
  return billing ? { ...described, retryable: false } : described;
}
