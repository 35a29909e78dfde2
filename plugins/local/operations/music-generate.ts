/**
 * music.generate: an MP3 of `duration_seconds` composed from the prompt (key, tempo, mood and
 * progression are seeded by it). generation_mode `loop` yields a seamless loop, `ambience` a
 * drumless bed.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { moodOf } from '../audio/music-composer.js';
import { writeMp3 } from '../audio/mp3-file.js';
import { readBoolean, readDuration, readNumber, readString } from '../input-fields.js';
import type { LocalContext, LocalHandler } from '../local-config.js';
import { seedFrom } from '../media/seeded-random.js';
import { runOffThread } from '../off-thread/off-thread.js';
import { finishedAsset } from './finished-asset.js';

const DEFAULT_DURATION_SECONDS = 30;
/** The vendor clients name when they do not pick one. */
const DEFAULT_REQUESTED_PROVIDER = 'suno';
const TITLE_WORDS = 6;
const TITLE_MAX_CHARACTERS = 60;

export const musicGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const prompt = readString(input, 'prompt') ?? readString(input, 'description_prompt') ?? '';
    const style = readString(input, 'style') ?? '';
    const mode = readString(input, 'generation_mode');
    const duration = readDuration(input, 'duration_seconds', DEFAULT_DURATION_SECONDS);
    const audio = await runOffThread('music', {
      seed: seedFrom(prompt, style, readNumber(input, 'seed')),
      durationSeconds: duration,
      mood: moodOf(`${prompt} ${style}`),
      loop: mode === 'loop' || readBoolean(input, 'loop') === true,
      ambience: mode === 'ambience',
    }, ctx.signal);
    const outPath = join(await ctx.scratchDir(), 'music.mp3');
    await writeMp3(audio, outPath, ctx.signal);
    const hosted = await ctx.blobs.putFile(outPath, 'audio/mpeg', 'mp3');
    return {
      done: finishedAsset('audio', route, {
        audio_url: hosted.url,
        requested_provider: readString(input, 'provider') ?? DEFAULT_REQUESTED_PROVIDER,
        title: readString(input, 'title') ?? titleFrom(prompt || style),
      }),
    };
  },
};

/** The prompt's first words; the client's language is kept, nothing is translated. */
function titleFrom(text: string): string {
  const words = [...text.replace(/\s+/g, ' ').trim().split(' ').slice(0, TITLE_WORDS).join(' ')]
    .slice(0, TITLE_MAX_CHARACTERS)
    .join('')
    .replace(/[.,;:!?。、，]+$/u, '');
  if (!words) return 'Untitled';
  const [first, ...rest] = words;
  return first.toLocaleUpperCase() + rest.join('');
}
