/**
 * Wan 2.6 text-to-video (the legacy protocol, wan2.6 and earlier): POST
 * api/v1/services/aigc/video-generation/video-synthesis with `input.prompt`, `input.audio_url` and an exact
 * pixel `parameters.size`.
 * https://docs.qwencloud.com/api-reference/video-generation/wan-text-to-video/create-task
 * https://www.alibabacloud.com/help/en/model-studio/legacy-wan-text-to-video-api-reference
 */
import type { FieldRule, JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { promptFields, renderFields, VIDEO_SYNTHESIS_PATH, type WanEndpoint } from './wan-request.js';

/** The vendor's default tier; the manifest defaults Wan to it as well. */
const DEFAULT_RESOLUTION = '1080p';

/**
 * `width*height` per tier and shape, as the legacy size table lists them (720P: 1280*720, 720*1280, 960*960,
 * 1088*832, 832*1088; 1080P: 1920*1080, 1080*1920, 1440*1440, 1632*1248, 1248*1632). A size outside what a
 * model renders comes back as the vendor's 400.
 */
const SIZES: Record<string, Record<string, string>> = {
  '720p': { '16:9': '1280*720', '9:16': '720*1280', '1:1': '960*960', '4:3': '1088*832', '3:4': '832*1088' },
  '1080p': { '16:9': '1920*1080', '9:16': '1080*1920', '1:1': '1440*1440', '4:3': '1632*1248', '3:4': '1248*1632' },
};

/** Our aspect ratio and resolution as the legacy `parameters.size`; 16:9 (the vendor's default shape) when absent. */
export const legacySize: FieldRule = {
  to: 'parameters.size',
  default: '16:9',
  transform: (ratio, input: JsonObject) => {
    const resolution = typeof input.resolution === 'string' ? input.resolution : DEFAULT_RESOLUTION;
    return typeof ratio === 'string' ? SIZES[resolution]?.[ratio] : undefined;
  },
};

export const wan26TextToVideo: WanEndpoint = {
  run: 'prompt-only run',
  path: VIDEO_SYNTHESIS_PATH,
  model: (_family, textModel) => textModel,
  fields: {
    ...promptFields,
    // Drives lip-sync and timing (wan2.5/wan2.6 only); without it the model makes its own sound.
    audio_url: 'input.audio_url',
    aspect_ratio: legacySize,
    ...renderFields,
  },
};
