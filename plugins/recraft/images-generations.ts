/**
 * image.generate (recraft-v3) on `POST /v1/images/generations` (https://www.recraft.ai/docs/api-reference/endpoints,
 * operation `GenerateImage` of Recraft's OpenAPI document), an OpenAI-like JSON body: prompt, model, size, style
 * and substyle. Synchronous: the answer holds `data[].url` and `data[].image_id`; the URLs are temporary ("about
 * 24 hours", https://www.recraft.ai/docs/api-reference/agents), so every image is rehosted.
 */
import type { FieldMap, JsonObject, JsonValue, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { imageGenerationOutput, MalformedVendorResponse, mapFields, requireField, styleJoinsPromptUnlessMapped, unsupportedInput, unsupportedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, recraftHttp, type RecraftContext, type RecraftHandler } from './recraft-api.js';

/** Relative, so that a `base_url` with a path prefix (a proxy) keeps it. */
const PATH = 'v1/images/generations';

/** The sizes, styles and prompt limit below are Recraft V3's; other Recraft models differ in each. */
const VENDOR_MODEL = 'recraftv3';

/** Sent explicitly so that the output's `aspect_ratio` states what was rendered (Recraft's default is 1024x1024 too). */
const DEFAULT_ASPECT_RATIO = '1:1';

/**
 * Our aspect ratio -> Recraft V3's size for it ("List of supported image sizes", Recraft V2 / V3 rows,
 * https://www.recraft.ai/docs/api-reference/appendix). V3 has no 21:9: its widest is 2:1, too far off to stand in.
 */
const SIZES: Record<string, string> = {
  '1:1': '1024x1024',
  '2:3': '1024x1536',
  '3:2': '1536x1024',
  '3:4': '1024x1365',
  '4:3': '1365x1024',
  '4:5': '1024x1280',
  '5:4': '1280x1024',
  '9:16': '1024x1820',
  '16:9': '1820x1024',
};

/**
 * Recraft V3's raster style families (https://www.recraft.ai/docs/api-reference/appendix, "List of styles").
 * The vector families answer with SVG and are billed at Recraft's vector price, a different product from the
 * raster image recraft-v3 stands for: they are refused rather than rendered.
 */
const RASTER_STYLES: ReadonlySet<string> = new Set(['any', 'realistic_image', 'digital_illustration', 'logo_raster']);
const VECTOR_STYLES: ReadonlySet<string> = new Set(['vector_illustration', 'icon']);

/** "The maximum length is 1000 bytes" for the prompt (https://www.recraft.ai/docs/api-reference/usage). */
const MAX_PROMPT_BYTES = 1000;

interface StyleName {
  family: string;
  substyle?: string;
}

/** `digital_illustration`, `Digital illustration`, or with a substyle `digital_illustration/hand_drawn`. */
function styleName(style: JsonValue | undefined): StyleName | undefined {
  if (typeof style !== 'string') return undefined;
  const [family, substyle, ...rest] = style.trim().toLowerCase().replace(/[\s-]+/g, '_').split('/');
  return rest.length === 0 ? { family, substyle: substyle || undefined } : undefined;
}

/**
 * Our `style` as Recraft's `style` and `substyle` when it names a raster style family. Any other style is a
 * free-form hint ("photorealistic", a Recraft style's display name) and joins the prompt.
 */
export function styleFields(style: JsonValue | undefined): JsonObject {
  const name = styleName(style);
  if (!name || !RASTER_STYLES.has(name.family)) return {};
  return name.substyle ? { style: name.family, substyle: name.substyle } : { style: name.family };
}

/**
 * Our fields -> the JSON body. `quality` has no Recraft V3 counterpart and `resolution` is 1K only for recraft-v3
 * (manifest), which is Recraft's size class: neither is sent.
 */
export const GENERATIONS_MAP: FieldMap = {
  prompt: { to: 'prompt', transform: styleJoinsPromptUnlessMapped(styleFields) },
  aspect_ratio: { to: 'size', transform: (ratio) => SIZES[String(ratio)], default: DEFAULT_ASPECT_RATIO },
};

/** One image (the output names one image first, and each is billed), always as a URL to rehost. */
export function generationsRequest(input: JsonObject, vendorModel: string): JsonObject {
  return mapFields(input, GENERATIONS_MAP, { model: vendorModel, n: 1, response_format: 'url', ...styleFields(input.style) });
}

/** Refuses, before any Recraft call, what Recraft V3 cannot honour and the manifest allows. */
function checkSupported(input: JsonObject, body: JsonObject, aspectRatio: string, vendorModel: string): void {
  if (vendorModel !== VENDOR_MODEL) {
    throw unsupportedModel(PROVIDER_ID, `cannot render with ${vendorModel}: this plugin serves Recraft V3 (${VENDOR_MODEL}) only`);
  }
  if (!SIZES[aspectRatio]) throw unsupportedInput(PROVIDER_ID, `recraft-v3 does not render ${aspectRatio} (its aspect ratios are ${Object.keys(SIZES).join(', ')})`);
  const family = styleName(input.style)?.family;
  if (family && VECTOR_STYLES.has(family)) throw unsupportedInput(PROVIDER_ID, `the ${family} style renders vector (SVG) images, which recraft-v3 does not offer; use a raster style (${[...RASTER_STYLES].join(', ')})`);
  // Recraft documents V3 style references as a style created beforehand (`POST /v1/styles`, billed apart,
  // https://www.recraft.ai/docs/api-reference/usage); the generation body's `style_reference_urls` is documented
  // with the V4 Styles models. Rendering without the references would mislead, so they are refused.
  if (Array.isArray(input.reference_image_urls) && input.reference_image_urls.length > 0) throw unsupportedInput(PROVIDER_ID, 'recraft-v3 takes no reference images');
  const promptBytes = Buffer.byteLength(String(body.prompt));
  if (promptBytes > MAX_PROMPT_BYTES) throw unsupportedInput(PROVIDER_ID, `the prompt (with any style hint) is ${promptBytes} bytes; Recraft V3 takes at most ${MAX_PROMPT_BYTES}`);
}

/**
 * The vendor URLs of the answer's images, and the first image's `image_id` (required by Recraft's `Image`
 * schema) as the task id. The answer's `credits` are Recraft API units, not ours: the manifest's price stands.
 */
export function imagesFromResponse(body: unknown): { urls: string[]; imageId: string } {
  const data = requireField<unknown[]>(body, 'data', PROVIDER_ID, 'array');
  if (data.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'data.0', 'object');
  return {
    urls: data.map((_, index) => requireField<string>(body, `data.${index}.url`, PROVIDER_ID)),
    imageId: requireField<string>(body, 'data.0.image_id', PROVIDER_ID),
  };
}

export const imageGenerate: RecraftHandler = {
  async start(input: JsonObject, ctx: RecraftContext, route: RoutedModel): Promise<StartResult> {
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const body = generationsRequest(input, route.vendorModel);
    checkSupported(input, body, aspectRatio, route.vendorModel);
    const { data } = await recraftHttp(ctx).request({ method: 'POST', path: PATH, json: body });
    const { urls: vendorUrls, imageId } = imagesFromResponse(data);
    const hosted = await Promise.all(vendorUrls.map((url) => ctx.blobs.rehost(url)));
    return { done: imageGenerationOutput({ taskId: imageId, urls: hosted.map((file) => file.url), providerUrls: vendorUrls, provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
