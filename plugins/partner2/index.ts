/**
 * The `partner2` provider: the partner2 video family on an OpenAI-style Videos API (Sora 2 shape) at a
 * configurable base URL. video.generate (partner-2, partner-2-pro), generate_with_characters, edit and remix
 * are asynchronous video jobs (`start` creates, `status` polls and hosts the MP4); character.create answers at
 * once. No cancel: the API's DELETE removes finished videos only (see video-job.ts).
 * Enabled when `providers.partner2.api_key` (or MEDIAGATE_PROVIDER_PARTNER2_API_KEY) is set.
 */
import { definePlugin } from '../../src/kernel/plugin-sdk/index.js';
import { generateWithCharacters, videoGenerate } from './create-video.js';
import { isPartner2Enabled, partner2ConfigSchema, PROVIDER_ID, type Partner2Config } from './partner2-vendor.js';
import { characterCreate } from './video-characters.js';
import { videoEdit } from './video-edits.js';
import { videoRemix } from './video-remix.js';

export type { Partner2Config } from './partner2-vendor.js';

export default definePlugin<Partner2Config>({
  id: PROVIDER_ID,
  configSchema: partner2ConfigSchema,
  isEnabled: isPartner2Enabled,
  operations: {
    'video.generate': videoGenerate,
    'partner2.video.generate_with_characters': generateWithCharacters,
    'partner2.video.edit': videoEdit,
    'partner2.video.remix': videoRemix,
    'partner2.character.create': characterCreate,
  },
});
