/**
 * video.generate: an H.264 clip of exactly `duration` seconds. Frame guidance (image_url or
 * first_frame_url, optionally a last frame) becomes a slow push-in over that image that dissolves
 * into the last frame; a reference clip is reframed; otherwise a generated scene drifts under the
 * camera, its setting, light and colours taken from the prompt. The prompt is drawn as a caption.
 * Audio is only present when audio_url is given.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readDuration, readNumber, readString } from '../input-fields.js';
import { resolveLocalConfig, type LocalContext, type LocalHandler } from '../local-config.js';
import { gentleDollyIn } from '../media/camera-move.js';
import { renderClip, type ClipAudio, type ClipBase } from '../media/clip-render.js';
import { parseAspectRatio, videoFrameSize, type FrameSize } from '../media/frame-size.js';
import { fetchInputToFile, requireAudio, requireImage, requireVideo } from '../media/input-media.js';
import { readKnownWords } from '../media/media-words.js';
import { createRandom, seedFrom } from '../media/seeded-random.js';
import { writeSceneFrame, writeStillFrame } from '../media/still-frame.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const DEFAULT_DURATION_SECONDS = 5;
const DEFAULT_ASPECT_RATIO = '16:9';

export const videoGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt');
    const duration = readDuration(input, 'duration', DEFAULT_DURATION_SECONDS);
    const aspectRatio = readString(input, 'aspect_ratio') ?? DEFAULT_ASPECT_RATIO;
    const size = videoFrameSize(parseAspectRatio(aspectRatio) ?? { width: 16, height: 9 }, readString(input, 'resolution'));
    const scratchDir = await ctx.scratchDir();
    const seed = seedFrom(prompt, readNumber(input, 'seed'));
    const base = await chooseBase(ctx, input, size, seed, scratchDir);
    const audio = await chooseAudio(ctx, input);
    const spoken = audio?.kind === 'file' ? await readKnownWords(ctx, audio.path) : undefined;
    const outPath = join(scratchDir, 'video.mp4');
    await renderClip({
      base,
      size,
      fps: resolveLocalConfig(ctx.config).videoFps,
      durationSeconds: duration,
      caption: prompt,
      audio,
      words: { words: spoken?.words, prompt },
      outPath,
      scratchDir,
      signal: ctx.signal,
    });
    const videoUrl = await hostMp4(ctx, outPath);
    return {
      done: finishedAsset('video', route, {
        video_url: videoUrl,
        duration,
        aspect_ratio: aspectRatio,
      }),
    };
  },
};

async function chooseBase(
  ctx: LocalContext,
  input: JsonObject,
  size: FrameSize,
  seed: number,
  scratchDir: string,
): Promise<ClipBase> {
  const random = createRandom(seed);
  const firstFrame = pickUrl(input, 'image_url', 'first_frame_url');
  if (firstFrame) {
    const imagePath = await stillFrom(ctx, firstFrame, size, join(scratchDir, 'first-frame.png'));
    const lastFrame = pickUrl(input, 'end_image_url', 'last_frame_url');
    const endImagePath = lastFrame ? await stillFrom(ctx, lastFrame, size, join(scratchDir, 'last-frame.png')) : undefined;
    return { kind: 'still', imagePath, endImagePath, move: gentleDollyIn(random) };
  }
  const referenceClip = pickUrl(input, 'source_video_url', 'first_clip_url');
  if (referenceClip) {
    const clip = await fetchInputToFile(ctx, referenceClip.url, referenceClip.field);
    await requireVideo(ctx, clip);
    return { kind: 'video', videoPath: clip.path, move: gentleDollyIn(random) };
  }
  const imagePath = join(scratchDir, 'scene.png');
  await writeSceneFrame({ seed, prompt: readString(input, 'prompt') }, size, imagePath);
  return { kind: 'still', imagePath, move: gentleDollyIn(random) };
}

async function stillFrom(ctx: LocalContext, source: { url: string; field: string }, size: FrameSize, path: string): Promise<string> {
  const image = await fetchInputToFile(ctx, source.url, source.field);
  await requireImage(image);
  await writeStillFrame(image.path, size, path);
  return path;
}

async function chooseAudio(ctx: LocalContext, input: JsonObject): Promise<ClipAudio | undefined> {
  const audioUrl = readString(input, 'audio_url');
  if (!audioUrl) return undefined;
  const audio = await fetchInputToFile(ctx, audioUrl, 'audio_url');
  await requireAudio(ctx, audio);
  return { kind: 'file', path: audio.path };
}

function pickUrl(input: JsonObject, ...fields: string[]): { url: string; field: string } | undefined {
  for (const field of fields) {
    const url = readString(input, field);
    if (url) return { url, field };
  }
  return undefined;
}
