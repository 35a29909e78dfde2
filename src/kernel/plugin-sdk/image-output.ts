import type { JsonObject } from './contract.js';

/**
 * The image.generate output (spec, "Output objects") as every image vendor builds it from its hosted URLs.
 * `providerUrls` are the vendor's own URLs where it has them; vendors that answer in base64 keep no copy,
 * so our hosted URLs are the only URLs of those images and stand in for them.
 */
export function imageGenerationOutput(fields: { taskId: string; urls: string[]; providerUrls?: string[]; provider: string; model: string; aspectRatio: string }): JsonObject {
  const providerUrls = fields.providerUrls ?? fields.urls;
  return {
    task_id: fields.taskId,
    asset_type: 'image',
    status: 'succeeded',
    image_url: fields.urls[0],
    image_urls: fields.urls,
    provider_image_urls: providerUrls,
    provider_image_count: providerUrls.length,
    provider: fields.provider,
    model: fields.model,
    aspect_ratio: fields.aspectRatio,
  };
}
