/**
 * What every sync. (sync.so) call shares: the plugin's settings (`providers.syncso`, or
 * `MEDIAGATE_PROVIDER_SYNCSO_<KEY>`), the base URL, the `x-api-key` header and how an error body reads. Endpoint
 * knowledge lives in one file per endpoint.
 * Reference: https://sync.so/docs/api-reference (API overview), https://sync.so/docs/developer-guides/error-handling.
 */
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'syncso';

/** Paths below are relative (`v2/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const SYNCSO_BASE_URL = 'https://api.sync.so';

/** Only the common settings: the lipsync.generate manifest prices the job and settles it on sync.'s billed seconds. */
export type SyncsoConfig = ApiKeyVendorConfig;

export type SyncsoContext = PluginContext<SyncsoConfig>;
export type SyncsoHandler = OperationHandler<SyncsoConfig>;

const vendor = apiKeyVendor<SyncsoConfig>({
  provider: PROVIDER_ID,
  baseUrl: SYNCSO_BASE_URL,
  authHeaders: (key) => ({ 'x-api-key': key }),
  describeError: (body) => describeSyncsoError(body),
});

export const syncsoConfigSchema = vendor.configSchema;
export const isSyncsoEnabled = vendor.isEnabled;
export const syncsoHttp = (ctx: SyncsoContext): VendorHttp => vendor.http(ctx);

/**
 * Errors come as `{statusCode, error, message}` where `message` is a sentence or a list of validation problems
 * (the API's GenerationError, in sync.'s TypeScript SDK: synchronicity-labs/sync-typescript-sdk,
 * src/api/resources/common/types/GenerationError.ts); newer answers name a machine code (`error_code`/`code`,
 * e.g. INVALID_IDEMPOTENCY_KEY, generation_unsupported_model).
 */
export function describeSyncsoError(body: unknown): { message?: string; code?: string } {
  const raw = pick(body, 'message');
  const messages = (Array.isArray(raw) ? raw : [raw]).filter((line): line is string => typeof line === 'string' && line.trim() !== '');
  const code = [pick(body, 'error_code'), pick(body, 'code'), pick(body, 'error')].find((value): value is string => typeof value === 'string' && value !== '');
  return { message: messages.length > 0 ? messages.map((line) => line.trim()).join('; ') : undefined, code };
}
