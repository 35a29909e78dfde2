/**
 * Wan 2.7 image-to-video (the new protocol): POST api/v1/services/aigc/video-generation/video-synthesis,
 * model `wan2.7-i2v`, frames and clips as `input.media[]`. One model serves first-frame, first-and-last-frame
 * and clip continuation; the vendor accepts first_frame, first_frame+last_frame, first_clip and
 * first_clip+last_frame (each optionally with driving_audio, which the gateway never sends: frame-guided runs
 * take no reference audio).
 * https://docs.qwencloud.com/api-reference/video-generation/wan27-image-to-video/create-task
 */
import { promptFields, renderFields, resolutionTier, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';

export const wan27ImageToVideo: WanEndpoint = {
  run: 'frame-guided run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (family) => `${family}-i2v`,
  fields: {
    ...promptFields,
    // The clip keeps the frame's (or the first clip's) shape: no ratio.
    resolution: resolutionTier,
    // For a continuation this is the whole output, first clip included.
    ...renderFields,
  },
  media: [
    { from: 'first_clip_url', type: 'first_clip' },
    { from: 'image_url', type: 'first_frame' },
    { from: 'first_frame_url', type: 'first_frame' },
    { from: 'last_frame_url', type: 'last_frame' },
    { from: 'end_image_url', type: 'last_frame' },
  ],
};
