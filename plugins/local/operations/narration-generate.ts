/**
 * narration.generate: real speech of `text` by espeak-ng (WASM), encoded as MP3; character
 * timestamps when include_timestamps is set. Answered at once, without a task id. The MP3 carries the text in
 * its tags (media/media-words.ts): subtitles of a lip-synced clip made from it show these words.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { writeMp3 } from '../audio/mp3-file.js';
import type { PcmAudio } from '../audio/pcm.js';
import { readBoolean, readNumber, readString } from '../input-fields.js';
import { PROVIDER_ID, type LocalContext, type LocalHandler } from '../local-config.js';
import { invalidInput } from '../media/input-media.js';
import { estimateAlignment } from '../speech/character-alignment.js';
import { UnknownVoiceError } from '../speech/espeak-synthesizer.js';
import { runOffThread } from '../off-thread/off-thread.js';
import { chooseVoice, type VoiceChoice } from '../speech/voice-selection.js';

export const narrationGenerate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const text = readString(input, 'text');
    if (!text) throw invalidInput('text is required');
    const choice = chooseVoice({
      text,
      languageCode: readString(input, 'language_code'),
      voiceId: readString(input, 'voice_id'),
      tone: readString(input, 'tone'),
      speed: readNumber(input, 'speed'),
    });
    const speech = await speak(ctx, text, choice);
    const outPath = join(await ctx.scratchDir(), 'narration.mp3');
    await writeMp3(speech, outPath, ctx.signal, { words: text });
    const hosted = await ctx.blobs.putFile(outPath, 'audio/mpeg', 'mp3');
    return {
      done: {
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: hosted.url,
        provider: PROVIDER_ID,
        model: route.publicName,
        ...(readBoolean(input, 'include_timestamps') === true ? { alignment: { ...estimateAlignment(text, speech) } } : {}),
      },
    };
  },
};

/** Falls back through the candidate voices when espeak-ng does not know a requested language. */
async function speak(ctx: LocalContext, text: string, choice: VoiceChoice): Promise<PcmAudio> {
  for (const voice of choice.voices) {
    try {
      return await runOffThread('speech', { text, voice, wordsPerMinute: choice.wordsPerMinute, pitch: choice.pitch }, ctx.signal);
    } catch (error) {
      // The error crossed a thread boundary: its class is gone, its name is kept.
      if (!(error instanceof Error && error.name === new UnknownVoiceError('').name)) {
        throw new ProviderError(`speech synthesis failed: ${error instanceof Error ? error.message : String(error)}`, {
          provider: PROVIDER_ID,
          retryable: false,
        });
      }
      ctx.log.warn({ voice }, 'espeak-ng has no such voice, trying the next one');
    }
  }
  throw invalidInput('no espeak-ng voice could speak this text');
}
