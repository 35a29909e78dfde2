/**
 * First-and-last-frame video on the legacy protocol (kf2v): POST
 * api/v1/services/aigc/image2video/video-synthesis with `input.first_frame_url` and `input.last_frame_url`.
 * https://docs.qwencloud.com/api-reference/video-generation/wan-image-to-video-first-last-frames/create-task
 * https://www.alibabacloud.com/help/en/model-studio/image-to-video-first-and-last-frames-guide
 *
 * There is no wan2.6 kf2v model: the page lists wan2.2-kf2v-flash and wanx2.1-kf2v-plus only, and wan2.7 does
 * first-and-last-frame through its image-to-video model instead. The Wan 2.6 route therefore renders these
 * runs with wan2.2-kf2v-flash, the newest kf2v model, which renders 5 seconds whatever is asked.
 */
import { promptFields, resolutionTier, type WanEndpoint } from './wan-request.js';

export const KEYFRAME_MODEL = 'wan2.2-kf2v-flash';

export const wan22FirstLastFrame: WanEndpoint = {
  run: 'first-and-last-frame run',
  path: 'api/v1/services/aigc/image2video/video-synthesis',
  model: () => KEYFRAME_MODEL,
  fixedDurationSeconds: 5,
  fields: {
    ...promptFields,
    image_url: 'input.first_frame_url',
    first_frame_url: 'input.first_frame_url',
    last_frame_url: 'input.last_frame_url',
    end_image_url: 'input.last_frame_url',
    // 480P, 720P or 1080P; the clip keeps the first frame's shape.
    resolution: resolutionTier,
    prompt_extend: 'parameters.prompt_extend',
    watermark: { to: 'parameters.watermark', default: false },
    seed: 'parameters.seed',
  },
};
