/**
 * `POST /v1/videos` (https://developers.openai.com/api/reference/resources/videos/methods/create): a new video
 * from a prompt, serving video.generate (models partner-2 / partner-2-pro) and
 * partner2.video.generate_with_characters (quality standard / pro). JSON body: `model`, `prompt`, `seconds`
 * (a string), `size` ("WxH"), optional `input_reference {image_url}` and `characters [{id}]`.
 *
 * Where the typed reference lags the guide: the reference and openai-python's types still list seconds
 * 4/8/12 and four sizes; the guide (https://developers.openai.com/zh-Hans/api/docs/guides/video-generation) and
 * OpenAI's own Sora skill (openai/skills, skills/.curated/sora/references/video-api.md: "The March 2026
 * changelog and Sora guide added characters, 16s/20s clips, 1920x1080 / 1080x1920 on sora-2-pro") add
 * 16 and 20 s, the 1080p sizes and `characters`, which that skill's CLI sends as `characters: [{"id": …}]`
 * (scripts/sora.py, `_build_create_payload`).
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './partner2-vendor.js';
import { videoJobHandler, type VideoJobEndpoint } from './video-job.js';

const PATH = 'v1/videos';

/** The family's shortest clip (and the vendor's default), sent explicitly so the output states it. */
const DEFAULT_SECONDS = 4;
/**
 * Landscape, like the gateway's local renderer, rather than the vendor's portrait default (720x1280):
 * the gateway's other video models default to 16:9 too. Sent explicitly so the output states it.
 */
const DEFAULT_ASPECT_RATIO = '16:9';
const DEFAULT_RESOLUTION = '720p';

/**
 * Our aspect ratio and resolution -> the vendor's `size`. 1080p is the native 1920x1080 / 1080x1920 of
 * sora-2-pro (the guide: "use sora-2-pro to export 1080p at 1920x1080 or 1080x1920"), not the older
 * 1792x1024 / 1024x1792, which are neither 16:9 nor 1080 lines. The manifests allow 1080p on the pro models only.
 */
const SIZES: Record<string, Record<string, string>> = {
  '720p': { '16:9': '1280x720', '9:16': '720x1280' },
  '1080p': { '16:9': '1920x1080', '9:16': '1080x1920' },
};

/** Fields both operations send. `model` comes from the route. */
const VIDEO_FIELDS: FieldMap = {
  prompt: 'prompt',
  duration: { to: 'seconds', default: DEFAULT_SECONDS, transform: (seconds) => String(seconds) },
  aspect_ratio: { to: 'size', default: DEFAULT_ASPECT_RATIO, transform: (ratio, input) => videoSize(ratio, input.resolution ?? DEFAULT_RESOLUTION) },
};

/**
 * video.generate -> the body. The vendor takes one image, as the first frame (`input_reference`, "A fully
 * qualified URL or base64-encoded data URL"); the URL is passed on for the vendor to fetch, and the image
 * should match the requested size (the vendor rejects one that does not, with its own message). No vendor
 * field, so not sent: negative_prompt, seed, watermark, nsfw_checker, prompt_extend (and the last-frame and
 * reference-image inputs, refused in `create` below).
 */
export const GENERATE_FIELDS: FieldMap = {
  ...VIDEO_FIELDS,
  image_url: 'input_reference.image_url',
  first_frame_url: 'input_reference.image_url',
};

/**
 * partner2.video.generate_with_characters -> the body. The manifest accepts the characters in one of three
 * spellings (at most two); all become the vendor's `characters: [{id}]`. A `partner_characters` name is ours:
 * the vendor has no name field there and asks for the name to appear in the prompt instead.
 */
export const CHARACTER_VIDEO_FIELDS: FieldMap = {
  ...VIDEO_FIELDS,
  partner_cameos: { to: 'characters', transform: characterRefs },
  partner_characters: { to: 'characters', transform: characterRefs },
  characters: { to: 'characters', transform: characterRefs },
};

/** Inputs of video.generate the vendor has no way to honour; silently dropping them would change the video. */
const UNSUPPORTED_GENERATE_INPUTS: Record<string, string> = {
  last_frame_url: 'a last frame',
  end_image_url: 'a last frame',
  reference_image_urls: 'reference images (only one image, as the first frame: image_url or first_frame_url)',
};

const generateEndpoint: VideoJobEndpoint = {
  create(input, route) {
    for (const [field, what] of Object.entries(UNSUPPORTED_GENERATE_INPUTS)) {
      if (input[field] !== undefined) throw unsupportedInput(PROVIDER_ID, `${route.publicName} does not take ${what} (${field})`);
    }
    return { path: PATH, json: mapFields(input, GENERATE_FIELDS, { model: route.vendorModel }) };
  },
  outputFields: (input, json) => ({ duration: Number(json.seconds), aspect_ratio: aspectRatioOf(input) }),
};

const characterVideoEndpoint: VideoJobEndpoint = {
  create: (input, route) => ({ path: PATH, json: mapFields(input, CHARACTER_VIDEO_FIELDS, { model: route.vendorModel }) }),
  outputFields: (_input, json) => ({ duration: Number(json.seconds) }),
};

export const videoGenerate = videoJobHandler(generateEndpoint);
export const generateWithCharacters = videoJobHandler(characterVideoEndpoint);

function videoSize(ratio: JsonValue, resolution: JsonValue): string {
  const size = SIZES[String(resolution)]?.[String(ratio)];
  if (!size) throw unsupportedInput(PROVIDER_ID, `partner2 renders 16:9 or 9:16 at 720p or 1080p, not ${String(ratio)} at ${String(resolution)}`);
  return size;
}

function aspectRatioOf(input: JsonObject): string {
  return typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO;
}

/** Ids (`char_…`) or `{id, name}` objects -> `[{id}]`. */
function characterRefs(value: JsonValue): JsonValue | undefined {
  if (!Array.isArray(value)) return undefined;
  const ids = value.map((item) => (typeof item === 'object' && item !== null && !Array.isArray(item) ? item.id : item));
  return ids.filter((id): id is string => typeof id === 'string').map((id) => ({ id }));
}
