/**
 * `POST api/v3/images/generations` with Seedream (https://docs.byteplus.com/en/docs/ModelArk/1541523; field
 * names as the official SDKs send them: byteplus-go-sdk-v2 service/arkruntime/model/images.go,
 * byteplus-python-sdk-v2 byteplussdkarkruntime/resources/images/images.py). One endpoint serves text-to-image,
 * reference images and edits; it answers synchronously with `data[].url` (valid 24 hours) and `data[].size`.
 * Shared by image.generate and image.edit: the two differ only in the images they send and the size they ask.
 */
import { generatedTaskId, MalformedVendorResponse, mapFields, pick, ProviderError, styleJoinsPrompt } from '../../src/kernel/plugin-sdk/index.js';
import type { FieldMap, JsonObject, JsonValue, RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { arkHttp, PROVIDER_ID, type ArkContext } from './ark-vendor.js';

/** Relative, so that a `base_url` with a path prefix keeps it. */
const PATH = 'api/v3/images/generations';

/**
 * Body fields every request carries, whatever the input says:
 * - one image per request (`sequential_image_generation: disabled`): the price is per image, and a batch would
 *   let the model decide how many to render;
 * - a URL rather than base64: the image is copied into our storage either way, and the body stays small;
 * - no watermark: Seedream adds an "AI generated" mark by default, which neither image operation asks for.
 */
const FIXED_FIELDS: JsonObject = { sequential_image_generation: 'disabled', response_format: 'url', watermark: false };

/**
 * Our fields -> the body. `quality` and `reference_prompt_balance` have no Seedream 4.0 counterpart and are
 * not sent (the manifest says other models ignore `quality`; `guidance_scale`, the only weight Seedream has, is
 * taken by the 3.0 models alone). `size` and `image` are set by the operation, which knows the shape and inputs.
 */
export const IMAGES_MAP: FieldMap = {
  // Seedream has no style parameter: a style hint joins the prompt.
  prompt: { to: 'prompt', transform: styleJoinsPrompt },
};

export interface SeedreamImages {
  /** Our hosted copies, in the vendor's order. */
  urls: string[];
  /** The vendor's own URLs (they expire after 24 hours). */
  providerUrls: string[];
  /** The API returns no job id; outputs need one. */
  taskId: string;
}

/** Renders one image at `size` from the prompt and any input `image` (URLs or a data URI), and hosts it. */
export async function renderSeedream(ctx: ArkContext, route: RoutedModel, input: JsonObject, request: { size: string; image?: JsonValue }): Promise<SeedreamImages> {
  const body = mapFields(input, IMAGES_MAP, { model: route.vendorModel, ...FIXED_FIELDS, size: request.size, ...(request.image === undefined ? {} : { image: request.image }) });
  const { data } = await arkHttp(ctx).request({ method: 'POST', path: PATH, json: body });
  const providerUrls = imageUrlsFrom(data);
  // Seedream 4.0 renders JPEG only (no `output_format` for it); naming the type keeps our copy right whatever the CDN declares.
  const hosted = await Promise.all(providerUrls.map((url) => ctx.blobs.rehost(url, { contentType: 'image/jpeg', extension: 'jpeg' })));
  return { urls: hosted.map((file) => file.url), providerUrls, taskId: generatedTaskId(PROVIDER_ID) };
}

/**
 * `data[].url` of an ImagesResponse. An image the service could not render carries `data[].error` instead (a
 * content filter on the output, for one); with no image at all that error, or a top-level `error`, is the
 * permanent failure the client reads.
 */
export function imageUrlsFrom(body: unknown): string[] {
  const items = pick(body, 'data');
  if (!Array.isArray(items)) {
    throw refusal(pick(body, 'error')) ?? new MalformedVendorResponse(PROVIDER_ID, 'data', 'array');
  }
  const urls = items.map((item) => pick(item, 'url')).filter((url): url is string => typeof url === 'string' && url.length > 0);
  if (urls.length > 0) return urls;
  const failed = items.map((item) => refusal(pick(item, 'error'))).find((error) => error !== undefined);
  throw failed ?? new MalformedVendorResponse(PROVIDER_ID, 'data.0.url', 'string');
}

function refusal(error: unknown): ProviderError | undefined {
  const message = pick(error, 'message');
  if (typeof message !== 'string' || message.trim() === '') return undefined;
  const code = pick(error, 'code');
  const vendorCode = typeof code === 'string' && code !== '' ? code : undefined;
  return new ProviderError(`${PROVIDER_ID}: no image was rendered: ${message.trim()}${vendorCode ? ` (${vendorCode})` : ''}`, { provider: PROVIDER_ID, retryable: false, vendorCode });
}
