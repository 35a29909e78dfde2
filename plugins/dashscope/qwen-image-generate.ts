/**
 * image.generate on Qwen-Image (route qwen-image -> qwen-image) through the synchronous multimodal-generation
 * endpoint: the prompt as the message's only content, the shape as one of the model's five pixel sizes.
 * https://docs.qwencloud.com/api-reference/image-generation/qwen-text-to-image
 * https://www.alibabacloud.com/help/en/model-studio/qwen-image-api
 *
 * Not sent: `quality` (gpt-image-1 only, the manifest says others ignore it), `resolution` (the manifest allows
 * only 1K for qwen-image, the class its ~1.3 MP sizes belong to) and `reference_prompt_balance` (meaningless
 * without references, which are refused).
 */
import type { FieldMap, JsonObject, OperationHandler, RoutedModel, StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { imageGenerationOutput, mapFields, promptWithStyle, unsupportedInput } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type DashScopeConfig, type DashScopeContext } from './dashscope-vendor.js';
import { multimodalRequest, renderImage } from './multimodal-generation.js';

/** The vendor's default shape (1328*1328), stated in the output when the request left it out. */
const DEFAULT_ASPECT_RATIO = '1:1';

/**
 * The only sizes qwen-image renders, `width*height` by shape (the API reference's `size` values; its default is
 * 1328*1328). Any other size is the vendor's 400.
 */
export const QWEN_IMAGE_SIZES: Record<string, string> = {
  '16:9': '1664*928',
  '4:3': '1472*1140',
  '1:1': '1328*1328',
  '3:4': '1140*1472',
  '9:16': '928*1664',
};

/** Our fields -> the request's `parameters`. */
export const QWEN_IMAGE_PARAMETERS: FieldMap = {
  aspect_ratio: { to: 'size', default: DEFAULT_ASPECT_RATIO, transform: (ratio) => QWEN_IMAGE_SIZES[String(ratio)] },
};

/** The endpoint documents no style setting, so a style hint joins the prompt rather than being dropped. */
export function qwenImageRequest(input: JsonObject, vendorModel: string): JsonObject {
  return multimodalRequest(vendorModel, [{ text: promptWithStyle(String(input.prompt ?? ''), input.style) }], mapFields(input, QWEN_IMAGE_PARAMETERS));
}

/** Inputs qwen-image cannot honour; dropping them would render something other than what was asked. */
function refuseUnsupported(input: JsonObject, publicName: string): void {
  if (Array.isArray(input.reference_image_urls) && input.reference_image_urls.length > 0) {
    throw unsupportedInput(PROVIDER_ID, `${publicName} renders from the prompt alone and takes no reference_image_urls`);
  }
  if (typeof input.aspect_ratio === 'string' && !(input.aspect_ratio in QWEN_IMAGE_SIZES)) {
    throw unsupportedInput(PROVIDER_ID, `${publicName} renders ${Object.keys(QWEN_IMAGE_SIZES).join(', ')} only, not ${input.aspect_ratio}`);
  }
}

export const qwenImageGenerate: OperationHandler<DashScopeConfig> = {
  async start(input: JsonObject, ctx: DashScopeContext, route: RoutedModel): Promise<StartResult> {
    refuseUnsupported(input, route.publicName);
    const { taskId, vendorUrl, hosted } = await renderImage(ctx, qwenImageRequest(input, route.vendorModel));
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    return { done: imageGenerationOutput({ taskId, urls: [hosted.url], providerUrls: [vendorUrl], provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
