/**
 * `POST /v1/text-to-speech/{voice_id}/with-timestamps`: the same request as text-to-speech, answered with
 * JSON `{audio_base64, alignment: {characters, character_start_times_seconds, character_end_times_seconds}}`.
 * https://elevenlabs.io/docs/api-reference/text-to-speech-with-timestamps
 */
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { requireField } from '../../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from '../elevenlabs-config.js';
import type { ElevenLabsEndpoint } from '../elevenlabs-api.js';
import { textToSpeech } from './text-to-speech.js';

export const textToSpeechWithTimestamps: ElevenLabsEndpoint = {
  ...textToSpeech,
  path: (input, config) => `${textToSpeech.path(input, config)}/with-timestamps`,
};

/**
 * The SDK types `alignment` as optional, but the client asked for timing: an answer without it cannot
 * satisfy the request, so it is as malformed as one without audio.
 */
export function readTimestampedSpeech(data: unknown): { audio: Buffer; alignment: JsonObject } {
  const audioBase64 = requireField<string>(data, 'audio_base64', PROVIDER_ID);
  const alignment: JsonObject = {};
  for (const key of ['characters', 'character_start_times_seconds', 'character_end_times_seconds']) {
    alignment[key] = requireField<string[] | number[]>(data, `alignment.${key}`, PROVIDER_ID, 'array');
  }
  return { audio: Buffer.from(audioBase64, 'base64'), alignment };
}
