/**
 * image.generate on BFL's FLUX models (flux-1.1-pro, flux-kontext-pro, flux-2-pro): the prompt, the shape the
 * model asks for (pixel size or ratio), and any reference images in the model's input-image fields.
 *
 * Not sent, because these endpoints have no such setting: `quality` (the manifest: other models ignore it) and
 * `reference_prompt_balance` (no weight for input images on these endpoints; see image-models.ts). `style` joins
 * the prompt as a hint, FLUX taking its style from the prompt.
 */
import { imageGenerationOutput, mapFields, styleJoinsPrompt, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { bflTaskHandler } from './bfl-task.js';
import { PROVIDER_ID } from './bfl-vendor.js';
import { checkInputImageCount, inputImageFields } from './input-images.js';

/**
 * Sent explicitly so that the output's `aspect_ratio` states what was rendered: the models' own defaults differ
 * (FLUX1.1 [pro] 1024 x 768, Kontext the first input image's shape).
 */
const DEFAULT_ASPECT_RATIO = '1:1';
const DEFAULT_RESOLUTION = '1K';

export const IMAGE_GENERATE_FIELDS: FieldMap = {
  prompt: { to: 'prompt', transform: styleJoinsPrompt },
};

export const imageGenerate = bflTaskHandler({
  async request(input, model, ctx) {
    const references = Array.isArray(input.reference_image_urls) ? input.reference_image_urls.map(String) : [];
    checkInputImageCount(model, references.length, 'reference image');
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const resolution = typeof input.resolution === 'string' ? input.resolution : DEFAULT_RESOLUTION;
    const images = await inputImageFields(model, references, ctx, 'reference_image_urls');
    return mapFields(input, IMAGE_GENERATE_FIELDS, { ...model.shape(aspectRatio, resolution), ...images });
  },
  remember: (input) => ({ aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO }),
  finish: ({ hosted, vendorUrl }, task, route) =>
    imageGenerationOutput({
      taskId: task.taskId,
      urls: [hosted.url],
      providerUrls: [vendorUrl],
      provider: PROVIDER_ID,
      model: route.publicName,
      aspectRatio: typeof task.state?.aspect_ratio === 'string' ? task.state.aspect_ratio : DEFAULT_ASPECT_RATIO,
    }),
});
