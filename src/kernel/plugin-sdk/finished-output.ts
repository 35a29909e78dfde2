import type { JsonObject } from './contract.js';

/**
 * The fields every finished media output starts with (spec, "Output objects"): the vendor task, the asset
 * type, `status: succeeded`, who served it and under which model name. Operation-specific fields follow.
 */
export function finishedAsset(assetType: 'image' | 'video' | 'audio' | '3d_model' | '3d_location', head: { taskId: string; provider: string; model: string }, fields: JsonObject = {}): JsonObject {
  return { task_id: head.taskId, asset_type: assetType, status: 'succeeded', provider: head.provider, model: head.model, ...fields };
}

/**
 * The image.generate output as every image vendor builds it from its hosted URLs.
 * `providerUrls` are the vendor's own URLs where it has them; vendors that answer in base64 keep no copy,
 * so our hosted URLs are the only URLs of those images and stand in for them.
 */
export function imageGenerationOutput(fields: { taskId: string; urls: string[]; providerUrls?: string[]; provider: string; model: string; aspectRatio: string }): JsonObject {
  const providerUrls = fields.providerUrls ?? fields.urls;
  return finishedAsset('image', fields, {
    image_url: fields.urls[0],
    image_urls: fields.urls,
    provider_image_urls: providerUrls,
    provider_image_count: providerUrls.length,
    aspect_ratio: fields.aspectRatio,
  });
}
