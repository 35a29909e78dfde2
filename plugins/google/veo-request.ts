/**
 * `POST /v1beta/models/{model}:predictLongRunning` with a Veo model (https://ai.google.dev/gemini-api/docs/video):
 * one instance (the prompt, and the first frame, last frame or reference images inline as base64) and the
 * render parameters. The field names are the ones Google's own SDK sends to the Gemini API (googleapis/js-genai,
 * src/converters/_models_converters.ts: generateVideosParametersToMldev, generateVideosConfigToMldev,
 * imageToMldev, videoGenerationReferenceImageToMldev).
 *
 * Not sent, on purpose:
 * - `seed`: the Gemini API has none for Veo (the SDK refuses it: "seed parameter is only supported in Gemini
 *   Enterprise Agent Platform mode, not in Gemini Developer API mode"); the manifest promises a seed only
 *   "where the model supports one".
 * - `watermark`, `nsfw_checker`: the Gemini API has no such settings for Veo.
 * - `personGeneration`: we have no field for it, so Google's per-mode default applies.
 */
import type { FieldMap, JsonObject } from '../../src/kernel/plugin-sdk/index.js';
import { mapFields, unsupportedInput } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './gemini-api.js';

/** Veo's own defaults, sent explicitly so that the output states what was rendered. */
export const DEFAULT_ASPECT_RATIO = '16:9';
export const DEFAULT_DURATION_SECONDS = 8;

/** Our fields -> `parameters`. Our resolutions (720p, 1080p) and ratios (16:9, 9:16) are spelled as Google's. */
export const VEO_PARAMETERS_MAP: FieldMap = {
  aspect_ratio: { to: 'parameters.aspectRatio', default: DEFAULT_ASPECT_RATIO },
  resolution: 'parameters.resolution',
  duration: { to: 'parameters.durationSeconds', default: DEFAULT_DURATION_SECONDS },
  negative_prompt: 'parameters.negativePrompt',
  // Gemini's prompt rewriting, which the SDK passes to the Gemini API as `enhancePrompt`. Whether Veo 3.1 accepts
  // `false` is not documented there; a refusal comes back as Google's 400 with its message.
  prompt_extend: 'parameters.enhancePrompt',
};

/** Which of our inputs become which image of the instance (the manifest lets a client send one spelling of each). */
export const FRAME_INPUTS = {
  image: ['image_url', 'first_frame_url'],
  lastFrame: ['last_frame_url', 'end_image_url'],
} as const;

/** An image as the Gemini API takes it for Veo (`Image` without `gcsUri`, which is Vertex-only). */
export interface VeoImage {
  bytesBase64Encoded: string;
  mimeType: string;
}

export interface VeoImages {
  image?: VeoImage;
  lastFrame?: VeoImage;
  /** Subject references; Veo 3.1 takes up to three, all of type `asset`. */
  referenceImages: VeoImage[];
}

/** The first of `fields` that holds a URL, with that URL. */
export function firstUrl(input: JsonObject, fields: readonly string[]): { field: string; url: string } | undefined {
  const field = fields.find((name) => typeof input[name] === 'string' && input[name] !== '');
  return field === undefined ? undefined : { field, url: input[field] as string };
}

export function referenceUrls(input: JsonObject): string[] {
  return Array.isArray(input.reference_image_urls) ? input.reference_image_urls.filter((url): url is string => typeof url === 'string') : [];
}

/**
 * Refuses, before anything is fetched or sent, the combinations Veo 3.1 does not render: durationSeconds "Must
 * be "8" when using extension, reference images or with 1080p and 4k resolutions"
 * (https://ai.google.dev/gemini-api/docs/veo, Veo model parameters). The manifest allows 4 and 6 seconds in general.
 */
export function refuseUnrenderable(input: JsonObject, publicName: string): void {
  const duration = typeof input.duration === 'number' ? input.duration : DEFAULT_DURATION_SECONDS;
  if (duration === DEFAULT_DURATION_SECONDS) return;
  const reason =
    input.resolution === '1080p' ? `${publicName} renders 1080p at 8 seconds only: ask for duration 8, or 720p`
    : referenceUrls(input).length > 0 ? `${publicName} renders with reference images at 8 seconds only: ask for duration 8, or drop reference_image_urls`
    : undefined;
  if (reason) throw unsupportedInput(PROVIDER_ID, reason);
}

/** The request body for `input` with its images already read. */
export function predictLongRunningRequest(input: JsonObject, images: VeoImages): JsonObject {
  const instance: JsonObject = { prompt: String(input.prompt ?? '') };
  if (images.image) instance.image = { ...images.image };
  if (images.lastFrame) instance.lastFrame = { ...images.lastFrame };
  if (images.referenceImages.length > 0) instance.referenceImages = images.referenceImages.map((image) => ({ image: { ...image }, referenceType: 'asset' }));
  return { instances: [instance], ...mapFields(input, VEO_PARAMETERS_MAP) };
}
