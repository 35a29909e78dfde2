/**
 * The life cycle every partner2 video operation shares (https://developers.openai.com/api/docs/guides/video-generation,
 * "Generate a video"): a create call answers a Video object whose `id` ("video_…") is the task; the task is
 * polled at `GET /v1/videos/{video_id}`; once `completed`, the MP4 is downloaded from
 * `GET /v1/videos/{video_id}/content?variant=video` (the vendor's copy expires, so clients get ours).
 * Each endpoint file brings only its create call and the output fields the create call fixes.
 *
 * No cancel: `DELETE /v1/videos/{video_id}` "permanently delete[s] a completed or failed video and its stored
 * assets" (https://developers.openai.com/api/reference/cli/resources/videos/methods/delete); nothing documents
 * that it stops a queued or running render, or refunds it.
 */
import { finishedAsset, MalformedVendorResponse, requireField, type JsonObject, type ProviderTask, type RoutedModel } from '../../src/kernel/plugin-sdk/index.js';
import { partner2Http, PROVIDER_ID, type Partner2Context, type Partner2Handler } from './partner2-vendor.js';
import { readVideoJob } from './video-object.js';

/** One Videos API call that starts a video job. */
export interface VideoJobEndpoint {
  /** The create call: a path relative to the base URL (no leading slash) and its JSON body. */
  create(input: JsonObject, route: RoutedModel): { path: string; json: JsonObject };
  /**
   * Output fields that the create call settles (e.g. the duration and shape that were asked for), kept with
   * the task because `status` no longer sees the input. JSON only.
   */
  outputFields?(input: JsonObject, json: JsonObject): JsonObject;
}

export function videoJobHandler(endpoint: VideoJobEndpoint): Partner2Handler {
  return {
    async start(input, ctx, route) {
      const { path, json } = endpoint.create(input, route);
      const { data } = await partner2Http(ctx).request({ method: 'POST', path, json });
      const taskId = requireField<string>(data, 'id', PROVIDER_ID);
      return { task: { taskId, state: { output: endpoint.outputFields?.(input, json) ?? {} } } };
    },

    async status(task, ctx, route) {
      const { data } = await partner2Http(ctx).request({ path: videoPath(task.taskId) });
      const job = readVideoJob(data);
      if (job.state === 'pending') return { pending: job.progress === undefined ? {} : { progress: job.progress } };
      if (job.state === 'failed') return { failed: job.message };
      return { done: { ...finishedVideo(task, route), video_url: await hostVideo(ctx, task.taskId), ...storedOutput(task) } };
    },
  };
}

function videoPath(videoId: string): string {
  return `v1/videos/${encodeURIComponent(videoId)}`;
}

/** The MP4 variant (`video`; the others are `thumbnail` and `spritesheet`), copied into our storage. */
async function hostVideo(ctx: Partner2Context, videoId: string): Promise<string> {
  const { data } = await partner2Http(ctx).request<Buffer>({
    path: `${videoPath(videoId)}/content`,
    query: { variant: 'video' },
    // What OpenAI's own clients ask for (openai-python, `videos.download_content`).
    headers: { accept: 'application/binary' },
    responseType: 'bytes',
  });
  if (data.length === 0) throw new MalformedVendorResponse(PROVIDER_ID, 'content', 'non-empty video');
  return (await ctx.blobs.put(data, 'video/mp4', 'mp4')).url;
}

function finishedVideo(task: ProviderTask, route: RoutedModel): JsonObject {
  return finishedAsset('video', { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName });
}

function storedOutput(task: ProviderTask): JsonObject {
  const output = task.state?.output;
  return typeof output === 'object' && output !== null && !Array.isArray(output) ? output : {};
}
