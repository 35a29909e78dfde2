import { writeFile } from 'node:fs/promises';
import { MP3_ARGS } from '../media/encoding-args.js';
import { runFfmpeg } from '../media/ffmpeg.js';
import { wordsTagArgs, type MediaWords } from '../media/media-words.js';
import { runOffThread } from '../off-thread/off-thread.js';
import type { PcmAudio } from './pcm.js';

/**
 * Encodes PCM to MP3 via a WAV in the scratch folder (libmp3lame in the static ffmpeg). `words` (a narration's
 * text) go into the file's tags, so lip sync and subtitles made from it later know what is said.
 */
export async function writeMp3(audio: PcmAudio, mp3Path: string, signal: AbortSignal, words?: MediaWords): Promise<void> {
  const wavPath = mp3Path.replace(/\.mp3$/, '') + '.wav';
  // Encoding minutes of samples is a long loop: done in a worker thread, like the synthesis itself.
  await writeFile(wavPath, await runOffThread('wav', audio, signal));
  await runFfmpeg(['-i', wavPath, ...MP3_ARGS, ...wordsTagArgs(words, 'mp3'), mp3Path], { signal });
}
