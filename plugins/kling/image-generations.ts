/**
 * image.generate (model kling-image) on Kling's image generation endpoint:
 *   POST v1/images/generations -> data.task_id; GET v1/images/generations/{task_id} ->
 *   data.task_result.images[].url.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/imageGeneration
 */
import { MalformedVendorResponse, mapFields, requireField, type FieldMap, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { klingAsset, klingTaskHandler } from './kling-api.js';
import { PROVIDER_ID } from './kling-config.js';

/** The gateway documents 1:1 as the default shape, so it is always sent rather than left to Kling's default. */
const DEFAULT_ASPECT_RATIO = '1:1';

/** Our input field -> Kling's body field. `model_name` and `n` come from the route, not the input. */
export const imageGenerationsRequest: FieldMap = {
  prompt: 'prompt',
  // Not in today's image.generate input; mapped so adding it to the manifest needs no plugin change.
  negative_prompt: 'negative_prompt',
  // Kling takes one reference image (URL or Base64); the manifest caps kling-image at one.
  reference_image_urls: { to: 'image', transform: firstUrl },
  // "Reference intensity for user-uploaded images", [0, 1]: the same scale, and only meaningful with an image.
  reference_prompt_balance: { to: 'image_fidelity', transform: (balance, input) => (firstUrl(input.reference_image_urls ?? null) ? balance : undefined) },
  // Kling's resolution enum is lower case (1k, 2k).
  resolution: { to: 'resolution', transform: (value) => (typeof value === 'string' ? value.toLowerCase() : undefined) },
  aspect_ratio: { to: 'aspect_ratio', default: DEFAULT_ASPECT_RATIO },
};

export const imageGenerate = klingTaskHandler({
  path: 'v1/images/generations',
  // n = 1: the output names one image first, and each extra image costs Kling concurrency and credit.
  request: (input, route) => mapFields(input, imageGenerationsRequest, { model_name: route.vendorModel, n: 1 }),
  remember: (input) => ({ aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO }),
  async finish(body, task, ctx, route) {
    const images = requireField<unknown[]>(body, 'data.task_result.images', PROVIDER_ID, 'array');
    if (images.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'data.task_result.images', 'non-empty array');
    const vendorUrls = images.map((_, index) => requireField<string>(body, `data.task_result.images.${index}.url`, PROVIDER_ID));
    // Kling deletes generated files after 30 days: clients get our copies, the vendor URLs only for reference.
    const hosted = await Promise.all(vendorUrls.map((url) => ctx.blobs.rehost(url)));
    return klingAsset('image', task, route, {
      image_url: hosted[0].url,
      image_urls: hosted.map((file) => file.url),
      provider_image_urls: vendorUrls,
      provider_image_count: vendorUrls.length,
      aspect_ratio: task.state?.aspect_ratio ?? DEFAULT_ASPECT_RATIO,
    });
  },
});

function firstUrl(value: JsonValue): string | undefined {
  return Array.isArray(value) && typeof value[0] === 'string' ? value[0] : undefined;
}
