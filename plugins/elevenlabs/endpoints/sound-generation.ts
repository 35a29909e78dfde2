/**
 * `POST /v1/sound-generation`: a sound effect as audio bytes.
 * https://elevenlabs.io/docs/api-reference/text-to-sound-effects/convert; body fields as the official SDK sends them:
 * https://github.com/elevenlabs/elevenlabs-python/blob/main/src/elevenlabs/text_to_sound_effects/raw_client.py
 * Not sent, because the endpoint has no such field: title, seed, negative_tags (and mode, which only routes).
 */
import { fallbackFor, type ElevenLabsEndpoint } from '../elevenlabs-api.js';

export const soundGeneration: ElevenLabsEndpoint = {
  path: () => 'v1/sound-generation',
  timeoutMs: 120_000,
  fields: {
    prompt: 'text',
    description_prompt: fallbackFor('prompt', 'text'),
    // 0.5-30 s; absent lets the model choose the length.
    duration_seconds: 'duration_seconds',
    prompt_influence: 'prompt_influence',
    // Only eleven_text_to_sound_v2 loops, which is the one model routed here.
    loop: 'loop',
  },
};
