/**
 * `POST v1/video_generation`: one Hailuo task, answered `{task_id, base_resp}`. The same endpoint serves the
 * three modes the inputs pick: text-to-video (prompt only), image-to-video (`first_frame_image`) and
 * first-and-last-frame (`first_frame_image` + `last_frame_image`, MiniMax-Hailuo-02 only).
 * Fields as MiniMax's own clients send them: MiniMax-AI/skills (skills/minimax-multimodal-toolkit/references/
 * video-api.md: model, prompt, duration, resolution, prompt_optimizer, aigc_watermark, first/last frame) and
 * MiniMax-AI/cli (src/sdk/video/index.ts). The per-mode resolutions come from resellers' copies of MiniMax's
 * create pages, not from platform.minimax.io itself (docs/plugins.md, "Not verified against the vendors' own pages").
 *
 * Not sent, because Hailuo has no such control (the manifest describes them as "where the model supports
 * one"): negative_prompt, seed, nsfw_checker. `callback_url` is not sent either: the gateway polls.
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject, type JsonValue, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './minimax-vendor.js';

export const VIDEO_GENERATION_PATH = 'v1/video_generation';

/** The manifest's defaults for hailuo-02, repeated for a caller that did not apply them. */
export const DEFAULT_DURATION_SECONDS = 6;
const DEFAULT_RESOLUTION = '768p';

/** MiniMax documents the prompt as "max 2000 characters"; the manifest allows 4000 for every model. */
const PROMPT_MAX_CHARACTERS = 2000;

/** Our resolution -> MiniMax's (upper-case P). The manifest allows hailuo-02 only these three. */
const RESOLUTIONS: Record<string, string> = { '512p': '512P', '768p': '768P', '1080p': '1080P' };

/**
 * A prompt-only Hailuo clip is rendered landscape (1366x768 at 768P, 1920x1080 at 1080P); with a first frame
 * the clip takes the image's shape. The request has no aspect-ratio field in any mode.
 */
export const TEXT_TO_VIDEO_ASPECT_RATIO = '16:9';

/** Our field -> MiniMax's field. `model` comes from the route. */
const VIDEO_GENERATION_FIELDS: FieldMap = {
  prompt: 'prompt',
  // MiniMax fetches the frames itself (public URL or data URL; JPG/PNG/WebP under 20 MB, short side over 300 px).
  image_url: 'first_frame_image',
  first_frame_url: 'first_frame_image',
  last_frame_url: 'last_frame_image',
  end_image_url: 'last_frame_image',
  duration: { to: 'duration', default: DEFAULT_DURATION_SECONDS },
  resolution: { to: 'resolution', default: DEFAULT_RESOLUTION, transform: (value) => (typeof value === 'string' ? RESOLUTIONS[value] : undefined) },
  // The same idea under MiniMax's name: "automatically optimize the incoming prompt"; MiniMax's default is on.
  prompt_extend: 'prompt_optimizer',
  watermark: 'aigc_watermark',
};

export function videoGenerationBody(input: JsonObject, route: RoutedModel): JsonObject {
  refuseUnsupported(input, route);
  return mapFields(input, VIDEO_GENERATION_FIELDS, { model: route.vendorModel });
}

/** Whether the task renders from a first frame (its shape is then the image's, not a fixed 16:9). */
export function hasFirstFrame(input: JsonObject): boolean {
  return typeof input.image_url === 'string' || typeof input.first_frame_url === 'string';
}

function hasLastFrame(input: JsonObject): boolean {
  return typeof input.last_frame_url === 'string' || typeof input.end_image_url === 'string';
}

/**
 * Inputs the manifest lets through but Hailuo cannot honour: sending them would be billed for a video other
 * than the one asked for, or refused by MiniMax with a less clear message.
 */
function refuseUnsupported(input: JsonObject, route: RoutedModel): void {
  const name = route.publicName;
  if (typeof input.prompt === 'string' && input.prompt.length > PROMPT_MAX_CHARACTERS) {
    throw unsupportedInput(PROVIDER_ID, `${name} takes a prompt of at most ${PROMPT_MAX_CHARACTERS} characters (this one has ${input.prompt.length})`);
  }
  if (nonEmpty(input.reference_image_urls)) {
    throw unsupportedInput(PROVIDER_ID, `${name} takes no reference images (reference_image_urls); send a first frame (image_url) instead`);
  }
  // 512P is an image-to-video resolution only: the text-to-video listings name 768P and 1080P, and the
  // first-and-last-frame page says it "does not support 512P".
  if (input.resolution === '512p' && (!hasFirstFrame(input) || hasLastFrame(input))) {
    throw unsupportedInput(PROVIDER_ID, `${name} renders 512p only from a first frame alone; use 768p or 1080p${hasLastFrame(input) ? ' with a last frame' : ' without a first frame'}`);
  }
  // A prompt-only run has one shape; with a first frame the clip follows the image and the ratio is not sent.
  if (!hasFirstFrame(input) && input.aspect_ratio !== undefined && input.aspect_ratio !== TEXT_TO_VIDEO_ASPECT_RATIO) {
    throw unsupportedInput(PROVIDER_ID, `${name} renders ${TEXT_TO_VIDEO_ASPECT_RATIO} from a prompt alone, not ${String(input.aspect_ratio)}; send a first frame of that shape (image_url) instead`);
  }
}

function nonEmpty(value: JsonValue | undefined): boolean {
  return Array.isArray(value) && value.length > 0;
}
