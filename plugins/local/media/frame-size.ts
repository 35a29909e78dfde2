/**
 * Output dimensions from the `aspect_ratio` and `resolution` fields. Images name their long side
 * (`1K` = 1024), videos their short side (`720p` = 720), as vendors do.
 */
import { even } from './encoding-args.js';

export interface FrameSize {
  width: number;
  height: number;
}

export interface AspectRatio {
  width: number;
  height: number;
}

const NAMED_RATIOS: Record<string, AspectRatio> = {
  landscape: { width: 16, height: 9 },
  portrait: { width: 9, height: 16 },
  square: { width: 1, height: 1 },
};

const IMAGE_LONG_SIDE: Record<string, number> = { '1k': 1024, '2k': 2048, '4k': 4096 };

const VIDEO_SHORT_SIDE: Record<string, number> = {
  '360p': 360,
  '480p': 480,
  '540p': 540,
  '720p': 720,
  '1080p': 1080,
  '1440p': 1440,
  '2k': 1440,
  '2160p': 2160,
  '4k': 2160,
};

/** `16:9`, `9x16`, `1.5`, `landscape`; anything else is undefined so callers use their default. */
export function parseAspectRatio(value: string | undefined): AspectRatio | undefined {
  if (!value) return undefined;
  const text = value.trim().toLowerCase();
  const named = NAMED_RATIOS[text];
  if (named) return named;
  const pair = /^(\d+(?:\.\d+)?)\s*[:x/]\s*(\d+(?:\.\d+)?)$/.exec(text);
  if (pair) {
    const width = Number(pair[1]);
    const height = Number(pair[2]);
    return width > 0 && height > 0 ? { width, height } : undefined;
  }
  const single = Number(text);
  return Number.isFinite(single) && single > 0 ? { width: single, height: 1 } : undefined;
}

export function aspectOrientation(ratio: AspectRatio): 'landscape' | 'portrait' | 'square' {
  if (ratio.width === ratio.height) return 'square';
  return ratio.width > ratio.height ? 'landscape' : 'portrait';
}

/** Image size: the long side comes from `resolution` (default 1K), e.g. 16:9 at 1K is 1024x576. */
export function imageFrameSize(aspect: AspectRatio, resolution: string | undefined): FrameSize {
  const longSide = IMAGE_LONG_SIDE[(resolution ?? '1k').toLowerCase()] ?? IMAGE_LONG_SIDE['1k'];
  if (aspect.width >= aspect.height) {
    return { width: longSide, height: Math.max(1, Math.round((longSide * aspect.height) / aspect.width)) };
  }
  return { width: Math.max(1, Math.round((longSide * aspect.width) / aspect.height)), height: longSide };
}

/** Short side named by a video resolution (`720p`, `4k`), or undefined when unknown. */
export function videoShortSide(resolution: string | undefined): number | undefined {
  if (!resolution) return undefined;
  return VIDEO_SHORT_SIDE[resolution.trim().toLowerCase()];
}

/** Video size: the short side comes from `resolution`; both sides even for yuv420p. */
export function videoFrameSize(aspect: AspectRatio, resolution: string | undefined, defaultShortSide = 720): FrameSize {
  const shortSide = videoShortSide(resolution) ?? defaultShortSide;
  return sizeWithShortSide(aspect, shortSide);
}

export function sizeWithShortSide(aspect: AspectRatio, shortSide: number): FrameSize {
  if (aspect.width >= aspect.height) {
    return { width: even((shortSide * aspect.width) / aspect.height), height: even(shortSide) };
  }
  return { width: even(shortSide), height: even((shortSide * aspect.height) / aspect.width) };
}

/** Outputs made from a client's video keep its shape at up to 720p, and small sources are not blown up past 144p. */
const SOURCE_SHORT_SIDE = { min: 144, max: 720 } as const;

/** The size of a video made from `source`: the asked `resolution`'s short side if any, else the source's (bounded). */
export function sourceShapedSize(source: FrameSize, resolution?: string): FrameSize {
  const shortSide = videoShortSide(resolution) ?? Math.max(SOURCE_SHORT_SIDE.min, Math.min(SOURCE_SHORT_SIDE.max, Math.min(source.width, source.height)));
  return sizeWithShortSide({ width: source.width, height: source.height }, shortSide);
}
