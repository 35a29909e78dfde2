/**
 * Settings of the `kling` provider (`providers.kling` in config, or MEDIAGATE_PROVIDER_KLING_<KEY>).
 * Kling signs every call with a short-lived JWT made from an access key and a secret key, so both are
 * needed before the router may send it anything.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'kling';

/** The endpoint for servers outside mainland China (https://app.klingai.com/global/dev/document-api/apiReference/commonInfo). */
export const DEFAULT_BASE_URL = 'https://api-singapore.klingai.com';

export interface KlingConfig {
  /** The AccessKey: the JWT's `iss`. */
  access_key?: string;
  /** The SecretKey: signs the JWT (HS256). Never sent, never logged. */
  secret_key?: string;
  base_url?: string;
  /** Per-call HTTP timeout; the SDK default (60 s) when absent. */
  timeout_ms?: number;
}

export const klingConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    access_key: { type: 'string', minLength: 1 },
    secret_key: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', default: DEFAULT_BASE_URL },
    timeout_ms: { type: 'integer', minimum: 1000 },
  },
};

export const isKlingEnabled = (config: KlingConfig): boolean => Boolean(config.access_key && config.secret_key);

export type KlingContext = PluginContext<KlingConfig>;
export type KlingHandler = OperationHandler<KlingConfig>;
