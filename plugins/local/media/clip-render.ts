/**
 * Renders one H.264 MP4 clip from a base (a still under a camera move, or an existing clip), an
 * optional caption and an optional audio track, at an exact size, frame rate and duration. Every
 * video operation of the local plugin ends here, so all of them share one encoding and one set of
 * ffmpeg quirks.
 */
import { cameraMoveFilter, type CameraMove } from './camera-move.js';
import { captionFilter } from './drawtext.js';
import { AAC_ARGS, H264_ARGS } from './encoding-args.js';
import { runFfmpeg } from './ffmpeg.js';
import type { FrameSize } from './frame-size.js';

/**
 * Zoompan crops whole source pixels; oversampling the source keeps slow moves from stuttering.
 * 1.25 covers the default push-in (1.18x) without upsampling and keeps 1080p renders affordable.
 */
const OVERSAMPLE = 1.25;

export interface ClipLook {
  /** Hue rotation in degrees. */
  hueDegrees: number;
  /** Saturation multiplier, 1 unchanged. */
  saturation: number;
  mirror: boolean;
}

export type ClipBase =
  | {
      kind: 'still';
      imagePath: string;
      move: CameraMove;
      /** Cross-faded in over the second half (first-and-last-frame guidance). */
      endImagePath?: string;
    }
  | { kind: 'video'; videoPath: string; move?: CameraMove; look?: ClipLook };

export type ClipAudio =
  /** Muxed and cut or padded with silence to the clip's duration. */
  | { kind: 'file'; path: string }
  /** Keeps (and loops with) the base video's own audio; only for a video base that has audio. */
  | { kind: 'source' };

export interface ClipPlan {
  base: ClipBase;
  size: FrameSize;
  fps: number;
  durationSeconds: number;
  caption?: string;
  audio?: ClipAudio;
  outPath: string;
  scratchDir: string;
  signal: AbortSignal;
}

export async function renderClip(plan: ClipPlan): Promise<void> {
  const { size, fps, durationSeconds: duration } = plan;
  const seconds = duration.toFixed(3);
  const inputs: string[] = [];
  let inputCount = 0;
  /** Adds an input (its options, then the file) and returns its index for the filtergraph. */
  const addInput = (...args: string[]): number => {
    inputs.push(...args);
    inputCount += 1;
    return inputCount - 1;
  };
  const graph: string[] = [];

  if (plan.base.kind === 'still') {
    addInput('-loop', '1', '-framerate', String(fps), '-t', seconds, '-i', plan.base.imagePath);
    const chain = [cover(size, OVERSAMPLE), cameraMoveFilter(plan.base.move, { size, fps, durationSeconds: duration })];
    graph.push(`[0:v]${chain.join(',')}[base]`);
  } else {
    // Looping the input (rather than freezing) keeps short sources moving for the whole clip.
    addInput('-stream_loop', '-1', '-i', plan.base.videoPath);
    const chain = [`fps=${fps}`];
    if (plan.base.move) {
      chain.push(cover(size, OVERSAMPLE), cameraMoveFilter(plan.base.move, { size, fps, durationSeconds: duration }));
    } else {
      chain.push(cover(size, 1));
    }
    if (plan.base.look) chain.push(...lookFilters(plan.base.look));
    graph.push(`[0:v]${chain.join(',')}[base]`);
  }

  let video = 'base';
  if (plan.base.kind === 'still' && plan.base.endImagePath) {
    const endIndex = addInput('-loop', '1', '-framerate', String(fps), '-t', seconds, '-i', plan.base.endImagePath);
    const fadeStart = (duration * 0.5).toFixed(3);
    const fadeLength = (duration * 0.4).toFixed(3);
    graph.push(
      `[${endIndex}:v]${cover(size, 1)},format=yuva420p,fade=t=in:st=${fadeStart}:d=${fadeLength}:alpha=1[end]`,
      `[base][end]overlay=shortest=1[blend]`,
    );
    video = 'blend';
  }

  const finish = ['format=yuv420p'];
  if (plan.caption) finish.unshift(await captionFilter(plan.scratchDir, plan.caption, size));
  graph.push(`[${video}]${finish.join(',')}[v]`);

  const maps = ['-map', '[v]'];
  let audioArgs: string[] = ['-an'];
  if (plan.audio) {
    const audioInput = plan.audio.kind === 'file' ? addInput('-i', plan.audio.path) : 0;
    graph.push(`[${audioInput}:a]apad[a]`);
    maps.push('-map', '[a]');
    audioArgs = AAC_ARGS;
  }

  await runFfmpeg(
    [...inputs, '-filter_complex', graph.join(';'), ...maps, '-r', String(fps), '-t', seconds, ...H264_ARGS, ...audioArgs, plan.outPath],
    { signal: plan.signal, cwd: plan.scratchDir },
  );
}

/** Scales and centre-crops to fill `size × factor` exactly (even dimensions, square pixels). */
function cover(size: FrameSize, factor: number): string {
  const width = Math.round((size.width * factor) / 2) * 2;
  const height = Math.round((size.height * factor) / 2) * 2;
  return `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1`;
}

function lookFilters(look: ClipLook): string[] {
  const filters = [`hue=h=${look.hueDegrees.toFixed(1)}:s=${look.saturation.toFixed(2)}`];
  if (look.mirror) filters.push('hflip');
  return filters;
}
