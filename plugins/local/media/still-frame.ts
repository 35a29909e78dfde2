/**
 * Stills that become the base of a clip, written as PNG into the scratch folder. They are scaled
 * to cover the frame with headroom for camera moves: zoompan then never upsamples, and a 4K
 * upload does not slow down every frame of a 720p render.
 */
import sharp from 'sharp';
import type { FrameSize } from './frame-size.js';
import { renderSceneImage } from './scene-image.js';

/** Matches the clip renderer's oversampling, so ffmpeg does not rescale the still again. */
const HEADROOM = 1.25;

/** `imagePath`: a decoded input image on disk (sharp reads it itself). */
export async function writeStillFrame(imagePath: string, size: FrameSize, path: string): Promise<void> {
  const target = withHeadroom(size);
  await sharp(imagePath).rotate().resize(target.width, target.height, { fit: 'cover' }).removeAlpha().png().toFile(path);
}

/**
 * A generated scene of the prompt (no caption: clips draw the caption with ffmpeg so it stays sharp), so a
 * video's frames show what its prompt names, as image.generate's pictures do.
 */
export async function writeSceneFrame(scene: { seed: number; prompt?: string }, size: FrameSize, path: string): Promise<void> {
  const target = withHeadroom(size);
  await sharp(await renderSceneImage({ ...target, ...scene })).removeAlpha().toFile(path);
}

function withHeadroom(size: FrameSize): FrameSize {
  return { width: Math.round(size.width * HEADROOM), height: Math.round(size.height * HEADROOM) };
}
