/**
 * `POST /v1/text-to-speech/{voice_id}`: speech as audio bytes.
 * https://elevenlabs.io/docs/api-reference/text-to-speech/convert; body fields as the official SDK sends them:
 * https://github.com/elevenlabs/elevenlabs-python/blob/main/src/elevenlabs/text_to_speech/raw_client.py
 */
import type { JsonValue } from '../../../src/kernel/plugin-sdk/index.js';
import { DEFAULT_VOICE_ID } from '../elevenlabs-config.js';
import { stringField, type ElevenLabsEndpoint } from '../elevenlabs-api.js';

export const textToSpeech: ElevenLabsEndpoint = {
  path: (input, config) => `v1/text-to-speech/${encodeURIComponent(stringField(input, 'voice_id') ?? config.default_voice_id ?? DEFAULT_VOICE_ID)}`,
  timeoutMs: 60_000,
  fields: {
    text: 'text',
    language_code: 'language_code',
    seed: 'seed',
    previous_text: 'previous_text',
    next_text: 'next_text',
    apply_text_normalization: 'apply_text_normalization',
    // Dictionaries travel as locator objects; without a version_id the vendor applies each one's latest version.
    pronunciation_dictionary_ids: {
      to: 'pronunciation_dictionary_locators',
      transform: (ids) => (Array.isArray(ids) ? ids.map((id) => ({ pronunciation_dictionary_id: id })) : undefined),
    },
    // Per-request overrides of the voice's stored settings, nested under voice_settings.
    stability: 'voice_settings.stability',
    similarity_boost: 'voice_settings.similarity_boost',
    speed: 'voice_settings.speed',
  },
  modelFields: {
    // The vendor has no tone field. Eleven v3 takes delivery direction as an audio tag written into the text,
    // e.g. "[whispers] ..." (https://elevenlabs.io/docs/best-practices/prompting/eleven-v3); older models have
    // no such control and would read a tag aloud, so for them `tone` is left out (as the manifest says).
    eleven_v3: { tone: { to: 'text', transform: (tone, input) => taggedText(tone, input.text) } },
  },
};

/** Brackets inside the tone would end the tag early, so they are dropped. */
function taggedText(tone: JsonValue, text: JsonValue | undefined): string | undefined {
  const tag = typeof tone === 'string' ? tone.replace(/[[\]]/g, ' ').replace(/\s+/g, ' ').trim() : '';
  return tag && typeof text === 'string' ? `[${tag}] ${text}` : undefined;
}
