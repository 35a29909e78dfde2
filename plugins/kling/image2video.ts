/**
 * smartmotion.generate (model kling-v1-6) on Kling's image-to-video endpoint, with camera control:
 *   POST v1/videos/image2video -> data.task_id; GET v1/videos/image2video/{task_id} ->
 *   data.task_result.videos[0].url.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/imageToVideo
 * Which model/mode/length takes camera control is in Kling's capability map
 * (https://app.klingai.com/global/dev/document-api/apiReference/model/skillsMap); the plugin does not
 * second-guess it, so whatever Kling answers for a combination it does not support reaches the client.
 */
import { mapFields, ProviderError, requireField, type FieldMap, type JsonObject, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { klingAsset, klingTaskHandler } from './kling-api.js';
import { PROVIDER_ID } from './kling-config.js';

/** Kling's preset moves; under a preset `config` must be absent. */
const PRESET_MOVES = new Set(['down_back', 'forward_up', 'right_turn_forward', 'left_turn_forward']);
/** The six axes of a `simple` move, each in [-10, 10] on both sides. */
const CAMERA_AXES = ['horizontal', 'vertical', 'pan', 'tilt', 'roll', 'zoom'] as const;
/** Kling renders 5 or 10 seconds only (`duration` is a string enum). */
const KLING_DURATIONS = [5, 10] as const;

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
  path: 'v1/videos/image2video',
  request(input, route) {
    if (typeof input.content_type === 'string' && input.content_type.startsWith('video/')) {
      // Kling has no endpoint that moves a camera over an existing video (video extension only takes videos
      // Kling generated itself), so a video source cannot be served here.
      throw new ProviderError(`kling: ${route.publicName} animates a still image; a video source (${input.content_type}) is not supported`, {
        provider: PROVIDER_ID,
        retryable: false,
        vendorCode: 'unsupported_input',
      });
    }
    return mapFields(input, image2videoRequest, { model_name: route.vendorModel });
  },
  async finish(body, task, ctx, route) {
    const vendorUrl = requireField<string>(body, 'data.task_result.videos.0.url', PROVIDER_ID);
    // Kling documents MP4 output; naming it keeps the hosted file's type right whatever the CDN declares.
    const hosted = await ctx.blobs.rehost(vendorUrl, { contentType: 'video/mp4', extension: 'mp4' });
    return klingAsset('video', task, route, { video_url: hosted.url });
  },
});

/** Our 1-10 s to the nearer of Kling's 5 and 10; a tie (7.5) goes to the longer clip. */
export function nearestKlingDuration(value: JsonValue): string | undefined {
  if (typeof value !== 'number') return undefined;
  const nearest = KLING_DURATIONS.reduce((best, option) => (Math.abs(option - value) <= Math.abs(best - value) ? option : best));
  return String(nearest);
}

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
