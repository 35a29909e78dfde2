/**
 * POST /marble/v1/worlds:generate: starts a world and answers an Operation to poll
 * (https://docs.worldlabs.ai/api/reference/worlds/generate, examples at
 * https://docs.worldlabs.ai/api/world-generation-examples). The request is `{display_name, model,
 * world_prompt}`; the prompt's `type` follows the input: a description alone is a text prompt, one image an
 * image prompt, several images a multi-image prompt, each with the description as `text_prompt`.
 */
import { mapFields, type FieldMap, type JsonObject, type JsonValue, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';

export const GENERATE_WORLD_PATH = 'marble/v1/worlds:generate';

/** `display_name` is at most 64 characters (OpenAPI WorldsGenerateRequest); our `name` allows 120. */
const DISPLAY_NAME_MAX = 64;

/**
 * Up to 4 images place themselves by azimuth; 5 to 8 need `reconstruct_images` (the OpenAPI's
 * MultiImagePrompt: "reconstruction mode (allows up to 8 images, otherwise 4)"), where Marble lays the
 * overlapping photos out itself.
 */
const DIRECTED_IMAGES_MAX = 4;

type PromptType = 'text' | 'image' | 'multi-image';

const WORLD_FIELDS: FieldMap = {
  name: { to: 'display_name', transform: (name) => (typeof name === 'string' ? name.slice(0, DISPLAY_NAME_MAX) : undefined) },
};

/** One map per prompt type, our field -> field of `world_prompt`. */
const PROMPT_FIELDS: Record<PromptType, FieldMap> = {
  text: {
    description: 'text_prompt',
  },
  image: {
    source_image_urls: { to: 'image_prompt', transform: (urls) => (Array.isArray(urls) && typeof urls[0] === 'string' ? uriContent(urls[0]) : undefined) },
    description: 'text_prompt',
  },
  'multi-image': {
    source_image_urls: { to: 'multi_image_prompt', transform: (urls, input) => locatedImages(urls, input) },
    description: 'text_prompt',
  },
};

export function generateWorldBody(input: JsonObject, route: RoutedModel): JsonObject {
  const images = imageUrls(input.source_image_urls);
  const type: PromptType = images.length === 0 ? 'text' : images.length === 1 ? 'image' : 'multi-image';
  const base: JsonObject = type === 'multi-image' && images.length > DIRECTED_IMAGES_MAX ? { type, reconstruct_images: true } : { type };
  return mapFields(input, WORLD_FIELDS, { model: route.vendorModel, world_prompt: mapFields(input, PROMPT_FIELDS[type], base) });
}

/** A public URL World Labs fetches itself (it must need no cookies or auth, per the examples page). */
function uriContent(uri: string): JsonObject {
  return { source: 'uri', uri };
}

/**
 * Each image with the azimuth our `angle_context` gives it. Ours are "degrees clockwise from the first
 * image", Marble's 0 is the front and 90 the right, so the first image is 0 once any image is placed; an
 * image nobody placed goes without one (the field is optional) and Marble chooses.
 */
function locatedImages(urls: JsonValue, input: JsonObject): JsonValue {
  const images = imageUrls(urls);
  const azimuths = new Map<string, number>();
  for (const entry of Array.isArray(input.angle_context) ? input.angle_context : []) {
    if (entry && typeof entry === 'object' && !Array.isArray(entry) && typeof entry.image_url === 'string' && typeof entry.azimuth === 'number') {
      azimuths.set(entry.image_url, entry.azimuth);
    }
  }
  return images.map((uri, index): JsonObject => {
    const azimuth = azimuths.get(uri) ?? (index === 0 && azimuths.size > 0 ? 0 : undefined);
    return azimuth === undefined ? { content: uriContent(uri) } : { azimuth, content: uriContent(uri) };
  });
}

function imageUrls(value: JsonValue | undefined): string[] {
  return Array.isArray(value) ? value.filter((url): url is string => typeof url === 'string') : [];
}
