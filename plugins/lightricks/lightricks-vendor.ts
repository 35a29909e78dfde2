/**
 * What every call to Lightricks' LTX API shares: the plugin's settings (`providers.lightricks`, or
 * MEDIAGATE_PROVIDER_LIGHTRICKS_<KEY>), the base URL, the Bearer key and the error body. LTX answers errors as
 * `{"type": "error", "error": {"type": "authentication_error", "message": "Invalid API key"}}`
 * (https://docs.ltx.video/authentication), which the SDK's OpenAI-style reader takes as is: `error.message`,
 * and `error.type` as the code.
 */
import { apiKeyVendor, describeOpenAIStyleError, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'lightricks';

/** Paths below are relative (`v2/...`), so a base URL with a path prefix (a proxy) keeps it. */
export const LTX_BASE_URL = 'https://api.ltx.video';

export type LightricksConfig = ApiKeyVendorConfig;
export type LightricksContext = PluginContext<LightricksConfig>;
export type LightricksHandler = OperationHandler<LightricksConfig>;

const vendor = apiKeyVendor<LightricksConfig>({
  provider: PROVIDER_ID,
  baseUrl: LTX_BASE_URL,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body) => describeOpenAIStyleError(body),
});

export const lightricksConfigSchema = vendor.configSchema;
export const isLightricksEnabled = vendor.isEnabled;
export const lightricksHttp = (ctx: LightricksContext): VendorHttp => vendor.http(ctx);
