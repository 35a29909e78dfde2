/**
 * image.edit on BFL's editing models (flux-kontext-pro is routed; FLUX.2 takes its source in the same field):
 * the instruction as the prompt and the source as `input_image`, a URL BFL fetches itself (hosted sources must
 * be public). Without `aspect_ratio` the edit keeps the source's shape, as image.edit promises (Kontext:
 * "aspect_ratio to override this behavior", https://docs.bfl.ai/kontext/kontext_image_editing); `resolution` is
 * 1K only for these models, so nothing is sent for it.
 */
import { finishedAsset, mapFields, ProviderError, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { bflTaskHandler } from './bfl-task.js';
import { PROVIDER_ID } from './bfl-vendor.js';
import { inputImageFields } from './input-images.js';

const RESOLUTION = '1K';

export const IMAGE_EDIT_FIELDS: FieldMap = {
  prompt: 'prompt',
};

export const imageEdit = bflTaskHandler({
  async request(input, model, ctx) {
    if (!model.edits) {
      throw new ProviderError(`${PROVIDER_ID}: ${model.name} generates from a prompt and cannot edit an image`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unsupported_operation' });
    }
    const shape = typeof input.aspect_ratio === 'string' ? model.shape(input.aspect_ratio, RESOLUTION) : {};
    const source = await inputImageFields(model, [String(input.image_url)], ctx, 'image_url');
    return mapFields(input, IMAGE_EDIT_FIELDS, { ...shape, ...source });
  },
  finish: ({ hosted }, task, route) => finishedAsset('image', { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, { image_url: hosted.url }),
});
