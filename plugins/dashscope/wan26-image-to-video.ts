/**
 * Wan 2.6 image-to-video from a first frame (the legacy protocol): POST
 * api/v1/services/aigc/video-generation/video-synthesis, model `wan2.6-i2v`, the frame as `input.img_url`,
 * a resolution tier (the clip keeps the frame's shape, so no size or ratio).
 * https://docs.qwencloud.com/api-reference/video-generation/wan-image-to-video-first-frame/create-task
 * https://www.alibabacloud.com/help/en/model-studio/legacy-image-to-video-api-reference
 */
import { promptFields, renderFields, resolutionTier, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';

export const wan26ImageToVideo: WanEndpoint = {
  run: 'first-frame run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (family) => `${family}-i2v`,
  fields: {
    ...promptFields,
    // Both spellings of the first frame; the manifest lets a client send only one.
    image_url: 'input.img_url',
    first_frame_url: 'input.img_url',
    resolution: resolutionTier,
    ...renderFields,
  },
};
