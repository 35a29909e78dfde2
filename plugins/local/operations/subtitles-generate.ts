/**
 * subtitles.generate: burns styled captions into the video with libass; their styling follows
 * subtitle_settings exactly. There is no speech recognition offline, so the captions are the words the
 * gateway knows for the source (media/media-words.ts): the spoken words recorded in a file the local renderer
 * made (e.g. a narration's text carried through lip sync) or a shipped sample's transcript, else the prompt
 * the source's picture was rendered from. Those words are spread over the stretch of the soundtrack that has
 * sound, in proportion to their length (not aligned word by word). A video with no known words gets no
 * invented ones: its frames carry a bracketed notice in the requested style, and `note` says why.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { runFfmpegToBuffer } from '../../../src/kernel/plugin-sdk/index.js';
import { readNumber, readObject, readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { buildAssScript, type SubtitleCue, type SubtitleStyle } from '../media/ass-subtitles.js';
import { AAC_ARGS, H264_ARGS } from '../media/encoding-args.js';
import { filterValue, runFfmpeg } from '../media/ffmpeg.js';
import { FONT_DIR } from '../media/font.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';
import { readKnownWords, wordsTagArgs, type KnownWords } from '../media/media-words.js';
import { finishedAsset, hostMp4 } from './finished-asset.js';

const FALLBACK_SECONDS = 2;
/** A caption line pair a viewer can read at a glance. */
const MAX_CUE_WORDS = 7;
const MAX_CUE_CHARACTERS = 42;
export const NO_WORDS_NOTICE = '[no transcript: the offline renderer cannot recognise speech]';

export const subtitlesGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const videoUrl = readString(input, 'video_url');
    if (!videoUrl) throw invalidInput('video_url is required');
    const source = await fetchInputToFile(ctx, videoUrl, 'video_url');
    const decoded = await requireVideo(ctx, source);
    const duration = decoded.durationSeconds || readNumber(input, 'duration') || FALLBACK_SECONDS;
    const size = { width: decoded.video.width, height: decoded.video.height };
    const known = await readKnownWords(ctx, source.path);
    const text = known?.words ?? known?.prompt;
    const span = known?.words && decoded.audio ? await soundSpan(ctx, source.path, duration) : { start: 0, end: duration };
    const cues = text ? timedCues(text, span) : [{ startSeconds: 0, endSeconds: duration, text: NO_WORDS_NOTICE }];
    const script = buildAssScript(cues, styleOf(readObject(input, 'subtitle_settings')), size);
    const scratchDir = await ctx.scratchDir();
    await writeFile(join(scratchDir, 'captions.ass'), script, 'utf8');
    const outPath = join(scratchDir, 'subtitled.mp4');
    await runFfmpeg(
      [
        '-i', source.path,
        '-map', '0:v:0', '-map', '0:a:0?',
        // fontsdir makes libass use the bundled DejaVu files instead of whatever the machine has.
        '-vf', `ass=captions.ass:fontsdir='${filterValue(FONT_DIR)}',scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p`,
        ...H264_ARGS,
        ...(decoded.audio ? AAC_ARGS : ['-an']),
        ...wordsTagArgs(known, 'mp4'),
        outPath,
      ],
      { signal: ctx.signal, cwd: scratchDir },
    );
    const hostedVideoUrl = await hostMp4(ctx, outPath);
    return {
      done: finishedAsset('video', route, {
        video_url: hostedVideoUrl,
        ...(text ? { transcript: text } : {}),
        note: noteFor(known),
      }),
    };
  },
};

function noteFor(known: KnownWords | undefined): string {
  if (known?.words && known.from === 'sample') return 'Subtitles show the transcript of the shipped sample video; the offline renderer does not recognise speech.';
  if (known?.words) return 'Subtitles show the spoken words recorded in the video by the gateway that made it; the offline renderer does not recognise speech.';
  if (known?.prompt) return 'The video has no recorded spoken words: subtitles show the prompt the gateway rendered it from; the offline renderer does not recognise speech.';
  return 'No subtitles: the offline renderer does not recognise speech and the gateway knows no words for this video, so the frames carry a notice instead.';
}

interface Span {
  start: number;
  end: number;
}

/** Short caption chunks, shown one after another over `span`, each for a time in proportion to its length. */
export function timedCues(text: string, span: Span): SubtitleCue[] {
  const chunks = chunkWords(text);
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  let start = span.start;
  return chunks.map((chunk, index) => {
    // The last caption ends with the span exactly, whatever the rounding of the shares before it.
    const end = index === chunks.length - 1 ? span.end : start + ((span.end - span.start) * chunk.length) / total;
    const cue = { startSeconds: start, endSeconds: end, text: chunk };
    start = end;
    return cue;
  });
}

function chunkWords(text: string): string[] {
  const chunks: string[] = [];
  let current: string[] = [];
  for (const word of text.replace(/\s+/g, ' ').trim().split(' ')) {
    const candidate = [...current, word].join(' ');
    if (current.length > 0 && (current.length >= MAX_CUE_WORDS || candidate.length > MAX_CUE_CHARACTERS)) {
      chunks.push(current.join(' '));
      current = [];
    }
    current.push(word);
    // A sentence ends a caption: the next one starts fresh.
    if (/[.!?。！？]$/.test(word)) {
      chunks.push(current.join(' '));
      current = [];
    }
  }
  if (current.length > 0) chunks.push(current.join(' '));
  return chunks;
}

/** Windows of the soundtrack that count as sound: above 15% of the loudest window's level. */
const WINDOW_SECONDS = 0.05;
const SOUND_SHARE = 0.15;
const ANALYSIS_RATE = 8000;

/** From the first to the last window with sound; the whole clip when the track is silent. */
async function soundSpan(ctx: LocalContext, path: string, duration: number): Promise<Span> {
  const pcm = await runFfmpegToBuffer(['-i', path, '-vn', '-ac', '1', '-ar', String(ANALYSIS_RATE), '-f', 's16le', '-acodec', 'pcm_s16le', 'pipe:1'], { signal: ctx.signal });
  const samplesPerWindow = Math.round(ANALYSIS_RATE * WINDOW_SECONDS);
  const levels: number[] = [];
  for (let offset = 0; offset + samplesPerWindow * 2 <= pcm.length; offset += samplesPerWindow * 2) {
    let sum = 0;
    for (let index = 0; index < samplesPerWindow; index += 1) sum += (pcm.readInt16LE(offset + index * 2) / 32768) ** 2;
    levels.push(Math.sqrt(sum / samplesPerWindow));
  }
  const loudest = Math.max(0, ...levels);
  if (loudest < 0.005) return { start: 0, end: duration };
  const first = levels.findIndex((level) => level >= loudest * SOUND_SHARE);
  const last = levels.length - 1 - [...levels].reverse().findIndex((level) => level >= loudest * SOUND_SHARE);
  return { start: first * WINDOW_SECONDS, end: Math.min(duration, (last + 1) * WINDOW_SECONDS) };
}

function styleOf(settings: JsonObject | undefined): SubtitleStyle {
  if (!settings) return {};
  return {
    font: readString(settings, 'font'),
    fontSize: readNumber(settings, 'fontSize'),
    color: readString(settings, 'color'),
    strokeColor: readString(settings, 'strokeColor'),
    strokeWidth: readNumber(settings, 'strokeWidth'),
  };
}
