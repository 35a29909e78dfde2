/**
 * image.generate (ideogram-v3) on `POST /v1/ideogram-v3/generate` (operation `post_generate_image_v3` of
 * https://api.ideogram.ai/openapi.json), multipart/form-data: the prompt, the shape, the rendering speed, a style,
 * and the reference images as `style_reference_images` files. Synchronous: the answer holds `data[].url`, links
 * that expire ("Images links are available for a limited period of time"), so every image is rehosted.
 */
import type { FieldMap, JsonObject, JsonValue, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { extensionForContentType, generatedTaskId, imageGenerationOutput, MalformedVendorResponse, mapFields, pick, ProviderError, requireField, styleJoinsPromptUnlessMapped, unsupportedInput, unsupportedModel } from '../../src/kernel/plugin-sdk/index.js';
import { ideogramHttp, PROVIDER_ID, type IdeogramContext, type IdeogramHandler } from './ideogram-api.js';

/** Relative, so that a `base_url` with a path prefix (a proxy) keeps it. */
const PATH = 'v1/ideogram-v3/generate';

/** The endpoint names its model (Ideogram 3.0, `V_3` in Ideogram's model enum): no other can be served here. */
const VENDOR_MODEL = 'V_3';

/** Sent explicitly so that the output's `aspect_ratio` states what was rendered. */
const DEFAULT_ASPECT_RATIO = '1:1';

/**
 * Our aspect ratio -> Ideogram's shape field. `AspectRatioV3` has every ratio we offer but 21:9, which goes as
 * the `ResolutionV3` size nearest to it, 1472x640 (2.30:1 against 2.33:1); the two fields exclude each other.
 */
const SHAPES: Record<string, JsonObject> = {
  '1:1': { aspect_ratio: '1x1' },
  '2:3': { aspect_ratio: '2x3' },
  '3:2': { aspect_ratio: '3x2' },
  '3:4': { aspect_ratio: '3x4' },
  '4:3': { aspect_ratio: '4x3' },
  '4:5': { aspect_ratio: '4x5' },
  '5:4': { aspect_ratio: '5x4' },
  '9:16': { aspect_ratio: '9x16' },
  '16:9': { aspect_ratio: '16x9' },
  '21:9': { resolution: '1472x640' },
};

/** Our quality -> `rendering_speed` (TURBO, DEFAULT, QUALITY); `auto` leaves Ideogram's default (DEFAULT). */
const RENDERING_SPEEDS: Record<string, string> = { low: 'TURBO', medium: 'DEFAULT', high: 'QUALITY' };

/** `StyleTypeV3` but CUSTOM, which only a trained model (`custom_model_uri`) can use. */
const STYLE_TYPES: ReadonlySet<string> = new Set(['AUTO', 'GENERAL', 'REALISTIC', 'DESIGN', 'FICTION', 'STYLIZED']);

/** `StylePresetV3`, the named looks Ideogram 3.0 offers. */
const STYLE_PRESETS: ReadonlySet<string> = new Set([
  '80S_ILLUSTRATION', '90S_NOSTALGIA', 'ABSTRACT_ORGANIC', 'ANALOG_NOSTALGIA', 'ART_BRUT', 'ART_DECO', 'ART_POSTER', 'AURA',
  'AVANT_GARDE', 'BAUHAUS', 'BLUEPRINT', 'BLURRY_MOTION', 'BRIGHT_ART', 'C4D_CARTOON', 'CHILDRENS_BOOK', 'COLLAGE',
  'COLORING_BOOK_I', 'COLORING_BOOK_II', 'CUBISM', 'DARK_AURA', 'DOODLE', 'DOUBLE_EXPOSURE', 'DRAMATIC_CINEMA', 'EDITORIAL',
  'EMOTIONAL_MINIMAL', 'ETHEREAL_PARTY', 'EXPIRED_FILM', 'FLAT_ART', 'FLAT_VECTOR', 'FOREST_REVERIE', 'GEO_MINIMALIST',
  'GLASS_PRISM', 'GOLDEN_HOUR', 'GRAFFITI_I', 'GRAFFITI_II', 'HALFTONE_PRINT', 'HIGH_CONTRAST', 'HIPPIE_ERA', 'ICONIC',
  'JAPANDI_FUSION', 'JAZZY', 'LONG_EXPOSURE', 'MAGAZINE_EDITORIAL', 'MINIMAL_ILLUSTRATION', 'MIXED_MEDIA', 'MONOCHROME',
  'NIGHTLIFE', 'OIL_PAINTING', 'OLD_CARTOONS', 'PAINT_GESTURE', 'POP_ART', 'RETRO_ETCHING', 'RIVIERA_POP', 'SPOTLIGHT_80S',
  'STYLIZED_RED', 'SURREAL_COLLAGE', 'TRAVEL_POSTER', 'VINTAGE_GEO', 'VINTAGE_POSTER', 'WATERCOLOR', 'WEIRD', 'WOODBLOCK_PRINT',
]);

/** "Maximum total size 10MB across all style references", in JPEG, PNG or WebP. */
const MAX_REFERENCE_BYTES = 10 * 1024 * 1024;
const REFERENCE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/**
 * Our `style` as Ideogram's own field when it names a style type or preset ("realistic", "oil painting"); any
 * other style is a free-form hint and joins the prompt instead.
 */
export function styleFields(style: JsonValue | undefined): JsonObject {
  if (typeof style !== 'string' || !style.trim()) return {};
  const name = style.trim().toUpperCase().replace(/[\s-]+/g, '_');
  if (STYLE_TYPES.has(name)) return { style_type: name };
  if (STYLE_PRESETS.has(name)) return { style_preset: name };
  return {};
}

/**
 * Our fields -> form fields whose name does not depend on the value. `resolution` is 1K only for ideogram-v3
 * (manifest), which is what Ideogram renders, so it sends nothing; `reference_prompt_balance` has no Ideogram
 * counterpart (style references carry no weight) and is not sent.
 */
export const GENERATE_MAP: FieldMap = {
  prompt: { to: 'prompt', transform: styleJoinsPromptUnlessMapped(styleFields) },
  quality: { to: 'rendering_speed', transform: (quality) => RENDERING_SPEEDS[String(quality)] },
};

/** The form's text fields. One image: the output names one image first, and each extra one is billed. */
export function generateFields(input: JsonObject, aspectRatio: string): JsonObject {
  return mapFields(input, GENERATE_MAP, { num_images: 1, ...SHAPES[aspectRatio], ...styleFields(input.style) });
}

interface ReferenceFile {
  bytes: Buffer;
  contentType: string;
}

/** Fetches the reference images, refusing (before any Ideogram call) what Ideogram would turn away. */
async function fetchReferences(ctx: IdeogramContext, urls: string[]): Promise<ReferenceFile[]> {
  const files: ReferenceFile[] = [];
  let total = 0;
  for (const [index, url] of urls.entries()) {
    const field = `reference_image_urls[${index}]`;
    const { bytes, contentType } = await ctx.blobs.fetchInput(url, { maxBytes: MAX_REFERENCE_BYTES, field });
    if (!REFERENCE_TYPES.has(contentType)) throw unsupportedInput(PROVIDER_ID, `${field} is ${contentType}; Ideogram takes JPEG, PNG or WebP reference images`);
    total += bytes.length;
    if (total > MAX_REFERENCE_BYTES) throw unsupportedInput(PROVIDER_ID, `the reference images come to more than 10 MB; Ideogram takes at most 10 MB of them in all`);
    files.push({ bytes, contentType });
  }
  return files;
}

export function generateForm(fields: JsonObject, references: ReferenceFile[]): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, String(value));
  for (const [index, file] of references.entries()) {
    form.append('style_reference_images', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), `reference-${index + 1}.${extensionForContentType(file.contentType)}`);
  }
  return form;
}

/**
 * The vendor URLs of the answer's images. An image that fails Ideogram's safety check comes back with
 * `is_image_safe: false` and no URL; when that leaves none, the request fails with that reason.
 */
export function imageUrlsFromResponse(body: unknown): string[] {
  const data = requireField<unknown[]>(body, 'data', PROVIDER_ID, 'array');
  if (data.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'data.0', 'object');
  const urls = data.flatMap((_, index) => (pick(body, `data.${index}.is_image_safe`) === false ? [] : [requireField<string>(body, `data.${index}.url`, PROVIDER_ID)]));
  if (urls.length === 0) {
    throw new ProviderError(`${PROVIDER_ID}: the image failed Ideogram's safety check and was withheld`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'image_unsafe' });
  }
  return urls;
}

export const imageGenerate: IdeogramHandler = {
  async start(input: JsonObject, ctx: IdeogramContext, route: RoutedModel): Promise<StartResult> {
    if (route.vendorModel !== VENDOR_MODEL) {
      throw unsupportedModel(PROVIDER_ID, `cannot render with ${route.vendorModel}: this plugin serves Ideogram 3.0 (${VENDOR_MODEL}) only`);
    }
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const references = await fetchReferences(ctx, Array.isArray(input.reference_image_urls) ? input.reference_image_urls.map(String) : []);
    const { data } = await ideogramHttp(ctx).request({ method: 'POST', path: PATH, body: generateForm(generateFields(input, aspectRatio), references) });
    const vendorUrls = imageUrlsFromResponse(data);
    const hosted = await Promise.all(vendorUrls.map((url) => ctx.blobs.rehost(url)));
    // The answer carries no job id (only `created`); outputs need one.
    const taskId = generatedTaskId(PROVIDER_ID);
    return { done: imageGenerationOutput({ taskId, urls: hosted.map((file) => file.url), providerUrls: vendorUrls, provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
