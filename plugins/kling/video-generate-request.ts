/**
 * What video.generate (kling-2.5-turbo, kling-2.6) sends to both Kling video endpoints, text2video and
 * image2video, and how it reads their finished task. The endpoint files add only their own fields.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/textToVideo
 * https://app.klingai.com/global/dev/document-api/apiReference/model/imageToVideo
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { klingAsset, nearestKlingDuration, type KlingTaskEndpoint } from './kling-api.js';
import { PROVIDER_ID } from './kling-config.js';
import { hostKlingVideo } from './video-result.js';

/** Kling's own default shape for text2video; sent explicitly so the output can name it. */
export const DEFAULT_ASPECT_RATIO = '16:9';
const DEFAULT_DURATION_SECONDS = 5;

/**
 * Kling sells resolution as a mode: std renders 720p, pro 1080p (the manifest allows Kling only these two).
 * Kling's capability map decides which model/mode pairs exist; whatever it refuses reaches the client.
 */
const MODES: Record<string, string> = { '720p': 'std', '1080p': 'pro' };

/**
 * Our fields both endpoints take. `model_name` comes from the route. Not sent, because Kling has no such
 * control (the manifest describes them as "where the model supports one"): seed, watermark, prompt_extend,
 * nsfw_checker.
 */
export const videoGenerateFields: FieldMap = {
  prompt: 'prompt',
  negative_prompt: 'negative_prompt',
  duration: { to: 'duration', default: DEFAULT_DURATION_SECONDS, transform: nearestKlingDuration },
  resolution: { to: 'mode', transform: (resolution) => (typeof resolution === 'string' ? MODES[resolution] : undefined) },
};

/** One video.generate endpoint: its path and its full request map. */
export function videoGenerateEndpoint(path: string, fields: FieldMap): KlingTaskEndpoint {
  return {
    path,
    request(input, route) {
      if (Array.isArray(input.reference_image_urls) && input.reference_image_urls.length > 0) {
        // Kling 2.x video endpoints take frames, not subject or style references; dropping them silently
        // would render something else than was asked for.
        throw unsupportedInput(PROVIDER_ID, `${route.publicName} takes no reference images (reference_image_urls); send a first frame (image_url) instead`);
      }
      return mapFields(input, fields, { model_name: route.vendorModel });
    },
    // The poll path picks the endpoint back; duration and shape are what the output must state.
    remember: (input) => ({
      path,
      duration: Number(nearestKlingDuration(input.duration ?? DEFAULT_DURATION_SECONDS) ?? DEFAULT_DURATION_SECONDS),
      aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO,
    }),
    async finish(body, task, ctx, route) {
      const video = await hostKlingVideo(body, ctx);
      const state: JsonObject = task.state ?? {};
      return klingAsset('video', task, route, {
        video_url: video.url,
        // Kling reports what it rendered ("5.1"); the asked length stands in when it says nothing.
        duration: video.durationSeconds ?? (typeof state.duration === 'number' ? state.duration : DEFAULT_DURATION_SECONDS),
        aspect_ratio: typeof state.aspect_ratio === 'string' ? state.aspect_ratio : DEFAULT_ASPECT_RATIO,
      });
    },
  };
}
