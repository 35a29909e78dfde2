/**
 * image.generate with Seedream 4.0: the prompt at the asked shape and resolution class, with up to 14 reference
 * images (Seedream's own limit, which the manifest mirrors). Synchronous: `start` returns the output.
 */
import { imageGenerationOutput, type JsonObject, type RoutedModel, type StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type ArkContext, type ArkHandler } from './ark-vendor.js';
import { renderSeedream } from './images-generations.js';
import { ratioOf, seedreamSize } from './seedream-size.js';

/** The manifest's default shape, sent as pixels so that the output states what was rendered. */
const DEFAULT_ASPECT_RATIO = '1:1';

export const imageGenerate: ArkHandler = {
  async start(input: JsonObject, ctx: ArkContext, route: RoutedModel): Promise<StartResult> {
    const aspectRatio = typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
    const size = seedreamSize(ratioOf(aspectRatio) ?? 1, typeof input.resolution === 'string' ? input.resolution : undefined);
    // Reference images go as URLs that Seedream fetches itself: 14 of them inline would pass the 64 MB body limit.
    const references = Array.isArray(input.reference_image_urls) ? input.reference_image_urls.filter((url): url is string => typeof url === 'string') : [];
    const images = await renderSeedream(ctx, route, input, { size, image: references.length > 0 ? references : undefined });
    return { done: imageGenerationOutput({ ...images, provider: PROVIDER_ID, model: route.publicName, aspectRatio }) };
  },
};
