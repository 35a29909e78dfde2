/**
 * video.upscale: rescales the source by `upscale_factor` (1, 2, 4) or to a `target_resolution`
 * (short side), optionally retimed to `target_fps`, with a Lanczos filter.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { AAC_ARGS, H264_ARGS, even } from '../media/encoding-args.js';
import { runFfmpeg } from '../media/ffmpeg.js';
import { videoShortSide, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';
import { readKnownWords, wordsTagArgs } from '../media/media-words.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const ALLOWED_FACTORS = [1, 2, 4];
const DEFAULT_FACTOR = 2;
/** 4K: beyond it a local render would take minutes and the file would not be useful offline. */
const MAX_SHORT_SIDE = 2160;

export const videoUpscale: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const videoUrl = readString(input, 'video_url');
    if (!videoUrl) throw invalidInput('video_url is required');
    const source = await fetchInputToFile(ctx, videoUrl, 'video_url');
    const decoded = await requireVideo(ctx, source);
    const inputSize = { width: decoded.video.width, height: decoded.video.height };
    const size = outputSize(inputSize, readString(input, 'target_resolution'), readNumber(input, 'upscale_factor'));
    const targetFps = readNumber(input, 'target_fps');

    const filters = [`scale=${size.width}:${size.height}:flags=lanczos`, 'setsar=1'];
    if (targetFps && targetFps > 0) filters.push(`fps=${Math.min(120, targetFps)}`);
    filters.push('format=yuv420p');
    // Same picture and sound, larger: the words the source carries stay with it.
    const words = await readKnownWords(ctx, source.path);
    const outPath = join(await ctx.scratchDir(), 'upscaled.mp4');
    await runFfmpeg(
      [
        '-i', source.path,
        '-map', '0:v:0', '-map', '0:a:0?',
        '-vf', filters.join(','),
        ...H264_ARGS,
        ...(decoded.audio ? AAC_ARGS : ['-an']),
        ...wordsTagArgs(words, 'mp4'),
        outPath,
      ],
      { signal: ctx.signal },
    );
    const hostedVideoUrl = await hostMp4(ctx, outPath);
    return {
      done: finishedAsset('video', route, {
        video_url: hostedVideoUrl,
        requested_model: route.model,
        // Scaling keeps the length: the source's probed seconds are the output's, which the manifest settles on.
        usage: { output_seconds: decoded.durationSeconds },
      }),
    };
  },
};

function outputSize(input: FrameSize, targetResolution: string | undefined, factor: number | undefined): FrameSize {
  const inputShort = Math.min(input.width, input.height);
  let scale: number;
  const targetShort = videoShortSide(targetResolution);
  if (targetResolution && targetShort === undefined) throw invalidInput(`unknown target_resolution ${targetResolution}`);
  if (targetShort !== undefined) {
    scale = targetShort / inputShort;
  } else {
    scale = factor !== undefined && ALLOWED_FACTORS.includes(factor) ? factor : DEFAULT_FACTOR;
  }
  scale = Math.min(scale, MAX_SHORT_SIDE / inputShort);
  return { width: even(input.width * scale), height: even(input.height * scale) };
}
