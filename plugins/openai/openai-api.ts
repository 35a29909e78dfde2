/**
 * What every OpenAI endpoint of this plugin shares: the settings (`providers.openai` in config, or
 * `MEDIAGATE_PROVIDER_OPENAI_<KEY>` in the environment), Bearer auth and the reading of OpenAI's error body.
 * Endpoint knowledge (request maps, response transforms) lives in one file per endpoint.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext, VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'openai';

export interface OpenAIConfig {
  /** Sent as `Authorization: Bearer`; never logged or returned. */
  api_key?: string;
  /** Without `/v1`: every endpoint path starts with it. Any OpenAI-compatible server can stand in. */
  base_url?: string;
  /** Per vendor call. */
  timeout_ms?: number;
}

export const DEFAULT_BASE_URL = 'https://api.openai.com';
/**
 * GPT image renders take up to about two minutes for complex prompts
 * (https://platform.openai.com/docs/guides/image-generation, "Limitations"), more than the SDK's 60 s default.
 */
export const DEFAULT_TIMEOUT_MS = 180_000;

export const openAIConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    api_key: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', pattern: '^https?://', default: DEFAULT_BASE_URL },
    timeout_ms: { type: 'integer', minimum: 1000, maximum: 900_000, default: DEFAULT_TIMEOUT_MS },
  },
};

export type OpenAIContext = PluginContext<OpenAIConfig>;
export type OpenAIHandler = OperationHandler<OpenAIConfig>;

export function openAIHttp(ctx: OpenAIContext): VendorHttp {
  return ctx.http({
    provider: PROVIDER_ID,
    baseUrl: ctx.config.base_url ?? DEFAULT_BASE_URL,
    headers: { authorization: `Bearer ${ctx.config.api_key ?? ''}` },
    timeoutMs: ctx.config.timeout_ms ?? DEFAULT_TIMEOUT_MS,
    describeError: describeOpenAIError,
  });
}

/**
 * OpenAI errors are `{"error": {"message", "type", "param", "code"}}`; `code` is often null, `type` names the
 * class (e.g. `invalid_request_error`). https://platform.openai.com/docs/guides/error-codes
 */
export function describeOpenAIError(body: unknown): { message?: string; code?: string } {
  const error = (body as { error?: { message?: unknown; type?: unknown; code?: unknown } } | undefined)?.error;
  if (!error || typeof error !== 'object') return {};
  const code = typeof error.code === 'string' ? error.code : typeof error.type === 'string' ? error.type : undefined;
  return { message: typeof error.message === 'string' ? error.message : undefined, code };
}
