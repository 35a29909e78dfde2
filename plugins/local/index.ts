/**
 * The `local` provider: every operation served offline with real, decodable media (PNG, MP4, MP3,
 * GLB, splats) whose properties follow the input. It is the embedded default's provider and the
 * honest double in tests. Every `start` does the whole job and returns `{ done }`; there is no task
 * to poll.
 */
import { definePlugin, MediaToolError } from '../../src/kernel/plugin-sdk/index.js';
import { localConfigSchema, PROVIDER_ID, type LocalConfig, type LocalHandler } from './local-config.js';
import { imageEdit } from './operations/image-edit.js';
import { imageGenerate } from './operations/image-generate.js';
import { lipsyncGenerate } from './operations/lipsync-generate.js';
import { musicGenerate } from './operations/music-generate.js';
import { narrationGenerate } from './operations/narration-generate.js';
import { partner2CharacterCreate } from './operations/partner2-character.js';
import { partner2GenerateWithCharacters, partner2VideoEdit, partner2VideoRemix } from './operations/partner2-video.js';
import { promptEnhanceImage, promptEnhanceVideo } from './operations/prompt-enhance.js';
import { smartmotionGenerate } from './operations/smartmotion-generate.js';
import { soundfxGenerate } from './operations/soundfx-generate.js';
import { subtitlesGenerate } from './operations/subtitles-generate.js';
import { threeDLocationGenerate } from './operations/three-d-location.js';
import { threeDModelGenerate } from './operations/three-d-model.js';
import { videoGenerate } from './operations/video-generate.js';
import { videoUpscale } from './operations/video-upscale.js';

export type { LocalConfig } from './local-config.js';

export default definePlugin<LocalConfig>({
  id: PROVIDER_ID,
  configSchema: localConfigSchema,
  // Needs no credentials or network: always available.
  isEnabled: (config) => config.enabled !== false,
  // Its media is generated, not a vendor's: production never substitutes it for a vendor's model.
  synthetic: true,
  operations: logFailureCauses({
    'prompt.enhance.video': promptEnhanceVideo,
    'prompt.enhance.image': promptEnhanceImage,
    'image.generate': imageGenerate,
    'image.edit': imageEdit,
    'video.generate': videoGenerate,
    'video.upscale': videoUpscale,
    'music.generate': musicGenerate,
    'narration.generate': narrationGenerate,
    'soundfx.generate': soundfxGenerate,
    'lipsync.generate': lipsyncGenerate,
    'subtitles.generate': subtitlesGenerate,
    'smartmotion.generate': smartmotionGenerate,
    'three_d.model.generate': threeDModelGenerate,
    'three_d.location.generate': threeDLocationGenerate,
    'partner2.video.edit': partner2VideoEdit,
    'partner2.video.remix': partner2VideoRemix,
    'partner2.video.generate_with_characters': partner2GenerateWithCharacters,
    'partner2.character.create': partner2CharacterCreate,
  }),
});

/**
 * Failures carry a client-safe message; what ffmpeg, ffprobe or sharp said (with scratch paths) is on the
 * error's `cause` and goes to the log here, once, with the request id.
 */
function logFailureCauses(handlers: Record<string, LocalHandler>): Record<string, LocalHandler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([operation, handler]) => [
      operation,
      {
        ...handler,
        async start(input, ctx, route) {
          try {
            return await handler.start(input, ctx, route);
          } catch (error) {
            if (error instanceof Error && error.cause !== undefined) {
              ctx.log.warn({ requestId: ctx.requestId, operation, err: error.message, cause: describeCause(error.cause) }, 'local operation failed');
            }
            throw error;
          }
        },
      },
    ]),
  );
}

function describeCause(cause: unknown): string {
  if (cause instanceof MediaToolError) return `${cause.message}: ${cause.detail}`;
  return cause instanceof Error ? cause.message : String(cause);
}
