/**
 * `POST /v1/images/generations` (https://platform.openai.com/docs/api-reference/images/create): image.generate
 * with GPT image models. Requests with reference images go to the edits endpoint instead, the only one
 * that takes input images. Synchronous, base64 results.
 */
import type { FieldMap, JsonObject, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { generatedTaskId, imageGenerationOutput, mapFields, styleJoinsPrompt } from '../../src/kernel/plugin-sdk/index.js';
import { gptImageSize, hostImages, imagesFromResponse, type GeneratedImage } from './gpt-image.js';
import { requestImageEdit } from './images-edits.js';
import { openAIHttp, PROVIDER_ID, type OpenAIContext, type OpenAIHandler } from './openai-api.js';

/** Relative, so that a `base_url` with a path prefix keeps it. */
const PATH = 'v1/images/generations';

/**
 * Sent explicitly rather than the vendor's `auto`, so that the output's `aspect_ratio` states the shape
 * that was rendered (the manifest: "when omitted the model's default (1:1 for most models)").
 */
const DEFAULT_ASPECT_RATIO = '1:1';

/** Our fields -> the JSON body. `resolution` is 1K only for gpt-image-1 (manifest) and has no vendor field. */
export const GENERATIONS_MAP: FieldMap = {
  // GPT image models have no style parameter (`style` is dall-e-3 only): a style hint joins the prompt.
  prompt: { to: 'prompt', transform: styleJoinsPrompt },
  aspect_ratio: { to: 'size', transform: gptImageSize, default: DEFAULT_ASPECT_RATIO },
  // Our enum (auto, low, medium, high) is the vendor's for GPT image models.
  quality: 'quality',
};

export function generationsRequest(input: JsonObject, vendorModel: string): JsonObject {
  return mapFields(input, GENERATIONS_MAP, { model: vendorModel, n: 1 });
}

export const imageGenerate: OpenAIHandler = {
  async start(input: JsonObject, ctx: OpenAIContext, route: RoutedModel): Promise<StartResult> {
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const references = Array.isArray(input.reference_image_urls) ? input.reference_image_urls.map(String) : [];
    const images: GeneratedImage[] = references.length > 0
      ? await requestImageEdit(ctx, route, { ...input, aspect_ratio: aspectRatio }, references)
      : imagesFromResponse((await openAIHttp(ctx).request({ method: 'POST', path: PATH, json: generationsRequest(input, route.vendorModel) })).data);
    const urls = await hostImages(ctx, images);
    // OpenAI answers in base64 and keeps no copy: our hosted URLs stand in for provider_image_urls.
    return { done: imageGenerationOutput({ taskId: generatedTaskId(PROVIDER_ID), urls, provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
