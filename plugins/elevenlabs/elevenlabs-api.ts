/**
 * What every ElevenLabs endpoint shares: the `xi-api-key` client, the error envelope, the request built
 * from an endpoint's declarative field map, and the hosting of the audio it answers with. Everything that
 * differs per endpoint lives in `endpoints/<endpoint>.ts` as an `ElevenLabsEndpoint`.
 */
import { extensionForContentType } from '../../src/kernel/blobs/index.js';
import type { FieldMap, FieldRule, HostedFile, JsonObject, JsonValue, RoutedModel, VendorHttp, VendorRequest } from '../../src/kernel/plugin-sdk/index.js';
import { mapFields, ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import { DEFAULT_BASE_URL, DEFAULT_OUTPUT_FORMAT, PROVIDER_ID, type ElevenLabsConfig, type ElevenLabsContext } from './elevenlabs-config.js';

/** One vendor endpoint as data. Every one of them is a POST whose JSON body names the model `model_id`. */
export interface ElevenLabsEndpoint {
  /** Path relative to `base_url` (may carry a path parameter such as the voice id). */
  path(input: JsonObject, config: ElevenLabsConfig): string;
  /** Our input field -> the vendor's body field. */
  fields: FieldMap;
  /** Extra rules that apply only when the request is routed to this vendor model. */
  modelFields?: Record<string, FieldMap>;
  /** Default per-call timeout; `timeout_ms` in config overrides it. */
  timeoutMs: number;
}

/**
 * Every audio endpoint takes `output_format` as a query parameter, and the config only allows MP3, so
 * audio that arrives without a usable media type (the base64 of `with-timestamps`) is MP3.
 */
export const REQUESTED_AUDIO_TYPE = 'audio/mpeg';

export function buildRequest(endpoint: ElevenLabsEndpoint, input: JsonObject, route: RoutedModel, config: ElevenLabsConfig): VendorRequest {
  const fields = { ...endpoint.fields, ...endpoint.modelFields?.[route.vendorModel] };
  return {
    method: 'POST',
    path: endpoint.path(input, config),
    query: { output_format: config.output_format ?? DEFAULT_OUTPUT_FORMAT },
    // The routed model wins over whatever model field the client sent (routing already chose it).
    json: mapFields(input, fields, { model_id: route.vendorModel }),
    timeoutMs: config.timeout_ms ?? endpoint.timeoutMs,
  };
}

/** A field rule for "use this field only when `preferred` is absent" (e.g. description_prompt vs prompt). */
export function fallbackFor(preferred: string, to: string): FieldRule {
  return { to, transform: (value, input) => (input[preferred] === undefined ? value : undefined) };
}

export function elevenLabsHttp(ctx: ElevenLabsContext): VendorHttp {
  const apiKey = ctx.config.api_key;
  // The router never picks a plugin whose isEnabled is false; this guards direct calls.
  if (!apiKey) throw new ProviderError(`${PROVIDER_ID}: api_key is not configured`, { provider: PROVIDER_ID, retryable: false });
  return ctx.http({
    provider: PROVIDER_ID,
    baseUrl: ctx.config.base_url ?? DEFAULT_BASE_URL,
    headers: { 'xi-api-key': apiKey },
    describeError: describeElevenLabsError,
  });
}

/** POSTs to an endpoint that answers with audio bytes and hosts them. */
export async function postForAudio(
  ctx: ElevenLabsContext,
  endpoint: ElevenLabsEndpoint,
  input: JsonObject,
  route: RoutedModel,
): Promise<{ file: HostedFile; vendorRequestId?: string }> {
  const request = buildRequest(endpoint, input, route, ctx.config);
  // The SDK sends no audio Accept header either; an `application/json` Accept would misdescribe the answer.
  const response = await elevenLabsHttp(ctx).request<Buffer>({ ...request, headers: { accept: '*/*' }, responseType: 'bytes' });
  const file = await hostAudio(ctx, response.data, response.headers.get('content-type'), `POST /${request.path}`);
  return { file, vendorRequestId: response.headers.get('request-id') ?? undefined };
}

/**
 * Hosts vendor audio, named by its media type. A 2xx with no bytes, or with JSON or text where audio
 * belongs, is a broken answer: retrying the same request would not mend it.
 */
export async function hostAudio(ctx: ElevenLabsContext, bytes: Buffer, contentType: string | null, source: string): Promise<HostedFile> {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (bytes.length === 0 || type === 'application/json' || type.startsWith('text/')) {
    throw new ProviderError(`${PROVIDER_ID}: malformed response: ${source} returned ${bytes.length} bytes of ${type || 'untyped content'} instead of audio`, {
      provider: PROVIDER_ID,
      retryable: false,
      vendorCode: 'malformed_response',
    });
  }
  const extension = type.startsWith('audio/') ? extensionForContentType(type) : 'bin';
  return extension === 'bin' ? ctx.blobs.put(bytes, REQUESTED_AUDIO_TYPE, 'mp3') : ctx.blobs.put(bytes, type, extension);
}

/**
 * The error bodies ElevenLabs sends (https://elevenlabs.io/docs/eleven-api/resources/errors):
 * `{detail: {type, code, message, status, request_id, param}}`, the legacy `{detail: {status, message}}`,
 * a bare `{detail: "text"}`, and FastAPI's 422 `{detail: [{loc, msg, type}]}` (the SDK's HttpValidationError).
 */
export function describeElevenLabsError(body: unknown): { message?: string; code?: string } {
  const detail = isRecord(body) ? body.detail : undefined;
  if (typeof detail === 'string') return detail ? { message: detail } : {};
  if (Array.isArray(detail)) {
    const problems = detail.filter(isRecord).map((item) => {
      const where = Array.isArray(item.loc) ? item.loc.filter((step) => step !== 'body').join('.') : '';
      return where ? `${where}: ${String(item.msg)}` : String(item.msg);
    });
    return problems.length > 0 ? { message: problems.join('; '), code: 'validation_error' } : {};
  }
  if (!isRecord(detail)) return {};
  const message = nonEmpty(detail.message);
  const code = nonEmpty(detail.code) ?? nonEmpty(detail.status);
  const param = nonEmpty(detail.param);
  return { message: message && param ? `${message} (param ${param})` : message, code };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** A string input field, or undefined. */
export function stringField(input: JsonObject, name: string): string | undefined {
  const value: JsonValue | undefined = input[name];
  return typeof value === 'string' ? value : undefined;
}
