/**
 * `POST /v1/music`: a track composed from a prompt, as audio bytes.
 * https://elevenlabs.io/docs/api-reference/music/compose; body fields as the official SDK sends them:
 * https://github.com/elevenlabs/elevenlabs-python/blob/main/src/elevenlabs/music/raw_client.py
 */
import { fallbackFor, type ElevenLabsEndpoint } from '../elevenlabs-api.js';

export const musicCompose: ElevenLabsEndpoint = {
  path: () => 'v1/music',
  // Composing runs while the connection waits; minutes-long tracks take a while.
  timeoutMs: 240_000,
  fields: {
    prompt: 'prompt',
    description_prompt: fallbackFor('prompt', 'prompt'),
    duration_seconds: { to: 'music_length_ms', transform: (seconds) => (typeof seconds === 'number' ? Math.round(seconds * 1000) : undefined) },
    instrumental: 'force_instrumental',
    // A top-level body field ("optional generation mode hint for prompt-based music generation", enum
    // MusicGenerationMode: track | loop | ambience | video_to_music). The Python and JS SDKs ship the enum
    // type but not the field; the OpenAPI-generated C# SDK has it on the compose body:
    // https://github.com/tryAGI/ElevenLabs/blob/main/src/libs/ElevenLabs/Generated/ElevenLabs.Models.BodyComposeMusicV1MusicPost.g.cs
    generation_mode: 'generation_mode',
    // `seed` is left out on purpose: the vendor documents it as "cannot be used in conjunction with prompt",
    // and every request here is prompt-based, so sending it would turn a seeded request into a 4xx.
    // style, negative_tags and prompt_influence have no counterpart on this endpoint; title only names the output.
  },
};
