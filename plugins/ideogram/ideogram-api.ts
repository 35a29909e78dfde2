/**
 * What every Ideogram call of this plugin shares: the settings (`providers.ideogram` in config, or
 * `MEDIAGATE_PROVIDER_IDEOGRAM_<KEY>` in the environment), the `Api-Key` header and the reading of Ideogram's
 * error body. Ideogram's own OpenAPI document (https://api.ideogram.ai/openapi.json) is the reference.
 */
import { apiKeyVendor, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'ideogram';

/** `base_url` is the API root without `/v1`: every endpoint path starts with it. */
export type IdeogramConfig = ApiKeyVendorConfig;

export const DEFAULT_BASE_URL = 'https://api.ideogram.ai';
/**
 * Generation is synchronous and a QUALITY render with style references is the slowest kind. The POST is sent
 * once, so a timeout loses a render Ideogram may still bill: wait longer than the SDK's 60 s default.
 */
export const DEFAULT_TIMEOUT_MS = 120_000;

export type IdeogramContext = PluginContext<IdeogramConfig>;
export type IdeogramHandler = OperationHandler<IdeogramConfig>;

const vendor = apiKeyVendor<IdeogramConfig>({
  provider: PROVIDER_ID,
  baseUrl: DEFAULT_BASE_URL,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  // The `ApiKeyAuth` security scheme of the OpenAPI document.
  authHeaders: (key) => ({ 'api-key': key }),
  describeError: (body) => describeIdeogramError(body),
});

export const ideogramConfigSchema = vendor.configSchema;
export const ideogramHttp = (ctx: IdeogramContext): VendorHttp => vendor.http(ctx);

/**
 * The documented error body is `{"error": "..."}` (`GenerateImageSafetyError`, the 422 of a prompt that fails
 * the safety check). Other 4xx have no documented body; the API is served by connexion (the document's
 * `x-openapi-router-controller`), whose validation errors are problem documents with `detail` and `title`.
 */
export function describeIdeogramError(body: unknown): { message?: string } {
  if (!body || typeof body !== 'object') return {};
  const { error, detail, title } = body as { error?: unknown; detail?: unknown; title?: unknown };
  const message = [error, detail, title].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return { message };
}
