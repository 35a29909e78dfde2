/**
 * A character's source clip placed into a generated scene. Character sources are typically a person filmed
 * against a plain or evenly graded backdrop; such a backdrop is modelled as a "plate" from the clip's first
 * frame (backdrop-model.ts) and keyed out, so the person stands in the scene. A clip whose edges are not such a backdrop (the plate would not describe it) is shown
 * whole, as a framed picture in the scene, rather than cut badly.
 */
import { join } from 'node:path';
import sharp from 'sharp';
import { runFfmpegToBuffer } from '../../../src/kernel/plugin-sdk/index.js';
import { edgeBackdrop, pixelDifference } from './backdrop-model.js';
import type { FrameSize } from './frame-size.js';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CharacterLayer {
  videoPath: string;
  box: Box;
  /** The backdrop to key out, as a still of the clip's frame size; absent: the clip is shown whole, framed. */
  platePath?: string;
}

/** A row whose edge colour jumps by more than this (0..255, mean over channels) is not a smooth backdrop. */
const ROW_JUMP = 14;
/** How much of the top row must match the plate (within TOP_ROW_TOLERANCE) for the clip to be keyed. */
const TOP_ROW_MATCH = 0.9;
const TOP_ROW_TOLERANCE = 18;
/** Mean channel difference from the plate above which a pixel belongs to the character. */
const KEY_THRESHOLD = 22;

/**
 * Where each of `count` characters stands: side by side, feet near the bottom edge, as tall as most of the
 * frame (a framed clip is smaller and sits higher, like a picture on a wall).
 */
export function characterBoxes(size: FrameSize, count: number, keyed: boolean[]): Box[] {
  return Array.from({ length: count }, (_, index) => {
    const height = Math.round(size.height * (keyed[index] ? 0.82 : 0.56));
    const width = Math.round(size.width / (count + 0.5));
    const centreX = (size.width * (index + 1)) / (count + 1);
    const bottom = keyed[index] ? size.height * 0.97 : size.height * 0.78;
    return { x: Math.round(centreX - width / 2), y: Math.round(bottom - height), width, height };
  });
}

/** Writes the clip's backdrop plate into `scratchDir` and returns its path, or undefined when it has none. */
export async function backdropPlate(videoPath: string, scratchDir: string, name: string, signal: AbortSignal): Promise<string | undefined> {
  const frame = await runFfmpegToBuffer(['-i', videoPath, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'], { signal });
  const { data, info } = await sharp(frame).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height } = info;
  if (width < 16 || height < 8) return undefined;
  const { plate, jumpyRows } = edgeBackdrop(data, width, height, ROW_JUMP);
  if (jumpyRows > height * 0.02) return undefined;
  // The top edge is not used to build the plate, so it tests it: a backdrop continues across the top.
  let matching = 0;
  for (let x = 0; x < width; x += 1) if (pixelDifference(data, plate, x) <= TOP_ROW_TOLERANCE) matching += 1;
  if (matching < width * TOP_ROW_MATCH) return undefined;
  const path = join(scratchDir, `${name}-plate.png`);
  await sharp(plate, { raw: { width, height, channels: 3 } }).png().toFile(path);
  return path;
}

/**
 * The filtergraph chain that turns input `videoInput` (looped clip) and `plateInput` (looped plate still, if
 * keyed) into `[label]`: the character, keyed or framed, scaled to fit its box.
 */
export function characterChain(layer: CharacterLayer, videoInput: number, plateInput: number | undefined, fps: number, label: string): string[] {
  const fit = `scale=${layer.box.width}:${layer.box.height}:force_original_aspect_ratio=decrease`;
  if (plateInput === undefined) {
    const border = Math.max(2, Math.round(Math.min(layer.box.width, layer.box.height) * 0.015));
    return [`[${videoInput}:v]fps=${fps},${fit},pad=iw+${border * 2}:ih+${border * 2}:${border}:${border}:white,format=rgba[${label}]`];
  }
  const average = '.33:.33:.33:0:.33:.33:.33:0:.33:.33:.33:0';
  return [
    `[${videoInput}:v]fps=${fps},format=gbrp,split[${label}_a][${label}_b]`,
    `[${plateInput}:v]format=gbrp[${label}_plate]`,
    // Difference from the backdrop, averaged over the channels, thresholded, edges softened a little.
    `[${label}_b][${label}_plate]blend=all_mode=difference,format=rgb24,colorchannelmixer=${average},format=gray,` +
      `lut=y='if(gt(val,${KEY_THRESHOLD}),255,0)',boxblur=1[${label}_mask]`,
    `[${label}_a]format=rgb24[${label}_rgb]`,
    `[${label}_rgb][${label}_mask]alphamerge,${fit}[${label}]`,
  ];
}

/** Overlays `[label]` on `[under]` into `[out]`, centred in its box and standing on the box's bottom edge. */
export function placeCharacter(box: Box, under: string, label: string, out: string): string {
  return `[${under}][${label}]overlay=x=${box.x}+(${box.width}-w)/2:y=${box.y}+${box.height}-h[${out}]`;
}
