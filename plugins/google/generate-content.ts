/**
 * `POST /v1beta/models/{model}:generateContent` (https://ai.google.dev/api/generate-content) with a Gemini
 * image model ("Nano Banana"): image.generate (prompt, optional reference images) and image.edit (prompt and
 * the source image). Input images travel inline as base64 parts; the answer is synchronous, the image comes
 * back base64 in `candidates[0].content.parts[].inlineData`.
 */
import type { FieldMap, JsonObject, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { generatedTaskId, imageGenerationOutput, MalformedVendorResponse, mapFields, pick, promptWithStyle, ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import { geminiHttp, geminiImageModel, PROVIDER_ID, type GeminiImageModel, type GoogleContext, type GoogleHandler } from './gemini-api.js';

/**
 * Inline data counts against the 20 MB limit of a whole request
 * (https://ai.google.dev/gemini-api/docs/image-understanding, "Passing images inline").
 */
const MAX_INLINE_IMAGE_BYTES = 20 * 1024 * 1024;

/** Sent explicitly so that the output's `aspect_ratio` states what was rendered (with references the model would pick). */
const DEFAULT_ASPECT_RATIO = '1:1';

/** Our fields -> `generationConfig`; only the fields the model accepts are passed in (see GEMINI_IMAGE_MODELS). */
export const IMAGE_CONFIG_MAP: FieldMap = {
  aspect_ratio: 'generationConfig.imageConfig.aspectRatio',
  // The vendor's sizes are upper-case (1K, 2K, 4K).
  resolution: { to: 'generationConfig.imageConfig.imageSize', transform: (resolution) => String(resolution).toUpperCase() },
};

/**
 * Image output only: the image models answer with just the image part when asked for IMAGE alone
 * (as the Vercel AI SDK's Google image model does against the live API), so no text has to be skipped.
 */
const BASE_REQUEST: JsonObject = { generationConfig: { responseModalities: ['IMAGE'] } };

export interface InlineImage {
  mimeType: string;
  data: string;
}

/** The request body: the prompt (with any style hint) as the first part, then the input images. */
export function generateContentRequest(input: JsonObject, images: InlineImage[], { accepts }: GeminiImageModel): JsonObject {
  const understood = Object.fromEntries(Object.entries(input).filter(([field]) => (accepts as string[]).includes(field)));
  return {
    contents: [{ parts: [{ text: promptWithStyle(String(input.prompt ?? ''), input.style) }, ...images.map((image) => ({ inlineData: { ...image } }))] }],
    ...mapFields(understood, IMAGE_CONFIG_MAP, BASE_REQUEST),
  };
}

export interface GeneratedImage {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

/**
 * The images of a response, or a permanent failure saying why there is none: a blocked prompt has no
 * candidates and a `promptFeedback.blockReason`; a refused render has a candidate without an image part and a
 * `finishReason` (SAFETY, IMAGE_SAFETY, NO_IMAGE, ...). Interim "thought" images are not results.
 */
export function imagesFromResponse(body: unknown): GeneratedImage[] {
  const candidate = pick(body, 'candidates.0');
  if (!candidate || typeof candidate !== 'object') {
    const blockReason = pick(body, 'promptFeedback.blockReason');
    if (typeof blockReason === 'string') throw noImage(`the prompt was blocked (${blockReason})`, pick(body, 'promptFeedback.blockReasonMessage'), blockReason);
    throw new MalformedVendorResponse(PROVIDER_ID, 'candidates.0', 'object');
  }
  const parts = pick(candidate, 'content.parts');
  const images = (Array.isArray(parts) ? parts : [])
    .filter((part) => !pick(part, 'thought'))
    .map((part) => ({ mimeType: pick(part, 'inlineData.mimeType'), data: pick(part, 'inlineData.data') }))
    .filter((inline): inline is { mimeType: string; data: string } => typeof inline.mimeType === 'string' && inline.mimeType.startsWith('image/') && typeof inline.data === 'string' && inline.data.length > 0);
  if (images.length > 0) {
    return images.map(({ mimeType, data }) => ({ bytes: Buffer.from(data, 'base64'), contentType: mimeType, extension: mimeType.slice('image/'.length) }));
  }
  const finishReason = pick(candidate, 'finishReason');
  const text = (Array.isArray(parts) ? parts : []).map((part) => pick(part, 'text')).filter((value) => typeof value === 'string').join(' ');
  if (typeof finishReason !== 'string') throw new MalformedVendorResponse(PROVIDER_ID, 'candidates.0.content.parts[].inlineData', 'object');
  throw noImage(`no image was rendered (finishReason ${finishReason})`, pick(candidate, 'finishMessage') ?? (text || undefined), finishReason);
}

function noImage(what: string, detail: unknown, code: string): ProviderError {
  const suffix = typeof detail === 'string' && detail.trim() ? `: ${detail.trim().slice(0, 300)}` : '';
  return new ProviderError(`${PROVIDER_ID}: ${what}${suffix}`, { provider: PROVIDER_ID, retryable: false, vendorCode: code });
}

/** Renders with `input` and the images at `imageUrls`; returns our hosted URLs and the vendor's response id. */
async function render(ctx: GoogleContext, route: RoutedModel, input: JsonObject, imageUrls: string[]): Promise<{ urls: string[]; taskId: string }> {
  // First, so that a model this plugin cannot serve fails before any input is fetched.
  const model = geminiImageModel(route.vendorModel);
  const images: InlineImage[] = [];
  for (const url of imageUrls) {
    const { bytes, contentType } = await ctx.blobs.fetchInput(url, { maxBytes: MAX_INLINE_IMAGE_BYTES });
    images.push({ mimeType: contentType, data: bytes.toString('base64') });
  }
  const body = generateContentRequest(input, images, model);
  // Relative, so that a `base_url` with a path prefix (a proxy) keeps it.
  const { data } = await geminiHttp(ctx).request({ method: 'POST', path: `v1beta/models/${encodeURIComponent(route.vendorModel)}:generateContent`, json: body });
  const hosted = await Promise.all(imagesFromResponse(data).map((image) => ctx.blobs.put(image.bytes, image.contentType, image.extension)));
  const responseId = pick(data, 'responseId');
  return { urls: hosted.map((file) => file.url), taskId: typeof responseId === 'string' && responseId ? responseId : generatedTaskId(PROVIDER_ID) };
}

export const imageGenerate: GoogleHandler = {
  async start(input: JsonObject, ctx: GoogleContext, route: RoutedModel): Promise<StartResult> {
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const references = Array.isArray(input.reference_image_urls) ? input.reference_image_urls.map(String) : [];
    const { urls, taskId } = await render(ctx, route, { ...input, aspect_ratio: aspectRatio }, references);
    // The Gemini API answers in base64 and keeps no copy: our hosted URLs stand in for provider_image_urls.
    return { done: imageGenerationOutput({ taskId, urls, provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};

export const imageEdit: GoogleHandler = {
  async start(input: JsonObject, ctx: GoogleContext, route: RoutedModel): Promise<StartResult> {
    // Without aspect_ratio the model keeps the source's shape, as image.edit promises.
    const { urls, taskId } = await render(ctx, route, input, [String(input.image_url)]);
    return { done: { task_id: taskId, asset_type: 'image', status: 'succeeded', image_url: urls[0], provider: PROVIDER_ID, model: route.publicName } };
  },
};
