/**
 * The words of a media file, where the gateway knows them. There is no speech recognition offline, so the
 * local plugin never guesses: it knows a file's words only when
 * - the file is one the local renderer made: every MP4 and MP3 it writes carries the words in its own
 *   metadata tags (`mediagate_words`: what is spoken, e.g. a narration's `text` carried on through lip sync;
 *   `mediagate_prompt`: the prompt the picture was rendered from), so they travel with the file wherever it
 *   is hosted or re-uploaded; or
 * - the file is one of the shipped samples (samples/catalogue.json), recognised by its SHA-256, whose
 *   catalogue entry has a transcript.
 * Anything else has no known words, and callers say so rather than invent any.
 */
import { stat } from 'node:fs/promises';
import { readSampleCatalogue, type SampleEntry } from '../../../src/kernel/blobs/index.js';
import { runFfmpegToBuffer } from '../../../src/kernel/plugin-sdk/index.js';
import type { LocalContext } from '../local-config.js';
import { sha256OfFile } from './file-digest.js';

export const WORDS_TAG = 'mediagate_words';
export const PROMPT_TAG = 'mediagate_prompt';

/** What a file says: spoken words and the prompt its picture shows, either may be missing. */
export interface MediaWords {
  words?: string;
  prompt?: string;
}

export interface KnownWords extends MediaWords {
  /** Where they were found: the file's own tags, or the sample catalogue. */
  from: 'tags' | 'sample';
}

/**
 * Output options writing `words` into a file's tags. Both tags are always set, an empty value deleting one a
 * source carried, so a file never claims words it no longer has (a clip whose sound was replaced); other
 * tags are left as ffmpeg copies them. The MP4 muxer keeps keys outside its iTunes list only with
 * `use_metadata_tags` (https://wiki.multimedia.cx/index.php/FFmpeg_Metadata); faststart stays on.
 */
export function wordsTagArgs(words: MediaWords | undefined, container: 'mp4' | 'mp3'): string[] {
  return [
    ...(container === 'mp4' ? ['-movflags', '+faststart+use_metadata_tags'] : []),
    '-metadata', `${WORDS_TAG}=${words?.words ?? ''}`,
    '-metadata', `${PROMPT_TAG}=${words?.prompt ?? ''}`,
  ];
}

export async function readKnownWords(ctx: LocalContext, path: string): Promise<KnownWords | undefined> {
  const tags = await readTags(ctx, path);
  const tagged = { words: tags.get(WORDS_TAG) || undefined, prompt: tags.get(PROMPT_TAG) || undefined };
  if (tagged.words || tagged.prompt) return { ...tagged, from: 'tags' };
  const sample = await matchingSample(path, ctx.signal);
  return sample?.transcript ? { words: sample.transcript, from: 'sample' } : undefined;
}

/** The file's global tags, as ffmpeg's ffmetadata writer prints them. */
async function readTags(ctx: LocalContext, path: string): Promise<Map<string, string>> {
  let printed: Buffer;
  try {
    printed = await runFfmpegToBuffer(['-i', path, '-f', 'ffmetadata', 'pipe:1'], { signal: ctx.signal });
  } catch (error) {
    // Tags are a bonus: a file ffmpeg can play but not describe simply has no known words.
    if (ctx.signal.aborted) throw error;
    return new Map();
  }
  return parseFfmetadata(printed.toString('utf8'));
}

/**
 * ffmetadata: `;FFMETADATA1`, then `key=value` lines of the global section until the first `[SECTION]`;
 * `=`, `;`, `#`, `\` and newlines inside keys and values are escaped with a backslash (FFmpeg's doc/metadata.texi,
 * the "Metadata" chapter of ffmpeg-formats).
 */
export function parseFfmetadata(text: string): Map<string, string> {
  const tags = new Map<string, string>();
  let current = '';
  const finish = (): void => {
    const line = current;
    current = '';
    if (line === '' || line.startsWith(';') || line.startsWith('#')) return;
    const split = unescapedEquals(line);
    if (split < 0) return;
    tags.set(unescape(line.slice(0, split)), unescape(line.slice(split + 1)));
  };
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (char === '\\' && index + 1 < text.length) {
      current += char + text[index + 1];
      index += 1;
    } else if (char === '\n') {
      if (current.startsWith('[')) return tags;
      finish();
    } else {
      current += char;
    }
  }
  if (!current.startsWith('[')) finish();
  return tags;
}

function unescapedEquals(line: string): number {
  for (let index = 0; index < line.length; index += 1) {
    if (line[index] === '\\') index += 1;
    else if (line[index] === '=') return index;
  }
  return -1;
}

function unescape(value: string): string {
  return value.replace(/\\(.)/gs, '$1');
}

let catalogue: Promise<SampleEntry[]> | undefined;

/**
 * The shipped sample this file is, by size and then SHA-256 (the catalogue's): a copy read back from any URL
 * is still recognised, and a different file of the same name is not.
 */
export async function matchingSample(path: string, signal?: AbortSignal): Promise<SampleEntry | undefined> {
  const samples = await sampleCatalogue();
  const { size } = await stat(path);
  const sameSize = samples.filter((sample) => sample.bytes === size);
  if (sameSize.length === 0) return undefined;
  const digest = await sha256OfFile(path, signal);
  return sameSize.find((sample) => sample.sha256 === digest);
}

/** The shipped samples; none when the catalogue is missing (a trimmed deployment). Read once per process. */
export function sampleCatalogue(): Promise<SampleEntry[]> {
  catalogue ??= readSampleCatalogue().catch(() => []);
  return catalogue;
}
