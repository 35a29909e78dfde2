/**
 * Seedream's `size` as exact pixels. The API takes either a resolution class (1K, 2K, 4K) whose shape the model
 * guesses from the prompt, or `WIDTHxHEIGHT`; only the second renders the shape the client asked for, so the
 * plugin always sends pixels. Seedream 4.0 accepts a size whose aspect ratio lies in [1/16, 16] and whose total
 * pixels lie in [1280x720, 4096x4096] (https://docs.byteplus.com/en/docs/ModelArk/1824121, "Resolution"; read
 * through the docs-sync copy JPG-GITY/byteplus-docs-sync, skill/references/image-seedream.md). Older copies of
 * the page give the floor as 1024x1024; the sizes below satisfy both.
 */

/** Side of the square each class stands for; other shapes keep about the same pixel count. */
const CLASS_SIDE: Record<string, number> = { '1K': 1024, '2K': 2048, '4K': 4096 };

/** The class our price assumes when the client names none (the manifest prices an absent resolution as 1K). */
export const DEFAULT_RESOLUTION = '1K';

const MIN_RATIO = 1 / 16;
const MAX_RATIO = 16;
const MAX_PIXELS = 4096 * 4096;

/**
 * `WIDTHxHEIGHT` for a width/height ratio and a resolution class, sides in multiples of 16. Rounding up keeps
 * the area at least the class's square (1K never falls below 1024x1024); where that would pass 4096x4096 (4K
 * in other shapes than 1:1) both sides are rounded down instead.
 */
export function seedreamSize(ratio: number, resolution: string = DEFAULT_RESOLUTION): string {
  const side = CLASS_SIDE[resolution.toUpperCase()] ?? CLASS_SIDE[DEFAULT_RESOLUTION];
  const shape = Math.sqrt(Math.min(MAX_RATIO, Math.max(MIN_RATIO, ratio)));
  const [width, height] = [side * shape, side / shape];
  const up = [multipleOf16(width, Math.ceil), multipleOf16(height, Math.ceil)];
  const [w, h] = up[0] * up[1] <= MAX_PIXELS ? up : [multipleOf16(width, Math.floor), multipleOf16(height, Math.floor)];
  return `${w}x${h}`;
}

/** `W:H` (our aspect_ratio) as a number; undefined for anything else. */
export function ratioOf(aspectRatio: unknown): number | undefined {
  const match = typeof aspectRatio === 'string' ? /^(\d+):(\d+)$/.exec(aspectRatio) : null;
  if (!match || Number(match[2]) === 0) return undefined;
  return Number(match[1]) / Number(match[2]);
}

function multipleOf16(pixels: number, round: (value: number) => number): number {
  return round(pixels / 16) * 16;
}
