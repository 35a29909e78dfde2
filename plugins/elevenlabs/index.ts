/**
 * The `elevenlabs` provider: narration (text-to-speech), one-off sound effects and ElevenLabs Music.
 * Every endpoint answers synchronously with the audio, so every `start` returns `{ done }`; there is
 * nothing to poll or cancel.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { elevenLabsConfigSchema, PROVIDER_ID, type ElevenLabsConfig } from './elevenlabs-config.js';
import { musicGenerate } from './operations/music-generate.js';
import { narrationGenerate } from './operations/narration-generate.js';
import { soundfxGenerate } from './operations/soundfx-generate.js';

export type { ElevenLabsConfig } from './elevenlabs-config.js';

export default definePlugin<ElevenLabsConfig>({
  id: PROVIDER_ID,
  configSchema: elevenLabsConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'narration.generate': narrationGenerate,
    'soundfx.generate': soundfxGenerate,
    'music.generate': musicGenerate,
  },
});
