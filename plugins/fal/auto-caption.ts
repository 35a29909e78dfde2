/**
 * subtitles.generate (model auto-caption) on fal-ai/auto-caption: transcribes the video's speech and burns the
 * captions in. Input and output fields from fal's schema for the model (https://fal.ai/models/fal-ai/auto-caption/api;
 * fal-js libs/client/src/types/endpoints.ts `AutoCaptionInput`/`AutoCaptionOutput`):
 *   video_url (an .mp4 with audio), txt_font, font_size (int, default 24), txt_color (colour name, RGB tuple or
 *   hex), stroke_width (int px, default 1), top_align / left_align, refresh_interval (0.5-3 s), text_case
 *   -> { video_url: "<the captioned .mp4>" }.
 * The model has no outline colour, so `strokeColor` is not sent (fal draws its own outline colour); `duration`,
 * `file_name` and `content_type` are ours (pricing, display) and not sent either.
 */
import { mapFields, type FieldMap, type JsonObject, type JsonValue } from '../../src/kernel/plugin-sdk/index.js';
import { falUrlAt, hostFalFile, MP4_VIDEO } from './fal-file.js';
import { falAsset, falQueueHandler } from './fal-queue.js';

/** The fonts auto-caption names; anything else must be a URL of a .ttf file. Matched case-insensitively. */
const FAL_FONTS = ['Arial', 'Standard', 'Garamond', 'Times New Roman', 'Georgia'];

/**
 * Every body carries these. Subtitles sit at the foot of the frame, as the local provider draws them (libass's
 * bottom-centre default); auto-caption would centre them in the picture.
 */
const CAPTION_DEFAULTS: JsonObject = { top_align: 'bottom' };

const REQUEST_FIELDS: FieldMap = {
  video_url: 'video_url',
};

/** `subtitle_settings` -> auto-caption's style fields. */
const STYLE_FIELDS: FieldMap = {
  font: { to: 'txt_font', transform: falFont },
  // Both are integers in fal's schema; ours allow fractions.
  fontSize: { to: 'font_size', transform: wholeNumber },
  color: 'txt_color',
  strokeWidth: { to: 'stroke_width', transform: wholeNumber },
};

export const subtitlesGenerate = falQueueHandler({
  request(input) {
    const settings = input.subtitle_settings;
    const style = settings !== null && typeof settings === 'object' && !Array.isArray(settings) ? settings : {};
    return mapFields(style, STYLE_FIELDS, mapFields(input, REQUEST_FIELDS, CAPTION_DEFAULTS));
  },
  async finish(result, task, ctx, route) {
    const video = await hostFalFile(ctx, falUrlAt(result, 'video_url'), MP4_VIDEO);
    return falAsset('video', task, route, { video_url: video.url });
  },
});

/**
 * A font auto-caption knows, or a .ttf URL; any other family name (e.g. "DejaVu Sans") is left out and fal uses
 * its "Standard" font rather than failing the request.
 */
function falFont(font: JsonValue): JsonValue | undefined {
  if (typeof font !== 'string') return undefined;
  if (/^https?:\/\/\S+\.ttf(\?\S*)?$/i.test(font)) return font;
  return FAL_FONTS.find((name) => name.toLowerCase() === font.trim().toLowerCase());
}

function wholeNumber(value: JsonValue): JsonValue | undefined {
  return typeof value === 'number' ? Math.round(value) : undefined;
}
