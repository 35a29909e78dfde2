/**
 * What every Meshy call shares: the plugin's settings (`providers.meshy`), the base URL, the bearer key and
 * how an error body reads. Reference: https://docs.meshy.ai/api/quick-start, https://docs.meshy.ai/api/errors.
 */
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'meshy';

/** The paths below are relative (`openapi/v1/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const MESHY_BASE_URL = 'https://api.meshy.ai';

/** `api_key` is a Meshy key (`msy_...`); the plugin is enabled only when it is set. */
export type MeshyConfig = ApiKeyVendorConfig;
export type MeshyContext = PluginContext<MeshyConfig>;

const vendor = apiKeyVendor<MeshyConfig>({
  provider: PROVIDER_ID,
  baseUrl: MESHY_BASE_URL,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body) => describeMeshyError(body),
});

export const meshyConfigSchema = vendor.configSchema;
export const meshyHttp = (ctx: MeshyContext): VendorHttp => vendor.http(ctx);

/** A rejected request answers `{ "message": "..." }` and nothing else (https://docs.meshy.ai/api/errors). */
export function describeMeshyError(body: unknown): { message?: string } {
  const message = pick(body, 'message');
  return typeof message === 'string' && message.trim() !== '' ? { message: message.trim() } : {};
}
