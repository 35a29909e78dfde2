/**
 * What every Black Forest Labs call shares: the plugin's settings (`providers.bfl`), the API root, the `x-key`
 * header and how an error body reads. Reference: https://docs.bfl.ai/api_integration/integration_guidelines
 * (endpoints), https://docs.bfl.ai/api_integration/errors (HTTP errors and task statuses).
 */
import { apiKeyVendor, describeFastApiError, textAt } from '../../src/kernel/plugin-sdk/index.js';
import type { ApiKeyVendorConfig, OperationHandler, PluginContext, VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'bfl';

/**
 * The global endpoint, which balances across BFL's clusters. `api.eu.bfl.ai` and `api.us.bfl.ai` keep the
 * traffic in one region (set `base_url`); they take the same requests. Paths below are relative (`v1/...`),
 * so a proxy with a path prefix keeps it.
 */
export const BFL_BASE_URL = 'https://api.bfl.ai';

/** `api_key` is a BFL API key, sent as `x-key`; the plugin is enabled only when it is set. */
export type BflConfig = ApiKeyVendorConfig;
export type BflContext = PluginContext<BflConfig>;
export type BflHandler = OperationHandler<BflConfig>;

const vendor = apiKeyVendor<BflConfig>({
  provider: PROVIDER_ID,
  baseUrl: BFL_BASE_URL,
  authHeaders: (key) => ({ 'x-key': key }),
  describeError: (body) => describeBflError(body),
});

export const bflConfigSchema = vendor.configSchema;
export const isBflEnabled = vendor.isEnabled;
export const bflHttp = (ctx: BflContext): VendorHttp => vendor.http(ctx);

/**
 * BFL's API is a FastAPI service: `{"detail": "<sentence>"}`, or on a failed validation (422) the
 * `HTTPValidationError` list of https://api.bfl.ai/openapi.json; BFL's own client reads `detail`
 * (black-forest-labs/flux, src/flux/api.py). A plain `message` is read too, as BFL's TypeScript example client
 * does (black-forest-labs/skills, skills/bfl-api/references/code-examples/typescript-client.ts).
 */
export function describeBflError(body: unknown): { message?: string; code?: string } {
  const fastApi = describeFastApiError(body);
  if (fastApi.message) return fastApi;
  const message = textAt(body, 'message');
  return message ? { message } : {};
}
