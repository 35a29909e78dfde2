/**
 * video.upscale on the Topaz Video API (models topaz-proteus and topaz-starlight).
 *
 * `start` does every step that cannot be left pending — fetch our `video_url`, probe it, create the request,
 * accept it, upload the file, complete the upload — and returns the Topaz request id as the task; `status`
 * polls it and hosts the result. Nothing between the steps needs remembering, so the task state holds only
 * the probed length of the source, which `status` reports as the job's usage: the manifest prices upscaling
 * per source second and settles on it. Topaz's own bill (its `estimates.cost`, in Topaz credits) is not a price
 * of ours and is not converted.
 *
 * A failure after the create call (accept refused, an upload part lost) cancels the Topaz request before the
 * error goes up: accepting reserves credits, and the kernel's retry of `start` would otherwise leave a
 * reservation behind for every attempt. Cancelling before processing refunds everything
 * (https://developer.topazlabs.com/api-reference/video-api/cancel-request).
 */
import { join } from 'node:path';
import { finishedAsset, ProviderError, requireField, type JsonObject, type ProviderTask, type RoutedModel, type StartResult, type StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { CREATE_REQUEST_PATH, createRequestBody, topazModel } from './create-request.js';
import { readTopazStatus, requestPath, statusPath } from './request-status.js';
import { probeSource } from './source-probe.js';
import { PROVIDER_ID, TOPAZ_DEFAULTS, topazHttp, type TopazContext, type TopazHandler } from './topaz-vendor.js';
import { uploadSource } from './upload-source.js';

export const videoUpscale: TopazHandler = {
  async start(input: JsonObject, ctx: TopazContext, route: RoutedModel): Promise<StartResult> {
    topazModel(route);
    const videoUrl = input.video_url;
    if (typeof videoUrl !== 'string' || !/^https?:\/\//.test(videoUrl)) {
      throw new ProviderError('topaz: video_url must be an http(s) URL of the video to upscale', { provider: PROVIDER_ID, retryable: false, vendorCode: 'unsupported_input' });
    }
    // Streamed to disk, probed and uploaded from there: a source may run to gigabytes.
    const sourcePath = join(await ctx.scratchDir(), 'source');
    await ctx.blobs.fetchInputToFile(videoUrl, sourcePath, { maxBytes: ctx.config.max_input_bytes ?? TOPAZ_DEFAULTS.max_input_bytes, field: 'video_url' });
    const source = await probeSource(ctx, sourcePath);

    const api = topazHttp(ctx);
    const created = await api.request({ method: 'POST', path: CREATE_REQUEST_PATH, json: createRequestBody(input, route, source) });
    const requestId = requireField<string>(created.data, 'requestId', PROVIDER_ID);
    try {
      await uploadSource(ctx, api, requestId, { path: sourcePath, size: source.size, container: source.container });
    } catch (error) {
      await cancelQuietly(ctx, requestId);
      throw error;
    }
    return { task: { taskId: requestId, state: { source_seconds: source.durationSeconds } } };
  },

  async status(task: ProviderTask, ctx: TopazContext, route: RoutedModel): Promise<StatusResult> {
    const { data } = await topazHttp(ctx).request({ path: statusPath(task.taskId) });
    const view = readTopazStatus(data);
    if (view.state === 'pending') return { pending: { progress: view.progress } };
    if (view.state === 'failed') return { failed: view.message };

    // Topaz writes MP4 (the create call asks for it); naming it keeps the hosted type right whatever storage says.
    // Streamed into storage: an upscaled output can run to gigabytes.
    const hosted = await ctx.blobs.rehost(view.downloadUrl, { contentType: 'video/mp4', extension: 'mp4', maxBytes: ctx.config.max_output_bytes ?? TOPAZ_DEFAULTS.max_output_bytes });
    return {
      done: finishedAsset('video', { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, {
        video_url: hosted.url,
        requested_model: route.model,
        ...sourceUsage(task),
      }),
    };
  },

  /**
   * DELETE video/{id}: a full refund before processing starts, a partial one (by progress) during it; 204 when
   * already canceled. A request Topaz no longer knows (404) is as cancelled as it gets.
   */
  async cancel(task: ProviderTask, ctx: TopazContext): Promise<void> {
    try {
      await topazHttp(ctx).request({ method: 'DELETE', path: requestPath(task.taskId) });
    } catch (error) {
      if (!(ProviderError.is(error) && error.details.vendorStatus === 404)) throw error;
    }
  },
};

/**
 * The upscaled video keeps the source's length (Proteus and Starlight enhance frame by frame; the frame-rate filter
 * keeps the speed), so the probed source seconds are the output's. A task without them (started before the plugin
 * kept them) reports nothing, and the quote stands.
 */
function sourceUsage(task: ProviderTask): JsonObject {
  const seconds = task.state?.source_seconds;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds >= 0 ? { usage: { output_seconds: seconds } } : {};
}

async function cancelQuietly(ctx: TopazContext, requestId: string): Promise<void> {
  try {
    await topazHttp(ctx).request({ method: 'DELETE', path: requestPath(requestId) });
  } catch (error) {
    // The original failure is what the request reports; a cancel that also failed is only worth a log line.
    ctx.log.warn({ err: error, topazRequestId: requestId }, 'could not cancel the Topaz request after a failed upload');
  }
}
