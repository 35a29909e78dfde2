/**
 * What every Topaz Labs Video API call shares: the plugin's settings (`providers.topaz`, or
 * `MEDIAGATE_PROVIDER_TOPAZ_<KEY>`), the base URL, the `X-API-Key` header and how an error body reads. Endpoint
 * knowledge lives in one file per endpoint.
 * Reference: https://developer.topazlabs.com/docs/getting-started-1 (authentication and the request flow).
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'topaz';

/** Paths below are relative (`video/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const TOPAZ_BASE_URL = 'https://api.topazlabs.com';

/**
 * Defaults of the plugin's own settings.
 * - `max_input_bytes`: 500 MB, Topaz's upload segment: a source up to it gets ONE signed upload URL (accept
 *   request reference, https://developer.topazlabs.com/reference/video/accept-request/accept-and-upload-video-request),
 *   and a single PUT. The source is streamed to a scratch file, probed and uploaded from there, never held in
 *   memory, so the cap bounds disk and transfer time only.
 * - `max_output_bytes`: 1 GB. The finished video is streamed into our storage; the cap bounds what a 4x upscale
 *   may occupy there. Topaz reports `outputSize` first.
 * The plugin has no price settings: the video.upscale manifest prices the job and settles it on the seconds the
 * plugin reports (docs/pricing.md).
 */
export const TOPAZ_DEFAULTS = { max_input_bytes: 500_000_000, max_output_bytes: 1_000_000_000 } as const;

export interface TopazConfig extends ApiKeyVendorConfig {
  /** Largest source video fetched, probed and uploaded (bytes). */
  max_input_bytes?: number;
  /** Largest finished video copied into our storage (bytes). */
  max_output_bytes?: number;
}

export type TopazContext = PluginContext<TopazConfig>;
export type TopazHandler = OperationHandler<TopazConfig>;

const extraSettings: Record<string, JsonSchema> = {
  max_input_bytes: { type: 'integer', minimum: 1, default: TOPAZ_DEFAULTS.max_input_bytes },
  max_output_bytes: { type: 'integer', minimum: 1, default: TOPAZ_DEFAULTS.max_output_bytes },
};

const vendor = apiKeyVendor<TopazConfig>({
  provider: PROVIDER_ID,
  baseUrl: TOPAZ_BASE_URL,
  authHeaders: (key) => ({ 'x-api-key': key }),
  describeError: (body) => describeTopazError(body),
  extraSettings,
});

export const topazConfigSchema = vendor.configSchema;
export const isTopazEnabled = vendor.isEnabled;
export const topazHttp = (ctx: TopazContext): VendorHttp => vendor.http(ctx);

/**
 * Error bodies are `{message, errorCode, errors[]}`, `errorCode` one of INSUFFICIENT_CREDITS, INVALID_INPUT,
 * FORBIDDEN, UNAUTHORIZED, SERVER_MAINTENANCE, SERVER_ERROR, UNKNOWN; `errors` lists schema problems, one per
 * field (Video API OpenAPI, https://developer.topazlabs.com/reference/video/cancel-request/cancel-video-request).
 * Maintenance passes, whatever status carries it.
 */
export function describeTopazError(body: unknown): { message?: string; code?: string; retryable?: boolean } {
  const message = pick(body, 'message');
  const code = pick(body, 'errorCode');
  const problems = (Array.isArray(pick(body, 'errors')) ? (pick(body, 'errors') as unknown[]) : [])
    .map((problem) => [pick(problem, 'path'), pick(problem, 'message')].filter((part) => typeof part === 'string' && part !== '').join(': '))
    .filter((problem) => problem !== '');
  const text = [typeof message === 'string' ? message.trim() : '', ...problems].filter((part) => part !== '').join('; ');
  return {
    message: text === '' ? undefined : text,
    code: typeof code === 'string' ? code : undefined,
    ...(code === 'SERVER_MAINTENANCE' ? { retryable: true } : {}),
  };
}
