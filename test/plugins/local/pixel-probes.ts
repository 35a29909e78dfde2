/**
 * Reading what rendered media shows: decoded frames and pictures as RGB pixels, and the measures the local
 * plugin's tests assert on (shares of colours, mean levels, differences, sideways shifts).
 */
import sharp from 'sharp';
import { runFfmpegToBuffer } from '../../../src/kernel/plugin-sdk/index.js';

export interface Pixels {
  data: Buffer;
  width: number;
  height: number;
}

/** A region in fractions of the picture: {x: 0, y: 0, width: 1, height: 0.5} is the top half. */
export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WHOLE: Region = { x: 0, y: 0, width: 1, height: 1 };

export async function imagePixels(path: string, size?: { width: number; height: number }): Promise<Pixels> {
  let image = sharp(path).removeAlpha();
  if (size) image = image.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** The frame shown at `seconds`, decoded by ffmpeg. */
export async function framePixels(videoPath: string, seconds: number, size?: { width: number; height: number }): Promise<Pixels> {
  const png = await runFfmpegToBuffer(
    ['-ss', seconds.toFixed(3), '-i', videoPath, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
    { signal: new AbortController().signal },
  );
  let image = sharp(png).removeAlpha();
  if (size) image = image.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

type Rgb = [number, number, number];

function* pixelsIn(image: Pixels, region: Region): Generator<Rgb> {
  const left = Math.floor(region.x * image.width);
  const top = Math.floor(region.y * image.height);
  const right = Math.min(image.width, Math.ceil((region.x + region.width) * image.width));
  const bottom = Math.min(image.height, Math.ceil((region.y + region.height) * image.height));
  for (let y = top; y < bottom; y += 1) {
    for (let x = left; x < right; x += 1) {
      const offset = (y * image.width + x) * 3;
      yield [image.data[offset], image.data[offset + 1], image.data[offset + 2]];
    }
  }
}

/** Share (0..1) of the region's pixels that `test` accepts. */
export function share(image: Pixels, test: (pixel: Rgb) => boolean, region: Region = WHOLE): number {
  let count = 0;
  let accepted = 0;
  for (const pixel of pixelsIn(image, region)) {
    count += 1;
    if (test(pixel)) accepted += 1;
  }
  return accepted / Math.max(1, count);
}

export function meanColour(image: Pixels, region: Region = WHOLE): { r: number; g: number; b: number; luma: number } {
  const sum = [0, 0, 0];
  let count = 0;
  for (const pixel of pixelsIn(image, region)) {
    count += 1;
    for (let channel = 0; channel < 3; channel += 1) sum[channel] += pixel[channel];
  }
  const [r, g, b] = sum.map((value) => value / Math.max(1, count));
  return { r, g, b, luma: 0.2126 * r + 0.7152 * g + 0.0722 * b };
}

/** Mean per-channel difference (0..255) of two same-sized pictures over a region. */
export function meanDifference(a: Pixels, b: Pixels, region: Region = WHOLE): number {
  const first = [...pixelsIn(a, region)];
  const second = [...pixelsIn(b, region)];
  let total = 0;
  first.forEach((pixel, index) => {
    for (let channel = 0; channel < 3; channel += 1) total += Math.abs(pixel[channel] - second[index][channel]);
  });
  return total / Math.max(1, first.length * 3);
}

/** Pearson correlation of the two pictures' brightness over a region: 1 = the same shapes, whatever the grade. */
export function lumaCorrelation(a: Pixels, b: Pixels, region: Region = WHOLE): number {
  const luma = ([r, g, b]: Rgb): number => 0.2126 * r + 0.7152 * g + 0.0722 * b;
  const first = [...pixelsIn(a, region)].map(luma);
  const second = [...pixelsIn(b, region)].map(luma);
  const mean = (values: number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
  const [meanA, meanB] = [mean(first), mean(second)];
  let covariance = 0;
  let varianceA = 0;
  let varianceB = 0;
  first.forEach((value, index) => {
    covariance += (value - meanA) * (second[index] - meanB);
    varianceA += (value - meanA) ** 2;
    varianceB += (second[index] - meanB) ** 2;
  });
  return covariance / Math.sqrt(varianceA * varianceB || 1);
}

/**
 * How far the content of `b` lies to the right of `a`'s, in pixels (negative: to the left): the shift in
 * -maxShift..maxShift that best lines up the middle rows.
 */
export function horizontalShift(a: Pixels, b: Pixels, maxShift: number): number {
  const top = Math.floor(a.height * 0.3);
  const bottom = Math.floor(a.height * 0.7);
  let best = { shift: 0, difference: Number.POSITIVE_INFINITY };
  for (let shift = -maxShift; shift <= maxShift; shift += 1) {
    let total = 0;
    let count = 0;
    for (let y = top; y < bottom; y += 2) {
      for (let x = maxShift; x < a.width - maxShift; x += 2) {
        const offsetA = (y * a.width + x) * 3;
        const offsetB = (y * b.width + x + shift) * 3;
        total += Math.abs(a.data[offsetA] - b.data[offsetB]) + Math.abs(a.data[offsetA + 1] - b.data[offsetB + 1]) + Math.abs(a.data[offsetA + 2] - b.data[offsetB + 2]);
        count += 1;
      }
    }
    const difference = total / count;
    if (difference < best.difference) best = { shift, difference };
  }
  return best.shift;
}

/** Colour predicates for `share`. */
export const isRed = ([r, g, b]: Rgb): boolean => r > 150 && g < 90 && b < 90;
export const isGreenDominant = ([r, g, b]: Rgb): boolean => g > r + 25 && g > b + 25;
export const isNearWhite = ([r, g, b]: Rgb): boolean => r > 200 && g > 200 && b > 195;
export const isBlue = ([r, g, b]: Rgb): boolean => b > r + 40 && b > g + 20;
