/**
 * Joins a source video and a rendered continuation into one H.264 MP4: the source first, re-framed to the
 * output size and frame rate, then the continuation. The source's own audio is kept and padded with silence
 * under the continuation (nothing in the continuation makes a sound); a silent source gives a silent result.
 */
import { AAC_ARGS, H264_ARGS } from './encoding-args.js';
import { runFfmpeg } from './ffmpeg.js';
import type { FrameSize } from './frame-size.js';

export interface ClipAppendPlan {
  sourcePath: string;
  sourceHasAudio: boolean;
  /** Rendered at `size` and `fps` already (clip-render.ts). */
  continuationPath: string;
  size: FrameSize;
  fps: number;
  totalSeconds: number;
  outPath: string;
  signal: AbortSignal;
}

export async function appendClip(plan: ClipAppendPlan): Promise<void> {
  const { width, height } = plan.size;
  const graph = [
    `[0:v]fps=${plan.fps},scale=${width}:${height}:force_original_aspect_ratio=increase,crop=${width}:${height},setsar=1,format=yuv420p[head]`,
    `[1:v]fps=${plan.fps},setsar=1,format=yuv420p[tail]`,
    '[head][tail]concat=n=2:v=1:a=0[v]',
  ];
  const maps = ['-map', '[v]'];
  if (plan.sourceHasAudio) {
    graph.push('[0:a]apad[a]');
    maps.push('-map', '[a]');
  }
  await runFfmpeg(
    [
      '-i', plan.sourcePath,
      '-i', plan.continuationPath,
      '-filter_complex', graph.join(';'),
      ...maps,
      '-r', String(plan.fps),
      '-t', plan.totalSeconds.toFixed(3),
      ...H264_ARGS,
      ...(plan.sourceHasAudio ? AAC_ARGS : ['-an']),
      plan.outPath,
    ],
    { signal: plan.signal },
  );
}
