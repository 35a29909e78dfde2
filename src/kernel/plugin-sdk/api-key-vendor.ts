/**
 * The common shape of a vendor that authenticates with one API key: its settings (`api_key`, `base_url`,
 * `timeout_ms`, plus any of its own), when it is enabled (a key is configured), and its HTTP client with the
 * key in the vendor's header. A plugin states only what differs — the header, the base URL, its error body.
 */
import type { JsonSchema } from '../manifests/manifest-types.js';
import type { PluginContext } from './contract.js';
import type { VendorHttp, VendorHttpOptions } from './vendor-http.js';

export interface ApiKeyVendorConfig {
  /** The vendor's API key; never logged or returned. */
  api_key?: string;
  /** API root; paths are relative to it, so a proxy or compatible server with a path prefix works. */
  base_url?: string;
  /** Per vendor call. */
  timeout_ms?: number;
}

export interface ApiKeyVendor<Config extends ApiKeyVendorConfig> {
  configSchema: JsonSchema;
  isEnabled(config: Config): boolean;
  http(ctx: PluginContext<Config>): VendorHttp;
}

export function apiKeyVendor<Config extends ApiKeyVendorConfig = ApiKeyVendorConfig>(spec: {
  provider: string;
  baseUrl: string;
  /** The header(s) that carry the key, e.g. `{ authorization: 'Bearer ' + key }`. */
  authHeaders: (apiKey: string) => Record<string, string>;
  describeError: VendorHttpOptions['describeError'];
  /** Default per-call timeout when the vendor is slower than the SDK's 60 s. */
  timeoutMs?: number;
  /** The vendor's own further settings, as JSON Schema properties. */
  extraSettings?: Record<string, JsonSchema>;
}): ApiKeyVendor<Config> {
  return {
    configSchema: {
      type: 'object',
      additionalProperties: false,
      properties: {
        api_key: { type: 'string', minLength: 1 },
        base_url: { type: 'string', format: 'uri', pattern: '^https?://', default: spec.baseUrl },
        timeout_ms: { type: 'integer', minimum: 1000, maximum: 900_000, ...(spec.timeoutMs ? { default: spec.timeoutMs } : {}) },
        ...spec.extraSettings,
      },
    },
    isEnabled: (config) => typeof config.api_key === 'string' && config.api_key.length > 0,
    http: (ctx) =>
      ctx.http({
        provider: spec.provider,
        baseUrl: ctx.config.base_url ?? spec.baseUrl,
        headers: spec.authHeaders(ctx.config.api_key ?? ''),
        timeoutMs: ctx.config.timeout_ms ?? spec.timeoutMs,
        describeError: spec.describeError,
      }),
  };
}
