/**
 * Settings of the `suno` provider (`providers.suno` in config, or MEDIAGATE_PROVIDER_SUNO_<KEY>): Suno
 * through sunoapi.org, https://docs.sunoapi.org/suno-api/quickstart.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'suno';

export const DEFAULT_BASE_URL = 'https://api.sunoapi.org';

/**
 * sunoapi.org requires a `callBackUrl` on every generation, but the gateway polls
 * `record-info` instead and never listens for the callback. The default is a reserved documentation domain
 * (RFC 2606), so the vendor's POSTs go nowhere that matters; set your own receiver if you want them.
 */
export const DEFAULT_CALLBACK_URL = 'https://example.com/mediagate/suno-callback';

export interface SunoConfig {
  api_key?: string;
  base_url?: string;
  callback_url?: string;
  /** Per-call HTTP timeout; the SDK default (60 s) when absent. */
  timeout_ms?: number;
}

export const sunoConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    api_key: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', default: DEFAULT_BASE_URL },
    callback_url: { type: 'string', format: 'uri', default: DEFAULT_CALLBACK_URL },
    timeout_ms: { type: 'integer', minimum: 1000 },
  },
};

export const isSunoEnabled = (config: SunoConfig): boolean => Boolean(config.api_key);

export type SunoContext = PluginContext<SunoConfig>;
export type SunoHandler = OperationHandler<SunoConfig>;
