/**
 * What every Meshy call shares: the plugin's settings (`providers.meshy`), the base URL, the bearer key and
 * how an error body reads. Reference: https://docs.meshy.ai/api/quick-start, https://docs.meshy.ai/api/errors.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import { pick, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'meshy';

/** The paths below are relative (`openapi/v1/...`) so a base URL with a path prefix (a proxy) keeps it. */
export const MESHY_BASE_URL = 'https://api.meshy.ai';

export interface MeshyConfig {
  /** Meshy API key (`msy_...`); the plugin is enabled only when it is set. */
  api_key?: string;
  base_url?: string;
  /** Per-call timeout of Meshy API requests (the SDK default, 60 s, when absent). */
  timeout_ms?: number;
}

export const meshyConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    api_key: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', default: MESHY_BASE_URL },
    timeout_ms: { type: 'integer', minimum: 1000, maximum: 600000 },
  },
};

export type MeshyContext = PluginContext<MeshyConfig>;

export function meshyHttp(ctx: MeshyContext): VendorHttp {
  return ctx.http({
    provider: PROVIDER_ID,
    baseUrl: ctx.config.base_url ?? MESHY_BASE_URL,
    headers: { authorization: `Bearer ${ctx.config.api_key ?? ''}` },
    timeoutMs: ctx.config.timeout_ms,
    describeError: describeMeshyError,
  });
}

/** A rejected request answers `{ "message": "..." }` and nothing else (https://docs.meshy.ai/api/errors). */
export function describeMeshyError(body: unknown): { message?: string } {
  const message = pick(body, 'message');
  return typeof message === 'string' && message.trim() !== '' ? { message: message.trim() } : {};
}
