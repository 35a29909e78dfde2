/**
 * Settings of the `elevenlabs` provider (`providers.elevenlabs` in config, or
 * `MEDIAGATE_PROVIDER_ELEVENLABS_<KEY>` in the environment). Only `api_key` is required.
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'elevenlabs';

export interface ElevenLabsConfig {
  /** Sent as `xi-api-key`; never logged or returned. */
  api_key?: string;
  base_url?: string;
  /** Per vendor call; each endpoint has its own default (music takes longest). */
  timeout_ms?: number;
  /** ElevenLabs `output_format` query value for every audio endpoint. */
  output_format?: string;
  /** Voice for narration requests without `voice_id`. */
  default_voice_id?: string;
}

export const DEFAULT_BASE_URL = 'https://api.elevenlabs.io';
/**
 * MP3 only: `audio_url` must be a file any client can play, and the other documented codecs are raw
 * PCM, μ-law/A-law or Opus (https://elevenlabs.io/docs/api-reference/text-to-speech/convert, query
 * `output_format`). mp3_44100_128 is the vendor's own default for speech and sound effects.
 */
export const DEFAULT_OUTPUT_FORMAT = 'mp3_44100_128';
/**
 * "George", a premade voice every account has; it is the voice of the official SDK's quickstart
 * (https://github.com/elevenlabs/elevenlabs-python/blob/main/README.md).
 */
export const DEFAULT_VOICE_ID = 'JBFqnCBsd6RMkjVDRZzb';

export const elevenLabsConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    api_key: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', pattern: '^https?://', default: DEFAULT_BASE_URL },
    timeout_ms: { type: 'integer', minimum: 1000, maximum: 900_000 },
    output_format: { type: 'string', pattern: '^mp3_\\d+_\\d+$', default: DEFAULT_OUTPUT_FORMAT },
    default_voice_id: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 64, default: DEFAULT_VOICE_ID },
  },
};

export type ElevenLabsContext = PluginContext<ElevenLabsConfig>;
export type ElevenLabsHandler = OperationHandler<ElevenLabsConfig>;
