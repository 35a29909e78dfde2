/**
 * What every sync. (sync.so) call shares: the plugin's settings (`providers.syncso`, or
 * `MEDIAGATE_PROVIDER_SYNCSO_<KEY>`), the base URL, the `x-api-key` header, how an error body reads, and how a
 * billed output duration becomes our credits. Endpoint knowledge lives in one file per endpoint.
 * Reference: https://sync.so/docs/api-reference (API overview), https://sync.so/docs/developer-guides/error-handling.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import { creditsFor, apiKeyVendor, pick, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'syncso';

/** Paths below are relative (`v2/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const SYNCSO_BASE_URL = 'https://api.sync.so';

/**
 * Defaults of the plugin's own settings, both from the lipsync.generate manifest (docs/pricing.md): 0.75 credits
 * per second of video plus 0.75 per second of audio is "about 1.5 per second of output", and the minimum is 3.
 */
export const SYNCSO_DEFAULTS = { credits_per_second: 1.5, minimum_credits: 3 } as const;

export interface SyncsoConfig extends ApiKeyVendorConfig {
  /** Our credits per second of sync.'s billable output (`outputDuration`), for `exact_cost_credits`. */
  credits_per_second?: number;
  /** Floor of `exact_cost_credits`. */
  minimum_credits?: number;
}

export type SyncsoContext = PluginContext<SyncsoConfig>;
export type SyncsoHandler = OperationHandler<SyncsoConfig>;

const extraSettings: Record<string, JsonSchema> = {
  credits_per_second: { type: 'number', exclusiveMinimum: 0, default: SYNCSO_DEFAULTS.credits_per_second },
  minimum_credits: { type: 'integer', minimum: 0, default: SYNCSO_DEFAULTS.minimum_credits },
};

const vendor = apiKeyVendor<SyncsoConfig>({
  provider: PROVIDER_ID,
  baseUrl: SYNCSO_BASE_URL,
  authHeaders: (key) => ({ 'x-api-key': key }),
  describeError: (body) => describeSyncsoError(body),
  extraSettings,
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

/** Seconds of billable output as our whole credits, rounded up, never below the floor. */
export function gatewayCredits(outputSeconds: number, config: SyncsoConfig): number {
  const rate = config.credits_per_second ?? SYNCSO_DEFAULTS.credits_per_second;
  const minimum = config.minimum_credits ?? SYNCSO_DEFAULTS.minimum_credits;
  return creditsFor(outputSeconds, rate, minimum);
}
