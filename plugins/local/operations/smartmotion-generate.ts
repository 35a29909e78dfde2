/**
 * smartmotion.generate: a camera move over an image or a video. `camera_control` (pan, tilt, roll,
 * zoom, horizontal, vertical, about -10..10) drives the move directly; otherwise the `motion`
 * preset does; with neither, a gentle push-in seeded by motion_seed.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readDuration, readNumber, readObject, readString } from '../input-fields.js';
import { resolveLocalConfig, type LocalContext, type LocalHandler } from '../local-config.js';
import {
  cameraMoveFromControl,
  cameraMoveFromPreset,
  gentleDollyIn,
  type CameraControl,
  type CameraMove,
} from '../media/camera-move.js';
import { renderClip, type ClipAudio, type ClipBase } from '../media/clip-render.js';
import { sourceShapedSize, type FrameSize } from '../media/frame-size.js';
import {
  fetchInputToFile,
  invalidInput,
  isImageInput,
  requireImage,
  requireVideo,
  type DecodedVideo,
  type FetchedInput,
} from '../media/input-media.js';
import { readKnownWords } from '../media/media-words.js';
import { createRandom } from '../media/seeded-random.js';
import { writeStillFrame } from '../media/still-frame.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const DEFAULT_DURATION_SECONDS = 5;

export const smartmotionGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const fileUrl = readString(input, 'file_url');
    if (!fileUrl) throw invalidInput('file_url is required');
    const source = await fetchInputToFile(ctx, fileUrl, 'file_url');
    const duration = readDuration(input, 'duration', DEFAULT_DURATION_SECONDS);
    const move = chooseMove(input);
    const scratchDir = await ctx.scratchDir();
    let base: ClipBase;
    let size: FrameSize;
    let audio: ClipAudio | undefined;
    const video = await videoOrNothing(ctx, source, readString(input, 'content_type'));
    // The camera moves over the same picture and sound: a clip's known words stay with it.
    const words = video ? await readKnownWords(ctx, source.path) : undefined;
    if (video) {
      size = sourceShapedSize({ width: video.video.width, height: video.video.height });
      base = { kind: 'video', videoPath: source.path, move };
      audio = video.audio ? { kind: 'source' } : undefined;
    } else {
      size = sourceShapedSize(await requireImage(source));
      const imagePath = join(scratchDir, 'still.png');
      await writeStillFrame(source.path, size, imagePath);
      base = { kind: 'still', imagePath, move };
    }
    const outPath = join(scratchDir, 'smartmotion.mp4');
    await renderClip({
      base,
      size,
      audio,
      fps: resolveLocalConfig(ctx.config).videoFps,
      durationSeconds: duration,
      words: { words: audio ? words?.words : undefined, prompt: words?.prompt },
      outPath,
      scratchDir,
      signal: ctx.signal,
    });
    const videoUrl = await hostMp4(ctx, outPath);
    return {
      done: finishedAsset('video', route, {
        video_url: videoUrl,
      }),
    };
  },
};

function chooseMove(input: JsonObject): CameraMove {
  const scale = Math.min(3, Math.max(0, readNumber(input, 'motion_scale') ?? 1));
  const control = readObject(input, 'camera_control');
  const mode = readString(input, 'control_mode');
  if (control && (mode === undefined || mode === 'camera_control')) {
    const field = (name: keyof CameraControl): number | undefined => readNumber(control, name);
    return cameraMoveFromControl(
      { pan: field('pan'), tilt: field('tilt'), roll: field('roll'), zoom: field('zoom'), horizontal: field('horizontal'), vertical: field('vertical') },
      scale,
    );
  }
  const motion = readString(input, 'motion');
  const preset = motion ? cameraMoveFromPreset(motion, scale) : undefined;
  return preset ?? gentleDollyIn(createRandom(readNumber(input, 'motion_seed') ?? 0));
}

/**
 * The decoded video when the source is one, undefined when it should be read as a still. The
 * declared content type decides; without one, a file ffprobe cannot play as a video (a PNG has no
 * duration) is tried as an image.
 */
async function videoOrNothing(ctx: LocalContext, source: FetchedInput, declaredType: string | undefined): Promise<DecodedVideo | undefined> {
  const type = declaredType ?? source.contentType;
  if (type.startsWith('image/')) return undefined;
  if (type.startsWith('video/')) return requireVideo(ctx, source);
  if (isImageInput(source)) return undefined;
  try {
    return await requireVideo(ctx, source);
  } catch (error) {
    const isImage = await requireImage(source).then(() => true, () => false);
    if (isImage) return undefined;
    throw error;
  }
}

