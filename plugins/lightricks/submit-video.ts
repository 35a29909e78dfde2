/**
 * The LTX async API's two generation submits (https://docs.ltx.video/async-jobs, beta; bodies per
 * https://docs.ltx.video/api-documentation/api-reference/async-video-generation/submit-text-to-video and its
 * image-to-video sibling): `POST v2/text-to-video`, or `POST v2/image-to-video` with the first frame as
 * `image_uri`. Both answer 202 `{id, created_at}` at once.
 *
 * The async API rather than the synchronous `v1/...` one (which answers the MP4 bytes after the whole render,
 * minutes for a 4K clip): LTX recommends it for production because long sync requests hit connection
 * timeouts, and a worker then neither waits on a render nor loses a billed clip to a dropped connection.
 *
 * Not sent, because LTX-2 has no such control (the manifest describes them as "where the model supports one"):
 * negative_prompt, seed, watermark, nsfw_checker, prompt_extend. `generate_audio` is left at LTX's default
 * (true): the clip comes with LTX's generated soundtrack, as the gateway's other audio-capable video models do.
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject, type JsonValue, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './lightricks-vendor.js';

export const TEXT_TO_VIDEO = 'text-to-video';
export const IMAGE_TO_VIDEO = 'image-to-video';
export type LtxEndpoint = typeof TEXT_TO_VIDEO | typeof IMAGE_TO_VIDEO;

/** The manifest's defaults for both LTX models, repeated for a caller that did not apply them. */
export const DEFAULT_DURATION_SECONDS = 6;
const DEFAULT_RESOLUTION = '1080p';

/**
 * LTX-2 renders landscape only ("Aspect ratio: 16:9 (landscape) only" in LTX's LTX-2 support matrix; the
 * models page lists 1920x1080, 2560x1440 and 3840x2160 only), with or without a first frame.
 */
export const LTX2_ASPECT_RATIO = '16:9';

/** Our resolution -> LTX's `WIDTHxHEIGHT` (https://docs.ltx.video/models). The manifest allows LTX only these. */
const RESOLUTIONS: Record<string, string> = { '1080p': '1920x1080', '1440p': '2560x1440', '2160p': '3840x2160' };

/**
 * Frames per second. LTX's own default is 24, which the LTX-2 models do not offer: their matrix lists 25 and
 * 50 at every resolution (and at 50 only 6-10 s, which is all the manifest allows anyway). 25 is the rate every
 * ltx-2-fast/ltx-2-pro combination takes.
 */
const FPS = 25;

/** Our field -> LTX's field. `model` and `fps` are fixed per request. */
const SUBMIT_FIELDS: FieldMap = {
  prompt: 'prompt',
  // LTX fetches the image itself (an HTTPS URL, as in https://docs.ltx.video/quickstart).
  image_url: 'image_uri',
  first_frame_url: 'image_uri',
  duration: { to: 'duration', default: DEFAULT_DURATION_SECONDS },
  resolution: { to: 'resolution', default: DEFAULT_RESOLUTION, transform: (value) => (typeof value === 'string' ? RESOLUTIONS[value] : undefined) },
};

/** The endpoint the inputs call for: a first frame makes it image-to-video. */
export function endpointFor(input: JsonObject): LtxEndpoint {
  return typeof input.image_url === 'string' || typeof input.first_frame_url === 'string' ? IMAGE_TO_VIDEO : TEXT_TO_VIDEO;
}

export function submitBody(input: JsonObject, route: RoutedModel): JsonObject {
  refuseUnsupported(input, route);
  return mapFields(input, SUBMIT_FIELDS, { model: route.vendorModel, fps: FPS });
}

/** Inputs the manifest lets through but LTX-2 cannot honour: the video would not be the one asked for. */
function refuseUnsupported(input: JsonObject, route: RoutedModel): void {
  const name = route.publicName;
  if (input.aspect_ratio !== undefined && input.aspect_ratio !== LTX2_ASPECT_RATIO) {
    throw unsupportedInput(PROVIDER_ID, `${name} renders landscape (${LTX2_ASPECT_RATIO}) only, not ${String(input.aspect_ratio)}`);
  }
  // `last_frame_uri` arrived with LTX-2.3; the LTX-2 models take a first frame only.
  if (typeof input.last_frame_url === 'string' || typeof input.end_image_url === 'string') {
    throw unsupportedInput(PROVIDER_ID, `${name} takes no last frame (last_frame_url / end_image_url); send a first frame (image_url) alone`);
  }
  if (nonEmpty(input.reference_image_urls)) {
    throw unsupportedInput(PROVIDER_ID, `${name} takes no reference images (reference_image_urls); send a first frame (image_url) instead`);
  }
}

function nonEmpty(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.length > 0;
}
