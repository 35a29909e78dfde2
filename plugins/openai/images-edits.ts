/**
 * `POST /v1/images/edits` (https://platform.openai.com/docs/api-reference/images/createEdit), multipart:
 * serves image.edit (one source image) and image.generate with reference images, which GPT image models
 * take only through this endpoint (up to 16 input images). Synchronous, base64 results.
 */
import type { FieldMap, JsonObject, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { generatedTaskId, mapFields, styleJoinsPrompt } from '../../src/kernel/plugin-sdk/index.js';
import { gptImageSize, hostImages, imagesFromResponse, type GeneratedImage } from './gpt-image.js';
import { openAIHttp, PROVIDER_ID, type OpenAIContext, type OpenAIHandler } from './openai-api.js';

/** Relative, so that a `base_url` with a path prefix keeps it. */
const PATH = 'v1/images/edits';

/** Each input image must be under 50 MB (same reference, `image`). */
const MAX_IMAGE_BYTES = 50 * 1024 * 1024;

/** Our fields -> the form fields of the edit request (the image files are added beside them). */
export const EDITS_MAP: FieldMap = {
  prompt: { to: 'prompt', transform: styleJoinsPrompt },
  // Absent: the vendor's `auto` size, which keeps the source's shape as image.edit promises.
  aspect_ratio: { to: 'size', transform: gptImageSize },
  quality: 'quality',
  // How closely to keep the input images' features (`input_fidelity`, gpt-image-1: low | high, default low).
  reference_prompt_balance: { to: 'input_fidelity', transform: (balance) => (Number(balance) >= 0.5 ? 'high' : 'low') },
};

/** Sends the edit with the images at `imageUrls` (fetched into memory) and returns the images it made. */
export async function requestImageEdit(ctx: OpenAIContext, route: RoutedModel, input: JsonObject, imageUrls: string[]): Promise<GeneratedImage[]> {
  const form = new FormData();
  for (const [field, value] of Object.entries(mapFields(input, EDITS_MAP, { model: route.vendorModel }))) form.append(field, String(value));
  // One image is the documented `image` field; several go as the array field `image[]`.
  const field = imageUrls.length === 1 ? 'image' : 'image[]';
  for (const [index, url] of imageUrls.entries()) {
    const { bytes, contentType } = await ctx.blobs.fetchInput(url, { maxBytes: MAX_IMAGE_BYTES });
    // The vendor checks the file's type by its media type and name: both must say png, jpeg or webp.
    form.append(field, new Blob([new Uint8Array(bytes)], { type: contentType }), `image-${index + 1}.${contentType.split('/')[1] ?? 'png'}`);
  }
  const { data } = await openAIHttp(ctx).request({ method: 'POST', path: PATH, body: form });
  return imagesFromResponse(data);
}

export const imageEdit: OpenAIHandler = {
  async start(input: JsonObject, ctx: OpenAIContext, route: RoutedModel): Promise<StartResult> {
    const [imageUrl] = await hostImages(ctx, await requestImageEdit(ctx, route, input, [String(input.image_url)]));
    return {
      done: { task_id: generatedTaskId(PROVIDER_ID), asset_type: 'image', status: 'succeeded', image_url: imageUrl, provider: PROVIDER_ID, model: route.publicName },
    };
  },
};
