/**
 * video.generate without a first frame, on Kling's text-to-video endpoint:
 *   POST v1/videos/text2video -> data.task_id; GET v1/videos/text2video/{task_id} ->
 *   data.task_result.videos[0].url.
 * https://app.klingai.com/global/dev/document-api/apiReference/model/textToVideo
 */
import type { FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { klingTaskHandler } from './kling-api.js';
import { DEFAULT_ASPECT_RATIO, videoGenerateEndpoint, videoGenerateFields } from './video-generate-request.js';

export const TEXT2VIDEO_PATH = 'v1/videos/text2video';

/** Our input field -> Kling's body field: the shared ones plus the shape, which only text2video takes. */
export const text2videoRequest: FieldMap = {
  ...videoGenerateFields,
  aspect_ratio: { to: 'aspect_ratio', default: DEFAULT_ASPECT_RATIO },
};

export const textToVideo = klingTaskHandler(videoGenerateEndpoint(TEXT2VIDEO_PATH, text2videoRequest));
