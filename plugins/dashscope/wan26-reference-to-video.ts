/**
 * Wan 2.6 reference-to-video (the legacy protocol): POST api/v1/services/aigc/video-generation/video-synthesis,
 * model `wan2.6-r2v`, references as `input.reference_urls` (up to 5; the prompt calls them character1,
 * character2, ... in order), a pixel `parameters.size`, 2-10 s.
 * https://docs.qwencloud.com/api-reference/video-generation/wan-reference-to-video/create-task
 * https://docs.qwencloud.com/developer-guides/video-generation/reference-video
 * The page documents no audio input and no first frame, so a Wan 2.6 reference run takes neither.
 */
import { promptFields, renderFields, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';
import { legacySize } from './wan26-text-to-video.js';

export const wan26ReferenceToVideo: WanEndpoint = {
  run: 'reference run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (family) => `${family}-r2v`,
  fields: {
    ...promptFields,
    reference_image_urls: 'input.reference_urls',
    aspect_ratio: legacySize,
    ...renderFields,
  },
};
