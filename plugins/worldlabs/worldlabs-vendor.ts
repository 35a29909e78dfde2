/**
 * What every World Labs (Marble) call shares: the plugin's settings (`providers.worldlabs`), the base URL,
 * the `WLT-Api-Key` header and how an error body reads. Reference: https://docs.worldlabs.ai/api,
 * https://docs.worldlabs.ai/api/reference/openapi.
 */
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'worldlabs';

/** The paths below are relative (`marble/v1/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const WORLDLABS_BASE_URL = 'https://api.worldlabs.ai';

/** `api_key` is a World API key from platform.worldlabs.ai (Marble app credits do not work with the API). */
export type WorldLabsConfig = ApiKeyVendorConfig;
export type WorldLabsContext = PluginContext<WorldLabsConfig>;

const vendor = apiKeyVendor<WorldLabsConfig>({
  provider: PROVIDER_ID,
  baseUrl: WORLDLABS_BASE_URL,
  // Not bearer auth: the World API reads its own header (https://docs.worldlabs.ai/api).
  authHeaders: (key) => ({ 'wlt-api-key': key }),
  describeError: (body) => describeWorldLabsError(body),
});

export const worldLabsConfigSchema = vendor.configSchema;
export const worldLabsHttp = (ctx: WorldLabsContext): VendorHttp => vendor.http(ctx);

/**
 * Errors come in FastAPI's `detail` envelope: a sentence (`{"detail": "Insufficient API credits ..."}` on
 * 402), or on 422 a list of `{loc, msg, type}` (the OpenAPI's HTTPValidationError). Both become one line.
 */
export function describeWorldLabsError(body: unknown): { message?: string } {
  const detail = pick(body, 'detail');
  if (typeof detail === 'string' && detail.trim() !== '') return { message: detail.trim() };
  if (Array.isArray(detail)) {
    const problems = detail.map(validationProblem).filter((problem): problem is string => problem !== undefined);
    return problems.length > 0 ? { message: problems.join('; ') } : {};
  }
  const message = pick(detail, 'message');
  return typeof message === 'string' && message.trim() !== '' ? { message: message.trim() } : {};
}

function validationProblem(item: unknown): string | undefined {
  const message = pick(item, 'msg');
  if (typeof message !== 'string') return undefined;
  const location = pick(item, 'loc');
  // `loc` starts with where the value was ("body"); the rest is the field path.
  const field = Array.isArray(location) ? location.filter((step) => step !== 'body').join('.') : '';
  return field ? `${field}: ${message}` : message;
}
