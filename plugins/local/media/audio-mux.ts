/**
 * Puts an audio track onto a video, cut or padded with silence to an exact duration. When the video
 * is shorter than that duration it is looped (talking-head and ambience clips loop far better than
 * a frozen last frame); otherwise an H.264 video stream is copied untouched.
 */
import { AAC_ARGS, H264_ARGS } from './encoding-args.js';
import { runFfmpeg } from './ffmpeg.js';
import { wordsTagArgs, type MediaWords } from './media-words.js';

export interface AudioMuxRequest {
  videoPath: string;
  videoCodec: string;
  videoDurationSeconds: number;
  audioPath: string;
  durationSeconds: number;
  outPath: string;
  signal: AbortSignal;
  /** What the result says (the audio's words), written into its tags. */
  words?: MediaWords;
}

export async function muxAudio(request: AudioMuxRequest): Promise<void> {
  const mustLoop = request.durationSeconds > request.videoDurationSeconds + 0.05;
  const copyVideo = !mustLoop && request.videoCodec === 'h264';
  await runFfmpeg(
    [
      ...(mustLoop ? ['-stream_loop', '-1'] : []),
      '-i', request.videoPath,
      '-i', request.audioPath,
      '-map', '0:v:0', '-map', '1:a:0',
      ...(copyVideo ? ['-c:v', 'copy'] : ['-vf', 'scale=trunc(iw/2)*2:trunc(ih/2)*2,setsar=1', ...H264_ARGS]),
      '-af', 'apad',
      ...AAC_ARGS,
      '-t', request.durationSeconds.toFixed(3),
      ...wordsTagArgs(request.words, 'mp4'),
      request.outPath,
    ],
    { signal: request.signal },
  );
}
