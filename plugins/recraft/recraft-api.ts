/**
 * What every Recraft call of this plugin shares: the settings (`providers.recraft` in config, or
 * `MEDIAGATE_PROVIDER_RECRAFT_<KEY>` in the environment), Bearer auth and the reading of Recraft's error body.
 * References: https://www.recraft.ai/docs/api-reference/endpoints and Recraft's OpenAPI document
 * (https://external.api.recraft.ai/doc/spec/internal/externalapi/api.yaml).
 */
import { apiKeyVendor, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'recraft';

/** `base_url` is the API root without `/v1`: every endpoint path starts with it. */
export type RecraftConfig = ApiKeyVendorConfig;

export const DEFAULT_BASE_URL = 'https://external.api.recraft.ai';

export type RecraftContext = PluginContext<RecraftConfig>;
export type RecraftHandler = OperationHandler<RecraftConfig>;

const vendor = apiKeyVendor<RecraftConfig>({
  provider: PROVIDER_ID,
  baseUrl: DEFAULT_BASE_URL,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body) => describeRecraftError(body),
});

export const recraftConfigSchema = vendor.configSchema;
export const recraftHttp = (ctx: RecraftContext): VendorHttp => vendor.http(ctx);

/**
 * Recraft documents no error schema: "some errors return plain text, others JSON", to be read as text
 * (https://www.recraft.ai/docs/api-reference/error-handling; a bad key is `text/plain` "request unauthorized").
 * Plain text reaches the client as it is (the SDK's default); a JSON body is passed on as its text.
 */
export function describeRecraftError(body: unknown): { message?: string } {
  if (!body || typeof body !== 'object') return {};
  return { message: JSON.stringify(body).slice(0, 300) };
}
