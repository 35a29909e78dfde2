/**
 * Wan 2.7 text-to-video (the new protocol, wan2.7 only): POST
 * api/v1/services/aigc/video-generation/video-synthesis with a resolution tier and a ratio instead of a pixel
 * size. https://docs.qwencloud.com/api-reference/video-generation/wan27-text-to-video/create-task
 */
import { promptFields, renderFields, resolutionTier, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';

export const wan27TextToVideo: WanEndpoint = {
  run: 'prompt-only run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (_family, textModel) => textModel,
  fields: {
    ...promptFields,
    // WAV/MP3, 2-30 s, at most 15 MB; drives lip-sync and action timing.
    audio_url: 'input.audio_url',
    resolution: resolutionTier,
    // 16:9, 9:16, 1:1, 4:3, 3:4 as ours are.
    aspect_ratio: 'parameters.ratio',
    ...renderFields,
  },
};
