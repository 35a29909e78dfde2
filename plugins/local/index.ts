/**
 * The `local` provider: every operation served offline with real, decodable media (PNG, MP4, MP3,
 * GLB, splats) whose properties follow the input. It is the embedded default's provider and the
 * honest double in tests. Every `start` does the whole job and returns `{ done }`; there is no task
 * to poll.
 *
 * Its outputs never claim a vendor's model: `output.model` names the local renderer that made them
 * (renderers.ts), whichever model the client routed to. What the client asked for stays in the request's
 * `input`, and in the fields its manifest has for it (`requested_model`, `requested_provider`).
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
import { promptEnhanceLocation } from './operations/prompt-enhance-location.js';
import { promptEnhanceVariant } from './operations/prompt-enhance-variant.js';
import { smartmotionGenerate } from './operations/smartmotion-generate.js';
import { soundfxGenerate } from './operations/soundfx-generate.js';
import { subtitlesGenerate } from './operations/subtitles-generate.js';
import { threeDLocationGenerate } from './operations/three-d-location.js';
import { threeDModelGenerate } from './operations/three-d-model.js';
import { videoExtend } from './operations/video-extend.js';
import { videoGenerate } from './operations/video-generate.js';
import { videoUpscale } from './operations/video-upscale.js';
import { renderSlotsFor } from './render-slots.js';
import { RENDERERS, TEXT_RENDERERS } from './renderers.js';

export type { LocalConfig } from './local-config.js';

export default definePlugin<LocalConfig>({
  id: PROVIDER_ID,
  configSchema: localConfigSchema,
  // Needs no credentials or network: always available.
  isEnabled: (config) => config.enabled !== false,
  // Its media is generated, not a vendor's: production never substitutes it for a vendor's model.
  synthetic: true,
  operations: served({
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
    'prompt.enhance.location': promptEnhanceLocation,
    'prompt.enhance.variant': promptEnhanceVariant,
    'video.extend': videoExtend,
  }),
});

/**
 * Wraps every handler so that (1) it is handed a route whose `publicName` — what `output.model` says — is its
 * renderer's name (renderers.ts), while `route.model` and `route.vendorModel` still say what the client routed
 * to; (2) a media render waits for one of the process's render slots (render-slots.ts), while a text-only
 * operation, made in microseconds, never queues behind a video; and (3) its failures are logged with their cause: the error a client reads carries a safe message, and
 * what ffmpeg, ffprobe or sharp said (with scratch paths) is on its `cause`, logged here once with the request id.
 */
function served(handlers: Record<string, LocalHandler>): Record<string, LocalHandler> {
  return Object.fromEntries(
    Object.entries(handlers).map(([operation, handler]) => {
      const renderer = RENDERERS[operation];
      // At load, not at the first request: an operation without a renderer name would answer with the vendor's.
      if (!renderer) throw new Error(`local plugin: no renderer name for ${operation} in renderers.ts`);
      const rendersMedia = !TEXT_RENDERERS.has(renderer);
      const wrapped: LocalHandler = {
        ...handler,
        async start(input, ctx, route) {
          const render = () => handler.start(input, ctx, { ...route, publicName: renderer });
          try {
            if (!rendersMedia) return await render();
            return await renderSlotsFor(ctx.config).run(ctx.signal, render);
          } catch (error) {
            // An aborted render (timeout, shutdown, the client's cancel) has nothing of the media to tell.
            if (error instanceof Error && error.cause !== undefined && !ctx.signal.aborted) {
              ctx.log.warn({ requestId: ctx.requestId, operation, err: error.message, cause: describeCause(error.cause) }, 'local operation failed');
            }
            throw error;
          }
        },
      };
      return [operation, wrapped];
    }),
  );
}

function describeCause(cause: unknown): string {
  if (cause instanceof MediaToolError) return `${cause.message}: ${cause.detail}`;
  return cause instanceof Error ? cause.message : String(cause);
}
