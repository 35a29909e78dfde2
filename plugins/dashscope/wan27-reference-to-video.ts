/**
 * Wan 2.7 reference-to-video (the new protocol): POST api/v1/services/aigc/video-generation/video-synthesis,
 * model `wan2.7-r2v`, references as `input.media[]` of type reference_video / reference_image (1-5 in all;
 * the prompt calls them "Video 1", "Image 1", counted per type in array order), at most one first_frame.
 * With a reference video the vendor renders 2-10 s; with images only 2-15 s.
 * https://docs.qwencloud.com/api-reference/video-generation/wan27-reference-to-video/create-task
 */
import { promptFields, renderFields, resolutionTier, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';

export const wan27ReferenceToVideo: WanEndpoint = {
  run: 'reference run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (family) => `${family}-r2v`,
  fields: {
    ...promptFields,
    // The page's only audio input: a 1-10 s voice sample that sets the characters' timbre (it overrides the
    // reference video's own voice). That is the "reference audio" of a reference-video run.
    audio_url: 'input.reference_voice',
    resolution: resolutionTier,
    // Ignored by the vendor when a first frame sets the shape.
    aspect_ratio: 'parameters.ratio',
    ...renderFields,
  },
  media: [
    { from: 'source_video_url', type: 'reference_video' },
    { from: 'reference_image_urls', type: 'reference_image' },
    { from: 'image_url', type: 'first_frame' },
    { from: 'first_frame_url', type: 'first_frame' },
  ],
};
