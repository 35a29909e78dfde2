/**
 * Seedance on ModelArk's content generation tasks:
 *   create  POST api/v3/contents/generations/tasks -> `{ id }` (https://docs.byteplus.com/en/docs/ModelArk/1520757)
 *   read    GET  api/v3/contents/generations/tasks/{id} (https://docs.byteplus.com/en/docs/ModelArk/1521309)
 *   cancel  DELETE the same path (https://docs.byteplus.com/en/docs/ModelArk/1521720)
 * Render settings go as body fields (the documented "conventional method", validated strictly: a bad value is
 * refused), not as `--rs 720p --dur 5` flags in the prompt (the older "weak validation" method, where a bad value
 * silently falls back to a default). Field names as in the official Go SDK's CreateContentGenerationTaskRequest
 * and GetContentGenerationTaskResponse (byteplus-go-sdk-v2, service/arkruntime/model/content_generation.go).
 * The builders and the reader are pure, so every documented shape is testable without a network.
 */
import { failedVideoTask, mapFields, pick, ProviderError, requireField, unsupportedInput } from '../../src/kernel/plugin-sdk/index.js';
import type { AskedVideoShape, FieldMap, JsonObject, JsonValue, ProviderTask, RoutedModel, VideoTaskView } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from './ark-vendor.js';

/** Relative to the base URL; a task lives at `${TASKS_PATH}/{id}`. */
export const TASKS_PATH = 'api/v3/contents/generations/tasks';

/** Seedance's own defaults, stated in the output when the request leaves them out. */
const DEFAULT_DURATION_SECONDS = 5;
const PROMPT_ONLY_RATIO = '16:9';
export const SEEDANCE_DEFAULTS: AskedVideoShape = { durationSeconds: DEFAULT_DURATION_SECONDS, aspectRatio: PROMPT_ONLY_RATIO };
/** With a first frame and no asked shape the clip follows the frame (`adaptive`, the image-to-video default). */
const FRAME_RATIO = 'adaptive';

/**
 * Our fields -> body fields. Not sent, for want of a Seedance 1.0 Pro counterpart: `negative_prompt` (Seedance
 * takes no negative prompt, and naming the unwanted in the prompt tends to draw it in), `prompt_extend` (a Wan
 * setting) and `nsfw_checker` (ModelArk moderates every task and offers no switch).
 */
export const SEEDANCE_FIELDS: FieldMap = {
  resolution: 'resolution',
  aspect_ratio: 'ratio',
  duration: 'duration',
  seed: 'seed',
  // Seedance leaves the watermark off by default; sent anyway so that a changed default cannot mark our clips.
  watermark: { to: 'watermark', default: false },
};

/** Media inputs of video.generate that Seedance 1.0 Pro cannot take (it has no reference, clip or audio input). */
const UNSUPPORTED_MEDIA = ['reference_image_urls', 'source_video_url', 'first_clip_url', 'audio_url'];

interface Frames {
  first?: string;
  last?: string;
}

/**
 * The create body: the prompt, then the first frame and the last frame as `image_url` items with their roles.
 * Inputs the model cannot honour are refused here, before anything is sent: silently dropping a reference
 * image or a last frame would hand the client a different video from the one asked for.
 */
export function seedanceCreateBody(input: JsonObject, route: RoutedModel): JsonObject {
  const refused = UNSUPPORTED_MEDIA.filter((field) => present(input[field]));
  if (refused.length > 0) throw unsupportedInput(PROVIDER_ID, `${route.publicName} cannot take ${refused.join(', ')}: it renders from a prompt, a first frame, or a first and a last frame`);
  const frames = framesOf(input);
  if (frames.last && !frames.first) throw unsupportedInput(PROVIDER_ID, `${route.publicName} needs a first frame (image_url or first_frame_url) to end on a last frame`);
  const content: JsonValue[] = [
    { type: 'text', text: String(input.prompt ?? '') },
    ...(frames.first ? [frameItem(frames.first, 'first_frame')] : []),
    ...(frames.last ? [frameItem(frames.last, 'last_frame')] : []),
  ];
  return mapFields(input, SEEDANCE_FIELDS, { model: route.vendorModel, content, ratio: frames.first ? FRAME_RATIO : PROMPT_ONLY_RATIO });
}

/** What the output must state, kept with the task because `status` no longer sees the input. */
export function seedanceTaskState(input: JsonObject): JsonObject {
  return {
    duration: typeof input.duration === 'number' ? input.duration : DEFAULT_DURATION_SECONDS,
    aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : framesOf(input).first ? FRAME_RATIO : PROMPT_ONLY_RATIO,
  };
}

export function taskPath(task: ProviderTask): string {
  return `${TASKS_PATH}/${encodeURIComponent(task.taskId)}`;
}

/**
 * A task as the read call returns it. Statuses: queued, running, succeeded, failed, cancelled (only a queued task
 * can be cancelled) and expired (not run within `execution_expires_after`, 48 hours by default). A failed task
 * carries `error.code` / `error.message`; a finished one `content.video_url` (valid 24 hours) and the `duration`
 * and `ratio` it was rendered at.
 */
export function readSeedanceTask(data: unknown): VideoTaskView {
  const status = requireField<string>(data, 'status', PROVIDER_ID);
  switch (status) {
    // Nothing rendered yet. ModelArk reports no progress while running, so none is made up.
    case 'queued':
      return { state: 'pending', progress: 0 };
    case 'running':
      return { state: 'pending' };
    case 'succeeded': {
      const duration = pick(data, 'duration');
      const ratio = pick(data, 'ratio');
      return {
        state: 'succeeded',
        videoUrl: requireField<string>(data, 'content.video_url', PROVIDER_ID),
        durationSeconds: typeof duration === 'number' && duration > 0 ? duration : undefined,
        // `adaptive` is resolved to the rendered shape once the task has run; anything else is not a shape.
        aspectRatio: typeof ratio === 'string' && /^\d+:\d+$/.test(ratio) ? ratio : undefined,
      };
    }
    case 'failed':
      return failedVideoTask(PROVIDER_ID, data, { message: 'error.message', code: 'error.code' });
    case 'cancelled':
      return { state: 'failed', message: `${PROVIDER_ID}: the task was cancelled` };
    case 'expired':
      return { state: 'failed', message: `${PROVIDER_ID}: the task expired before it was rendered (ModelArk gives up on a task 48 hours after creation by default)` };
    default:
      throw new ProviderError(`${PROVIDER_ID}: malformed response: unknown status "${status}"`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'malformed_response' });
  }
}

function framesOf(input: JsonObject): Frames {
  const first = input.image_url ?? input.first_frame_url;
  const last = input.last_frame_url ?? input.end_image_url;
  return { first: typeof first === 'string' ? first : undefined, last: typeof last === 'string' ? last : undefined };
}

function frameItem(url: string, role: 'first_frame' | 'last_frame'): JsonObject {
  return { type: 'image_url', image_url: { url }, role };
}

function present(value: JsonValue | undefined): boolean {
  return typeof value === 'string' ? value.length > 0 : Array.isArray(value) ? value.length > 0 : value !== undefined && value !== null;
}
