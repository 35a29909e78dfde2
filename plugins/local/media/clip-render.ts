/**
 * Renders one H.264 MP4 clip from a base (a still under a camera move, or an existing clip, optionally
 * colour-graded), characters' clips standing in it, an optional caption and an optional audio track, at an
 * exact size, frame rate and duration, with the words it carries in its tags (media-words.ts). Every video
 * operation of the local plugin ends here, so all of them share one encoding and one set of ffmpeg quirks.
 */
import { cameraMoveFilter, type CameraMove } from './camera-move.js';
import { characterChain, placeCharacter, type CharacterLayer } from './character-layer.js';
import { gradeFilters, type ColourGrade } from './colour-grade.js';
import { captionFilter } from './drawtext.js';
import { AAC_ARGS, H264_ARGS } from './encoding-args.js';
import { runFfmpeg } from './ffmpeg.js';
import type { FrameSize } from './frame-size.js';
import { wordsTagArgs, type MediaWords } from './media-words.js';

/**
 * Zoompan crops whole source pixels; oversampling the source keeps slow moves from stuttering.
 * 1.25 covers the default push-in (1.18x) without upsampling and keeps 1080p renders affordable.
 */
const OVERSAMPLE = 1.25;

export type ClipBase =
  | {
      kind: 'still';
      imagePath: string;
      move: CameraMove;
      /** Cross-faded in over the second half (first-and-last-frame guidance). */
      endImagePath?: string;
    }
  | { kind: 'video'; videoPath: string; move?: CameraMove; grade?: ColourGrade };

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
  /** Where the caption sits; bottom unless said. */
  captionPosition?: 'top' | 'bottom';
  audio?: ClipAudio;
  /** Clips composited over the base, in order. */
  characters?: CharacterLayer[];
  /** Written into the MP4's word tags; words a source file carried are never passed on unless given here. */
  words?: MediaWords;
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
    if (plan.base.grade) chain.push(...gradeFilters(plan.base.grade));
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

  for (const [index, character] of (plan.characters ?? []).entries()) {
    const clip = addInput('-stream_loop', '-1', '-i', character.videoPath);
    const plate = character.platePath ? addInput('-loop', '1', '-framerate', String(fps), '-i', character.platePath) : undefined;
    graph.push(...characterChain(character, clip, plate, fps, `character${index}`));
    graph.push(placeCharacter(character.box, video, `character${index}`, `with${index}`));
    video = `with${index}`;
  }

  const finish = ['format=yuv420p'];
  if (plan.caption) finish.unshift(await captionFilter(plan.scratchDir, plan.caption, size, plan.captionPosition));
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
    [...inputs, '-filter_complex', graph.join(';'), ...maps, '-r', String(fps), '-t', seconds, ...H264_ARGS, ...audioArgs, ...wordsTagArgs(plan.words, 'mp4'), plan.outPath],
    { signal: plan.signal, cwd: plan.scratchDir },
  );
}

/** Scales and centre-crops to fill `size × factor` exactly (even dimensions, square pixels). */
function cover(size: FrameSize, factor: number): string {
  const width = Math.round((size.width * factor) / 2) * 2;
  const height = Math.round((size.height * factor) / 2) * 2;
  return `scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1`;
}
