/**
 * video.extend (a guessed operation, see its manifest) on Wan 2.7's clip continuation: the image-to-video API with
 * the source as media `first_clip` (wan27-image-to-video.ts, the same request video.generate sends for
 * `first_clip_url`). Its `duration` is the length of the whole output, first clip included: Alibaba's guide shows a
 * 2 s first clip continued into a "12s, 10s continuation" output
 * (https://www.alibabacloud.com/help/en/model-studio/wan-image-to-video-guide), and it renders 2 to 15 whole seconds
 * from a first clip of 2 to 10 seconds. So `start` measures the source and asks for ceil(source + added) seconds,
 * and refuses, before anything is sent, what Wan cannot render. The task, its answer and its cancel are
 * video.generate's; the output adds how long the source is.
 */
import { mapFields, unsupportedInput, type FieldMap, type JsonObject, type OperationHandler } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type DashScopeConfig } from './dashscope-vendor.js';
import { measureSourceClip, type SourceClip } from './source-clip.js';
import { videoGenerate } from './video-generate.js';

const FIRST_CLIP_SECONDS = { min: 2, max: 10 };
const MAX_TOTAL_SECONDS = 15;
/** The manifest's default, for callers (tests) that drive the handler without the kernel filling it in. */
const DEFAULT_ADDED_SECONDS = 5;

/**
 * Our video.extend input as the video.generate input that asks Wan for the same continuation. The resolution is
 * always sent: Wan's own default is 1080P, and the price of an absent resolution is 720p's.
 */
const AS_CONTINUATION: FieldMap = {
  video_url: 'first_clip_url',
  prompt: 'prompt',
  negative_prompt: 'negative_prompt',
  seed: 'seed',
  resolution: { to: 'resolution', default: '720p' },
};

/** The whole output's length in Wan's whole seconds, or the reason Wan cannot render it. */
export function continuationSeconds(source: SourceClip, addedSeconds: number): number {
  const measured = Math.round(source.durationSeconds * 100) / 100;
  if (measured < FIRST_CLIP_SECONDS.min || measured > FIRST_CLIP_SECONDS.max) {
    throw unsupportedInput(PROVIDER_ID, `wan-2.7 continues a video of ${FIRST_CLIP_SECONDS.min} to ${FIRST_CLIP_SECONDS.max} seconds; video_url is ${measured} s long`);
  }
  // Rounding noise (4.000001 s + 2 s) must not cost a whole extra second.
  const total = Math.ceil(Number((source.durationSeconds + addedSeconds).toFixed(3)));
  if (total > MAX_TOTAL_SECONDS) {
    const room = Math.floor(Number((MAX_TOTAL_SECONDS - source.durationSeconds).toFixed(3)));
    throw unsupportedInput(PROVIDER_ID, `wan-2.7 renders at most ${MAX_TOTAL_SECONDS} seconds in all, source included: video_url is ${measured} s long, so at most ${room} seconds can be added`);
  }
  return total;
}

export const videoExtend: OperationHandler<DashScopeConfig> = {
  async start(input, ctx, route) {
    if (typeof input.video_url !== 'string') throw unsupportedInput(PROVIDER_ID, 'video_url is required');
    const source = await measureSourceClip(ctx, input.video_url, 'video_url');
    const added = typeof input.duration === 'number' ? input.duration : DEFAULT_ADDED_SECONDS;
    const total = continuationSeconds(source, added);
    const started = await videoGenerate.start({ ...mapFields(input, AS_CONTINUATION), duration: total }, ctx, route);
    if (!('task' in started)) return started;
    // status() no longer sees the input: what the output must state is kept with the task.
    const state: JsonObject = {
      ...started.task.state,
      duration: total,
      source_duration: Math.round(source.durationSeconds * 1000) / 1000,
      aspect_ratio: ratioOf(source),
    };
    return { task: { taskId: started.task.taskId, state } };
  },

  async status(task, ctx, route) {
    const result = await videoGenerate.status!(task, ctx, route);
    if (!('done' in result)) return result;
    const state: JsonObject = task.state ?? {};
    // The length asked for is the documented length of the whole output; the task's usage block is not used, as
    // Alibaba does not say whether it counts the first clip.
    return { done: { ...result.done, duration: state.duration ?? null, source_duration: state.source_duration ?? null, aspect_ratio: state.aspect_ratio ?? null } };
  },

  cancel: videoGenerate.cancel,
};

function ratioOf(source: SourceClip): string {
  const divisor = gcd(source.width, source.height);
  return `${source.width / divisor}:${source.height / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
