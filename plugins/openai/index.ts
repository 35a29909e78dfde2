/**
 * The `openai` provider: prompt rewriting through Chat Completions and GPT image generation and editing
 * through the Images API. Every endpoint answers synchronously, so every `start` returns `{ done }`.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { promptEnhanceImage, promptEnhanceVideo } from './chat-completions.js';
import { imageEdit } from './images-edits.js';
import { imageGenerate } from './images-generations.js';
import { promptEnhanceLocation } from './location-prompt.js';
import { openAIConfigSchema, PROVIDER_ID, type OpenAIConfig } from './openai-api.js';
import { promptEnhanceVariant } from './prompt-variants.js';

export type { OpenAIConfig } from './openai-api.js';

export default definePlugin<OpenAIConfig>({
  id: PROVIDER_ID,
  configSchema: openAIConfigSchema,
  isEnabled: (config) => Boolean(config.api_key),
  operations: {
    'prompt.enhance.image': promptEnhanceImage,
    'prompt.enhance.video': promptEnhanceVideo,
    'image.generate': imageGenerate,
    'image.edit': imageEdit,
    'prompt.enhance.location': promptEnhanceLocation,
    'prompt.enhance.variant': promptEnhanceVariant,
  },
});
