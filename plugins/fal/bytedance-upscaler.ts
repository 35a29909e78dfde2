/**
 * video.upscale (models bytedance-upscaler and the legacy video-upscaler) on
 * fal-ai/bytedance-upscaler/upscale/video. Fields from fal's model page
 * (https://fal.ai/models/fal-ai/bytedance-upscaler/upscale/video/llms.txt) and schema (fal-js
 * libs/client/src/types/video/types.gen.ts `BytedanceUpscalerUpscaleVideoInput`/`Output`):
 *   video_url, target_resolution ("1080p" | "2k" | "4k", default 1080p), target_fps ("30fps" | "60fps", default
 *   30fps) -> { video: File, duration: "Duration of audio input/video output as used for billing" }.
 * The queue polls it under `fal-ai/bytedance-upscaler` (fal-queue.ts, queueAppId).
 */
import { mapFields, pick, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { videoDurationSeconds } from './bundled-ffmpeg.js';
import { falFileAt, hostFalFile, MP4_VIDEO } from './fal-file.js';
import { falAsset, falQueueHandler } from './fal-queue.js';
import type { FalContext } from './fal-vendor.js';

const UPSCALE_REQUEST_FIELDS: FieldMap = {
  video_url: 'video_url',
  target_resolution: 'target_resolution',
  // Ours is the integer 30 or 60; fal's enum is "30fps" / "60fps".
  target_fps: { to: 'target_fps', transform: (fps) => (typeof fps === 'number' ? `${fps}fps` : undefined) },
};

export const videoUpscale = falQueueHandler({
  request: (input) => mapFields(input, UPSCALE_REQUEST_FIELDS),
  async finish(result, task, ctx, route) {
    const hosted = await hostFalFile(ctx, falFileAt(result, 'video'), MP4_VIDEO);
    return falAsset('video', task, route, {
      video_url: hosted.url,
      requested_model: route.model,
      // The manifest prices upscaling per second at fal's own resolution and frame-rate ratios, and settles on this.
      usage: { output_seconds: await billedSeconds(ctx, result, hosted.url) },
    });
  },
});

/**
 * fal bills this model per second of video, and its answer says which length it billed (`duration`). Without
 * it, the length of the upscaled video itself, measured: the length the client declared is only an estimate.
 */
async function billedSeconds(ctx: FalContext, result: unknown, hostedVideoUrl: string): Promise<number> {
  const billed = pick(result, 'duration');
  if (typeof billed === 'number' && Number.isFinite(billed) && billed >= 0) return billed;
  return videoDurationSeconds(ctx, (await ctx.blobs.fetchInput(hostedVideoUrl)).bytes);
}
