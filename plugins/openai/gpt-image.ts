/**
 * What the two GPT image endpoints (`/v1/images/generations`, `/v1/images/edits`) share: our aspect ratio as
 * one of their sizes, and the reading of their common `ImagesResponse`
 * (https://platform.openai.com/docs/api-reference/images/object).
 */
import type { JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { MalformedVendorResponse, pick, requireField } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type OpenAIContext } from './openai-api.js';

/**
 * GPT image models render three fixed sizes (https://platform.openai.com/docs/api-reference/images/create,
 * `size`); the manifest lets gpt-image-1 ask only for 1:1, 3:2 and 2:3, which these match exactly.
 */
export function gptImageSize(aspectRatio: JsonValue): JsonValue | undefined {
  const [width, height] = String(aspectRatio).split(':').map(Number);
  if (!width || !height) return undefined;
  return width > height ? '1536x1024' : width < height ? '1024x1536' : '1024x1024';
}

export interface GeneratedImage {
  bytes: Buffer;
  contentType: string;
  extension: string;
}

/**
 * `data[].b64_json`: GPT image models always answer in base64, never with URLs. The format is the
 * response's `output_format` (png unless asked otherwise).
 */
export function imagesFromResponse(body: unknown): GeneratedImage[] {
  const data = requireField<unknown[]>(body, 'data', PROVIDER_ID, 'array');
  if (data.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'data.0', 'object');
  const outputFormat = pick(body, 'output_format');
  const format = typeof outputFormat === 'string' ? outputFormat : 'png';
  return data.map((_, index) => {
    const base64 = requireField<string>(body, `data.${index}.b64_json`, PROVIDER_ID);
    if (base64.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, `data.${index}.b64_json`, 'non-empty string');
    return { bytes: Buffer.from(base64, 'base64'), contentType: `image/${format}`, extension: format };
  });
}

/** Our hosted URLs, in the vendor's order. */
export async function hostImages(ctx: OpenAIContext, images: GeneratedImage[]): Promise<string[]> {
  return Promise.all(images.map(async (image) => (await ctx.blobs.put(image.bytes, image.contentType, image.extension)).url));
}
