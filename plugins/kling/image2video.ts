/**
 * Kling's image-to-video endpoint, for two operations: smartmotion.generate (model kling-v1-6, with camera
 * control) and video.generate with a first frame (and optionally a last one):
 *   POST v1/videos/image2video -> data.task_id; GET v1/videos/image2video/{task_id} ->
 *   data.task_result.videos[0].url.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/imageToVideo
 * Which model/mode/length takes camera control is in Kling's capability map
 * (https://app.klingai.com/global/dev/document-api/apiReference/model/skillsMap); the plugin does not
 * second-guess it, so whatever Kling answers for a combination it does not support reaches the client.
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { klingAsset, klingTaskHandler, nearestKlingDuration } from './kling-api.js';
import { PROVIDER_ID } from './kling-config.js';
import { videoGenerateEndpoint, videoGenerateFields } from './video-generate-request.js';
import { hostKlingVideo } from './video-result.js';

export const IMAGE2VIDEO_PATH = 'v1/videos/image2video';

/** Kling's preset moves; under a preset `config` must be absent. */
const PRESET_MOVES = new Set(['down_back', 'forward_up', 'right_turn_forward', 'left_turn_forward']);
/** The six axes of a `simple` move, each in [-10, 10] on both sides. */
const CAMERA_AXES = ['horizontal', 'vertical', 'pan', 'tilt', 'roll', 'zoom'] as const;

/**
 * Our input field -> Kling's body field. `model_name` comes from the route. Not sent, because Kling has no
 * such control: motion_scale, motion_seed. Kling's `mode` stays at its default (std).
 */
export const image2videoRequest: FieldMap = {
  // Kling fetches the image itself (URL or Base64; jpg/png, at most 10 MB, sides of 300 px or more).
  file_url: 'image',
  prompt: 'prompt',
  negative_prompt: 'negative_prompt',
  duration: { to: 'duration', default: 5, transform: nearestKlingDuration },
  motion: { to: 'camera_control', transform: (motion, input) => (drivesCamera(input) ? undefined : presetMove(motion)) },
  camera_control: { to: 'camera_control', transform: (control, input) => (drivesCamera(input) ? simpleMove(control) : undefined) },
};

export const smartmotionGenerate = klingTaskHandler({
  path: IMAGE2VIDEO_PATH,
  request(input, route) {
    if (typeof input.content_type === 'string' && input.content_type.startsWith('video/')) {
      // Kling has no endpoint that moves a camera over an existing video (video extension only takes videos
      // Kling generated itself), so a video source cannot be served here.
      throw unsupportedInput(PROVIDER_ID, `${route.publicName} animates a still image; a video source (${input.content_type}) is not supported`);
    }
    return mapFields(input, image2videoRequest, { model_name: route.vendorModel });
  },
  async finish(body, task, ctx, route) {
    const video = await hostKlingVideo(body, ctx);
    return klingAsset('video', task, route, { video_url: video.url });
  },
});

/**
 * video.generate's map: the first frame is Kling's `image`, the last its `image_tail` (each spelling the
 * manifest accepts; it lets a client send only one of each). Kling takes no aspect ratio here: the clip keeps
 * the image's shape. Which models and modes take `image_tail` is Kling's capability map's call.
 */
export const framesRequest: FieldMap = {
  ...videoGenerateFields,
  image_url: 'image',
  first_frame_url: 'image',
  last_frame_url: 'image_tail',
  end_image_url: 'image_tail',
};

export const framesToVideo = klingTaskHandler(videoGenerateEndpoint(IMAGE2VIDEO_PATH, framesRequest));

/** camera_control wins unless the client chose the preset mode (the manifest forbids sending both with a mode). */
function drivesCamera(input: JsonObject): boolean {
  if (input.control_mode !== undefined) return input.control_mode === 'camera_control';
  return typeof input.camera_control === 'object' && input.camera_control !== null;
}

function presetMove(motion: JsonValue): JsonObject | undefined {
  return typeof motion === 'string' && PRESET_MOVES.has(motion) ? { type: motion } : undefined;
}

/**
 * A `simple` move with every axis present (absent ones 0), as Kling's examples send it. Kling's docs ask for
 * one non-zero axis under `simple`; a combination is passed on as asked and Kling's answer decides.
 */
function simpleMove(control: JsonValue): JsonObject | undefined {
  if (typeof control !== 'object' || control === null || Array.isArray(control)) return undefined;
  const config: JsonObject = {};
  for (const axis of CAMERA_AXES) config[axis] = typeof control[axis] === 'number' ? control[axis] : 0;
  return { type: 'simple', config };
}
