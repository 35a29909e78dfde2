/**
 * The last frame of a video, written as PNG: the frame a continuation starts from. ffmpeg seeks to just before
 * the end and overwrites one image with every frame it decodes (`-update 1`), so whatever the container's
 * index says, the file left is the final decoded frame.
 */
import { runFfmpeg } from './ffmpeg.js';

/** Far enough back to hold a keyframe-less tail of a normal clip; a shorter source is decoded whole. */
const TAIL_SECONDS = 1;

export async function writeLastFrame(videoPath: string, outPath: string, signal: AbortSignal): Promise<void> {
  await runFfmpeg(['-sseof', `-${TAIL_SECONDS}`, '-i', videoPath, '-map', '0:v:0', '-update', '1', '-c:v', 'png', outPath], { signal });
}
