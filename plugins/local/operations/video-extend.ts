/**
 * video.extend (a guessed operation, see its manifest): the source video, then `duration` more seconds that
 * continue from its last frame under a slow push-in, with the prompt as a caption, as video.generate draws it.
 * The whole result is one MP4 that starts with the source's own frames and keeps its audio (silence under the
 * added seconds). The output keeps the source's shape, at its size up to 720p unless `resolution` names one.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readDuration, readNumber, readString } from '../input-fields.js';
import { resolveLocalConfig, type LocalContext, type LocalHandler } from '../local-config.js';
import { STATIC_MOVE, type CameraMove } from '../media/camera-move.js';
import { appendClip } from '../media/clip-append.js';
import { renderClip } from '../media/clip-render.js';
import { sourceShapedSize, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';
import { writeLastFrame } from '../media/last-frame.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { writeStillFrame } from '../media/still-frame.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const DEFAULT_ADDED_SECONDS = 5;
/** The source's frame rate is kept, so its frames come through as they were, up to this (renders stay cheap). */
const MAX_FPS = 30;

export const videoExtend: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const videoUrl = readString(input, 'video_url');
    if (!videoUrl) throw invalidInput('video_url is required');
    const prompt = readString(input, 'prompt');
    const addedSeconds = readDuration(input, 'duration', DEFAULT_ADDED_SECONDS);
    const source = await fetchInputToFile(ctx, videoUrl, 'video_url');
    const decoded = await requireVideo(ctx, source);
    const sourceSeconds = decoded.video.durationSeconds && decoded.video.durationSeconds > 0 ? decoded.video.durationSeconds : decoded.durationSeconds;
    const size = sourceShapedSize(decoded.video, readString(input, 'resolution'));
    const fps = decoded.video.fps > 0 ? Math.min(MAX_FPS, Math.max(1, Math.round(decoded.video.fps))) : resolveLocalConfig(ctx.config).videoFps;
    const scratchDir = await ctx.scratchDir();

    const lastFramePath = join(scratchDir, 'last-frame.png');
    await writeLastFrame(source.path, lastFramePath, ctx.signal);
    const stillPath = join(scratchDir, 'continuation-still.png');
    await writeStillFrame(lastFramePath, size, stillPath);
    const continuationPath = join(scratchDir, 'continuation.mp4');
    await renderClip({
      base: { kind: 'still', imagePath: stillPath, move: continuationMove(seedFrom(prompt, readNumber(input, 'seed'))) },
      size,
      fps,
      durationSeconds: addedSeconds,
      caption: prompt,
      outPath: continuationPath,
      scratchDir,
      signal: ctx.signal,
    });

    const totalSeconds = roundSeconds(sourceSeconds + addedSeconds);
    const outPath = join(scratchDir, 'extended.mp4');
    await appendClip({ sourcePath: source.path, sourceHasAudio: Boolean(decoded.audio), continuationPath, size, fps, totalSeconds, outPath, signal: ctx.signal });
    return {
      done: finishedAsset('video', route, {
        video_url: await hostMp4(ctx, outPath),
        duration: totalSeconds,
        source_duration: roundSeconds(sourceSeconds),
        aspect_ratio: ratioOf(decoded.video),
      }),
    };
  },
};

/**
 * A push-in that starts on the whole last frame. The camera filter adds zoom headroom for any sideways travel,
 * which would show as a jump at the seam, so the view stays anchored on one point and only the zoom changes;
 * the point follows the prompt and seed.
 */
function continuationMove(seed: number): CameraMove {
  const random = createRandom(seed);
  const x = random.range(0.3, 0.7);
  const y = random.range(0.35, 0.65);
  return { ...STATIC_MOVE, zoomFrom: 1, zoomTo: 1.2, xFrom: x, xTo: x, yFrom: y, yTo: y };
}

function ratioOf(size: FrameSize): string {
  const divisor = gcd(size.width, size.height);
  return `${size.width / divisor}:${size.height / divisor}`;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function roundSeconds(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
