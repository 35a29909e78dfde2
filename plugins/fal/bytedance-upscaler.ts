/**
 * video.upscale (models bytedance-upscaler and the legacy video-upscaler) on
 * fal-ai/bytedance-upscaler/upscale/video. Fields from fal's model page
 * (https://fal.ai/models/fal-ai/bytedance-upscaler/upscale/video/llms.txt) and schema (fal-js
 * libs/client/src/types/video/types.gen.ts `BytedanceUpscalerUpscaleVideoInput`/`Output`):
 *   video_url, target_resolution ("1080p" | "2k" | "4k", default 1080p), target_fps ("30fps" | "60fps", default
 *   30fps) -> { video: File, duration: "Duration of audio input/video output as used for billing" }.
 * The queue polls it under `fal-ai/bytedance-upscaler` (fal-queue.ts, queueAppId).
 */
import { mapFields, pick, type FieldMap, type JsonObject, type ProviderTask } from '../../src/kernel/plugin-sdk/index.js';
import { videoDurationSeconds } from './bundled-ffmpeg.js';
import { falFileAt, hostFalFile, MP4_VIDEO } from './fal-file.js';
import { falAsset, falQueueHandler, remembered } from './fal-queue.js';
import { DEFAULT_UPSCALE_CREDITS_PER_SECOND, type FalContext } from './fal-vendor.js';

const UPSCALE_REQUEST_FIELDS: FieldMap = {
  video_url: 'video_url',
  target_resolution: 'target_resolution',
  // Ours is the integer 30 or 60; fal's enum is "30fps" / "60fps".
  target_fps: { to: 'target_fps', transform: (fps) => (typeof fps === 'number' ? `${fps}fps` : undefined) },
};

/**
 * fal's price per second, as a multiple of its 1080p/30 fps price ($0.0072/s): 2K $0.0144/s, 4K $0.0288/s, and
 * "processing at 60fps doubles the cost for any resolution" (llms.txt above, "Pricing"). Absent = fal's default.
 */
const PRICE_FACTOR = {
  target_resolution: { '1080p': 1, '2k': 2, '4k': 4 } as Record<string, number>,
  target_fps: { '30': 1, '60': 2 } as Record<string, number>,
};

export const videoUpscale = falQueueHandler({
  request: (input) => mapFields(input, UPSCALE_REQUEST_FIELDS),
  // The cost is settled in status(), which no longer sees the input.
  remember: (input) => pickDefined(input, ['duration_seconds', 'target_resolution', 'target_fps']),
  async finish(result, task, ctx, route) {
    const hosted = await hostFalFile(ctx, falFileAt(result, 'video'), MP4_VIDEO);
    return falAsset('video', task, route, {
      video_url: hosted.url,
      requested_model: route.model,
      exact_cost_credits: exactCostCredits(ctx, task, await billedSeconds(ctx, result, task, hosted.url)),
    });
  },
});

/**
 * fal bills this model per second of video, and its answer says which length it billed (`duration`). Without
 * it, the client's declared `duration_seconds`; without that, the length of the upscaled video itself.
 */
async function billedSeconds(ctx: FalContext, result: unknown, task: ProviderTask, hostedVideoUrl: string): Promise<number> {
  const billed = pick(result, 'duration');
  if (typeof billed === 'number' && Number.isFinite(billed) && billed >= 0) return billed;
  const declared = remembered(task).duration_seconds;
  if (typeof declared === 'number') return declared;
  return videoDurationSeconds(ctx, (await ctx.blobs.fetchInput(hostedVideoUrl)).bytes);
}

/**
 * Credits = `upscale_credits_per_second` x fal's price factor for the resolution and frame rate x billed seconds,
 * rounded up to a whole credit (after dropping floating-point noise, as the manifest's pricing does).
 */
function exactCostCredits(ctx: FalContext, task: ProviderTask, seconds: number): number {
  const asked = remembered(task);
  const rate = ctx.config.upscale_credits_per_second ?? DEFAULT_UPSCALE_CREDITS_PER_SECOND;
  const resolution = PRICE_FACTOR.target_resolution[String(asked.target_resolution ?? '1080p')] ?? 1;
  const fps = PRICE_FACTOR.target_fps[String(asked.target_fps ?? 30)] ?? 1;
  return Math.ceil(Number((rate * resolution * fps * seconds).toFixed(6)));
}

function pickDefined(input: JsonObject, fields: string[]): JsonObject {
  return Object.fromEntries(fields.filter((field) => input[field] !== undefined).map((field) => [field, input[field]]));
}
