/**
 * image.edit on Qwen-Image-Edit (route qwen-image-edit -> qwen-image-edit) through the synchronous
 * multimodal-generation endpoint: the source image, then the instruction, as the message's content.
 * https://www.alibabacloud.com/help/en/model-studio/qwen-image-edit-api
 *
 * qwen-image-edit renders one image that keeps the source's shape at about one megapixel; custom sizes,
 * several outputs and prompt rewriting belong to the -plus series. `resolution` (only 1K is allowed for this
 * model by the manifest) is therefore not sent, and an `aspect_ratio` is refused: the result would keep the
 * source's shape whatever was asked.
 */
import type { JsonObject, OperationHandler, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { finishedAsset, unsupportedInput } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type DashScopeConfig, type DashScopeContext } from './dashscope-vendor.js';
import { multimodalRequest, renderImage } from './multimodal-generation.js';

export function qwenImageEditRequest(input: JsonObject, vendorModel: string): JsonObject {
  // The source goes as its URL: DashScope fetches it (public URLs only, at most 10 MB).
  return multimodalRequest(vendorModel, [{ image: String(input.image_url) }, { text: String(input.prompt ?? '') }]);
}

export const qwenImageEdit: OperationHandler<DashScopeConfig> = {
  async start(input: JsonObject, ctx: DashScopeContext, route: RoutedModel): Promise<StartResult> {
    if (typeof input.aspect_ratio === 'string') {
      throw unsupportedInput(PROVIDER_ID, `${route.publicName} keeps the source image's shape and cannot render aspect_ratio ${input.aspect_ratio}: drop aspect_ratio`);
    }
    const { taskId, hosted } = await renderImage(ctx, qwenImageEditRequest(input, route.vendorModel));
    return { done: finishedAsset('image', { taskId, provider: PROVIDER_ID, model: route.publicName }, { image_url: hosted.url }) };
  },
};
