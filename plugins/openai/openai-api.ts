/**
 * What every OpenAI endpoint of this plugin shares: the settings (`providers.openai` in config, or
 * `MEDIAGATE_PROVIDER_OPENAI_<KEY>` in the environment), Bearer auth and the reading of OpenAI's error body.
 * Endpoint knowledge (request maps, response transforms) lives in one file per endpoint.
 */
import { apiKeyVendor, describeOpenAIStyleError, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'openai';

/** `base_url` is without `/v1`: every endpoint path starts with it. Any OpenAI-compatible server can stand in. */
export type OpenAIConfig = ApiKeyVendorConfig;

export const DEFAULT_BASE_URL = 'https://api.openai.com';
/**
 * GPT image renders take up to about two minutes for complex prompts
 * (https://platform.openai.com/docs/guides/image-generation, "Limitations"), more than the SDK's 60 s default.
 */
export const DEFAULT_TIMEOUT_MS = 180_000;

export type OpenAIContext = PluginContext<OpenAIConfig>;
export type OpenAIHandler = OperationHandler<OpenAIConfig>;

const vendor = apiKeyVendor<OpenAIConfig>({
  provider: PROVIDER_ID,
  baseUrl: DEFAULT_BASE_URL,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body) => describeOpenAIError(body),
});

export const openAIConfigSchema = vendor.configSchema;
export const openAIHttp = (ctx: OpenAIContext): VendorHttp => vendor.http(ctx);

/** OpenAI's error body; the reader is shared with OpenAI-compatible plugins through the SDK. */
export const describeOpenAIError = describeOpenAIStyleError;
