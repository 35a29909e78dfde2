/**
 * Pixel dimensions for an aspect ratio, for models that take `width` and `height` instead of a ratio: the
 * area of the resolution class, each side a multiple of the model's step and within its limits. Nothing in it
 * is BFL's own (a candidate for the SDK: other width/height vendors need the same).
 */

export interface PixelGrid {
  /** Target pixel count, e.g. 1024 x 1024 for a "1K" image. */
  area: number;
  /** Both sides are multiples of this. */
  step: number;
  minSide: number;
  maxSide: number;
}

export interface PixelSize {
  width: number;
  height: number;
}

/** `ratio` is `W:H` (the manifests' enum); a side that would pass `maxSide` shrinks both, keeping the shape. */
export function pixelSize(ratio: string, grid: PixelGrid): PixelSize {
  const [across, down] = ratio.split(':').map(Number);
  if (!(across > 0 && down > 0)) throw new Error(`not an aspect ratio: ${ratio}`);
  const width = Math.sqrt((grid.area * across) / down);
  const height = Math.sqrt((grid.area * down) / across);
  const shrink = Math.min(1, grid.maxSide / Math.max(width, height));
  const snap = (side: number) => Math.min(grid.maxSide, Math.max(grid.minSide, Math.round((side * shrink) / grid.step) * grid.step));
  return { width: snap(width), height: snap(height) };
}
