/**
 * Which Wan API a video.generate request goes to. The route's vendor model names the family (`wan2.6-t2v` ->
 * wan2.6; the manifest keeps the text-to-video name there for this purpose), the inputs name the kind of run,
 * and the table below names the API reference page that serves that kind for that family. Requests no page
 * can take are refused before anything is sent, with the reason: nothing the client sent is dropped silently.
 */
import { unsupportedInput, type JsonObject, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './dashscope-vendor.js';
import { acceptedInputs, urlsOf, type WanEndpoint } from './wan-request.js';
import { wan22FirstLastFrame } from './wan22-first-last-frame.js';
import { wan26ImageToVideo } from './wan26-image-to-video.js';
import { wan26ReferenceToVideo } from './wan26-reference-to-video.js';
import { wan26TextToVideo } from './wan26-text-to-video.js';
import { wan27ImageToVideo } from './wan27-image-to-video.js';
import { wan27ReferenceToVideo } from './wan27-reference-to-video.js';
import { wan27TextToVideo } from './wan27-text-to-video.js';

export type WanRunKind = 'prompt-only' | 'first-frame' | 'first-and-last-frame' | 'clip-continuation' | 'reference';

/** wan2.7 serves every frame-guided kind with one image-to-video model; wan2.6 has separate APIs and no continuation. */
const FAMILIES: Record<string, Partial<Record<WanRunKind, WanEndpoint>>> = {
  'wan2.6': {
    'prompt-only': wan26TextToVideo,
    'first-frame': wan26ImageToVideo,
    'first-and-last-frame': wan22FirstLastFrame,
    reference: wan26ReferenceToVideo,
  },
  'wan2.7': {
    'prompt-only': wan27TextToVideo,
    'first-frame': wan27ImageToVideo,
    'first-and-last-frame': wan27ImageToVideo,
    'clip-continuation': wan27ImageToVideo,
    reference: wan27ReferenceToVideo,
  },
};

/** Frame guidance, in every spelling the manifest accepts. */
const FRAME_INPUTS = ['image_url', 'first_frame_url', 'last_frame_url', 'end_image_url'];
/** Every media input of video.generate. */
const MEDIA_INPUTS = [...FRAME_INPUTS, 'first_clip_url', 'source_video_url', 'reference_image_urls', 'audio_url'];

export interface WanRun {
  kind: WanRunKind;
  endpoint: WanEndpoint;
  /** The vendor model the body names. */
  model: string;
}

export function planWanRun(input: JsonObject, route: RoutedModel): WanRun {
  const present = (field: string): boolean => urlsOf(input[field]).length > 0;
  // Spec, video.generate rule 3. The manifest refuses this too; the plugin does not rely on it, since the
  // image-to-video APIs would otherwise take the audio as driving audio and render something else.
  if (present('audio_url') && FRAME_INPUTS.some(present)) {
    throw unsupportedInput(PROVIDER_ID, 
      'Wan cannot combine frame guidance (image_url, first_frame_url, last_frame_url, end_image_url) with reference audio_url: drop audio_url, or drop the frames for a prompt-first or reference-video run',
    );
  }
  const family = /^(wan\d+\.\d+)-/.exec(route.vendorModel)?.[1];
  const endpoints = family === undefined ? undefined : FAMILIES[family];
  if (family === undefined || endpoints === undefined) throw unsupportedInput(PROVIDER_ID, `no Wan API is known for vendor model ${route.vendorModel}`);

  const kind = runKind(present);
  const endpoint = endpoints[kind];
  if (!endpoint) throw unsupportedInput(PROVIDER_ID, `${route.publicName} has no ${kind} run`);
  const accepted = acceptedInputs(endpoint);
  const refused = MEDIA_INPUTS.filter((field) => present(field) && !accepted.has(field));
  if (refused.length > 0) throw unsupportedInput(PROVIDER_ID, `a ${route.publicName} ${endpoint.run} cannot take ${refused.join(', ')}`);

  const model = endpoint.model(family, route.vendorModel);
  const fixed = endpoint.fixedDurationSeconds;
  if (fixed !== undefined && typeof input.duration === 'number' && input.duration !== fixed) {
    throw unsupportedInput(PROVIDER_ID, `a ${route.publicName} ${endpoint.run} renders ${fixed} seconds only (${model}); ask for duration ${fixed}, or use wan-2.7`);
  }
  return { kind, endpoint, model };
}

/** The most specific kind the inputs ask for; whatever else was sent must then fit that kind's API. */
function runKind(present: (field: string) => boolean): WanRunKind {
  if (present('first_clip_url')) return 'clip-continuation';
  if (present('source_video_url') || present('reference_image_urls')) return 'reference';
  const first = present('image_url') || present('first_frame_url');
  const last = present('last_frame_url') || present('end_image_url');
  if (first) return last ? 'first-and-last-frame' : 'first-frame';
  return 'prompt-only';
}
