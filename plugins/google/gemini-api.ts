/**
 * What every Gemini API call of this plugin shares: the settings (`providers.google` in config, or
 * `MEDIAGATE_PROVIDER_GOOGLE_<KEY>` in the environment), the `x-goog-api-key` header, the reading of Google's
 * error body, and which image models it knows.
 */
import { apiKeyVendor, describeGoogleApiError, unsupportedModel, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'google';

/** `api_key` is a Gemini API key, sent as `x-goog-api-key`; `base_url` is the API root without `/v1beta`. */
export type GoogleConfig = ApiKeyVendorConfig;

export const DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';
/** Image models think before they render; a 4K image can take well over a minute, more than the SDK's 60 s default. */
export const DEFAULT_TIMEOUT_MS = 180_000;

export type GoogleContext = PluginContext<GoogleConfig>;
export type GoogleHandler = OperationHandler<GoogleConfig>;

const vendor = apiKeyVendor<GoogleConfig>({
  provider: PROVIDER_ID,
  baseUrl: DEFAULT_BASE_URL,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  authHeaders: (key) => ({ 'x-goog-api-key': key }),
  // Google's error body (https://ai.google.dev/gemini-api/docs/troubleshooting), read as every Google API's.
  describeError: describeGoogleApiError,
});

export const googleConfigSchema = vendor.configSchema;
export const geminiHttp = (ctx: GoogleContext): VendorHttp => vendor.http(ctx);

/** What one family of Gemini image models takes in `generationConfig.imageConfig`, by our input field. */
export interface GeminiImageModel {
  /** Vendor model names starting with this (dated, `-preview` and GA names alike). */
  prefix: string;
  /** Our fields the model understands; the others are not sent. */
  accepts: Array<'aspect_ratio' | 'resolution'>;
}

/**
 * `imageSize` (1K/2K/4K) is a Gemini 3 image model setting; Gemini 2.5 Flash Image renders about 1K and takes
 * only `aspectRatio` (https://ai.google.dev/gemini-api/docs/image-generation, "Aspect ratios and image size").
 */
export const GEMINI_IMAGE_MODELS: GeminiImageModel[] = [
  { prefix: 'gemini-3-pro-image', accepts: ['aspect_ratio', 'resolution'] },
  { prefix: 'gemini-3.1-flash-image', accepts: ['aspect_ratio', 'resolution'] },
  { prefix: 'gemini-2.5-flash-image', accepts: ['aspect_ratio'] },
];

/**
 * The model family of a vendor model name. Anything else fails the request at once: in particular Imagen
 * (`imagen-*:predict`), which the Gemini API no longer serves (Google's own SDK removed it for the Gemini API,
 * https://github.com/googleapis/js-genai commit 9ca6086, "Disable GenerateImages for Gemini API").
 */
export function geminiImageModel(vendorModel: string): GeminiImageModel {
  const model = GEMINI_IMAGE_MODELS.find(({ prefix }) => vendorModel.startsWith(prefix));
  if (model) return model;
  const reason = vendorModel.startsWith('imagen-') ? 'Imagen models are no longer served by the Gemini API' : 'it is not a Gemini image model';
  throw unsupportedModel(PROVIDER_ID, `cannot render with ${vendorModel}: ${reason}`);
}
