/**
 * The aspect ratio a rendered video has, as the label clients asked in ("16:9"), from its pixel size. Vendors
 * round frame sizes to codec-friendly numbers (Hailuo's 768P is 1366x768, 1.779 rather than 1.778), so a size
 * within 1% of a named ratio takes that name; any other shape is stated as its reduced width:height.
 * Not MiniMax-specific: a candidate for the plugin SDK once a second vendor reports pixel sizes.
 */
const NAMED_RATIOS: readonly [string, number][] = [
  ['16:9', 16 / 9],
  ['9:16', 9 / 16],
  ['1:1', 1],
  ['4:3', 4 / 3],
  ['3:4', 3 / 4],
  ['21:9', 21 / 9],
];

const TOLERANCE = 0.01;

export function aspectRatioLabel(width: number, height: number): string {
  const ratio = width / height;
  const named = NAMED_RATIOS.find(([, value]) => Math.abs(ratio - value) / value <= TOLERANCE);
  if (named) return named[0];
  const divisor = greatestCommonDivisor(width, height);
  return `${width / divisor}:${height / divisor}`;
}

function greatestCommonDivisor(a: number, b: number): number {
  return b === 0 ? a : greatestCommonDivisor(b, a % b);
}
