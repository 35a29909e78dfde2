/**
 * What every ModelArk call of this plugin shares: the settings (`providers.bytedance`, or
 * `MEDIAGATE_PROVIDER_BYTEDANCE_<KEY>`), the BytePlus Singapore endpoint as default base URL, the bearer key and
 * how an error body reads. Reference: https://docs.byteplus.com/en/docs/ModelArk/1298459 (base URL and
 * authentication), https://docs.byteplus.com/en/docs/ModelArk/1299023 (error codes).
 */
import { apiKeyVendor, describeOpenAIStyleError } from '../../src/kernel/plugin-sdk/index.js';
import type { ApiKeyVendorConfig, OperationHandler, PluginContext, VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'bytedance';

/**
 * BytePlus ModelArk, AP Southeast (the only BytePlus region with Seedance). Paths below are relative
 * (`api/v3/...`), so Volcengine Ark (`https://ark.cn-beijing.volces.com`, whose model ids carry a `doubao-`
 * prefix) or a proxy with a path prefix works as `base_url` too.
 */
export const ARK_BASE_URL = 'https://ark.ap-southeast.bytepluses.com';

/**
 * Seedream answers synchronously, and a 4K render takes well over the SDK's 60 s default; ByteDance's own
 * client waits up to 600 s (byteplus-python-sdk-v2, byteplussdkarkruntime/_constants.py).
 */
export const DEFAULT_TIMEOUT_MS = 180_000;

/** `api_key` is a ModelArk API key of the base URL's region. */
export type ArkConfig = ApiKeyVendorConfig;
export type ArkContext = PluginContext<ArkConfig>;
export type ArkHandler = OperationHandler<ArkConfig>;

/**
 * 429 codes that no wait cures: the account's free-token quota is used up and the model service is suspended
 * until someone changes the account (https://docs.byteplus.com/docs/ModelArk/1465347, Free Tokens Only Mode).
 */
const EXHAUSTED_QUOTA_CODES: ReadonlySet<string> = new Set(['ModelQuotaExhausted']);

const vendor = apiKeyVendor<ArkConfig>({
  provider: PROVIDER_ID,
  baseUrl: ARK_BASE_URL,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body, status) => describeArkError(body, status),
});

export const arkConfigSchema = vendor.configSchema;
export const isArkEnabled = vendor.isEnabled;
export const arkHttp = (ctx: ArkContext): VendorHttp => vendor.http(ctx);

/**
 * ModelArk refuses with the OpenAI-style body `{"error": {"code", "message", "param", "type"}}` (the official Go
 * SDK's `model.ErrorResponse`); the HTTP status tells retryable from permanent except for an exhausted quota.
 */
export function describeArkError(body: unknown, status: number): { message?: string; code?: string; retryable?: boolean } {
  const described = describeOpenAIStyleError(body);
  if (status === 429 && described.code !== undefined && EXHAUSTED_QUOTA_CODES.has(described.code)) return { ...described, retryable: false };
  return described;
}
