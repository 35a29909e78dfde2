/**
 * The end of a polled video task, the same for every vendor that hands back a link to the finished MP4: a
 * pending task reports any progress the vendor gives, a failed one its message, and a finished one is copied
 * into our storage (vendor links expire) and stated with the length and shape it was rendered at, or else the
 * ones `start` kept with the task (`status` no longer sees the input).
 */
import type { JsonObject, PluginContext, ProviderTask, StatusResult } from './contract.js';
import { textAt } from './field-map.js';
import { finishedAsset } from './finished-output.js';

/** One poll answer as a plugin reads it. */
export type VideoTaskView =
  | { state: 'pending'; progress?: number }
  | { state: 'failed'; message: string }
  | { state: 'succeeded'; videoUrl: string; durationSeconds?: number; aspectRatio?: string };

/**
 * A failed task as the poll answer states it: the vendor's message at `at.message` (a stand-in when it gives
 * none), followed by its code at `at.code` when there is one.
 */
export function failedVideoTask(provider: string, data: unknown, at: { message: string; code: string }): VideoTaskView {
  const message = textAt(data, at.message) ?? 'the task failed without a message';
  const code = textAt(data, at.code);
  return { state: 'failed', message: `${provider}: ${message}${code ? ` (${code})` : ''}` };
}

/** The length and shape a clip was asked at, for a finished task whose answer does not state them. */
export interface AskedVideoShape {
  durationSeconds: number;
  aspectRatio: string;
}

/**
 * The `duration` and `aspect_ratio` that `start` kept in the task state, each falling back to the vendor's
 * default when the request left it out (or `start` could not know it).
 */
export function askedVideoShape(task: ProviderTask, defaults: AskedVideoShape): AskedVideoShape {
  const state: JsonObject = task.state ?? {};
  return {
    durationSeconds: typeof state.duration === 'number' ? state.duration : defaults.durationSeconds,
    aspectRatio: typeof state.aspect_ratio === 'string' ? state.aspect_ratio : defaults.aspectRatio,
  };
}

/** One poll answer as the kernel's StatusResult, the finished clip hosted first. */
export async function videoTaskStatus(
  view: VideoTaskView,
  ctx: PluginContext<unknown>,
  head: { taskId: string; provider: string; model: string },
  asked: AskedVideoShape,
): Promise<StatusResult> {
  if (view.state === 'pending') return { pending: view.progress === undefined ? {} : { progress: view.progress } };
  if (view.state === 'failed') return { failed: view.message };
  // Naming the type keeps the hosted file right whatever the vendor's storage declares.
  const hosted = await ctx.blobs.rehost(view.videoUrl, { contentType: 'video/mp4', extension: 'mp4' });
  return {
    done: finishedAsset('video', head, {
      video_url: hosted.url,
      duration: view.durationSeconds ?? asked.durationSeconds,
      aspect_ratio: view.aspectRatio ?? asked.aspectRatio,
    }),
  };
}
