/**
 * partner2.character.create: checks that the source video is fetchable, within the vendor's
 * 100 MB limit and really a video, and derives a stable character id from its content, so the
 * same clip always yields the same character.
 */
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import { PROVIDER_ID, type LocalContext, type LocalHandler } from '../local-config.js';
import { sha256OfFile } from '../media/file-digest.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';

/** The vendor's documented limit for character source videos. */
const MAX_SOURCE_BYTES = 100 * 1024 * 1024;

export const partner2CharacterCreate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const sourceVideoUrl = readString(input, 'source_video_url');
    if (!sourceVideoUrl) throw invalidInput('source_video_url is required');
    const source = await fetchInputToFile(ctx, sourceVideoUrl, 'source_video_url', { maxBytes: MAX_SOURCE_BYTES });
    await requireVideo(ctx, source);
    const digest = (await sha256OfFile(source.path, ctx.signal)).slice(0, 16);
    return {
      done: {
        status: 'completed',
        character: {
          id: `char_${digest}`,
          name: readString(input, 'name') ?? stem(readString(input, 'source_video_name')) ?? 'Character',
          sourceVideoUrl,
        },
        provider: PROVIDER_ID,
        model: route.publicName,
      },
    };
  },
};

function stem(fileName: string | undefined): string | undefined {
  return fileName?.replace(/\.[a-z0-9]{2,4}$/i, '') || undefined;
}
