/**
 * partner2.character.create: checks that the source video is fetchable, within the vendor's 100 MB limit and
 * really a video, and derives a stable character id from its content, so the same clip always yields the same
 * character. The source is kept: a copy is hosted and the local library records it under the id, so that
 * partner2.video.generate_with_characters can put the character into its clips (the shipped sample clips are
 * found by their digest without a record).
 */
import type { JsonObject, RoutedModel, StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import { readString } from '../input-fields.js';
import { PROVIDER_ID, type LocalContext, type LocalHandler } from '../local-config.js';
import { rememberCharacter } from '../library/local-library.js';
import { sha256OfFile } from '../media/file-digest.js';
import { fetchInputToFile, invalidInput, requireVideo } from '../media/input-media.js';

/** The vendor's documented limit for character source videos. */
const MAX_SOURCE_BYTES = 100 * 1024 * 1024;
/** Hex digits of the SHA-256 in a character id. */
export const CHARACTER_DIGEST_LENGTH = 16;

export const partner2CharacterCreate: LocalHandler = {
  async start(input: JsonObject, ctx: LocalContext, route: RoutedModel): Promise<StartResult> {
    const sourceVideoUrl = readString(input, 'source_video_url');
    if (!sourceVideoUrl) throw invalidInput('source_video_url is required');
    const source = await fetchInputToFile(ctx, sourceVideoUrl, 'source_video_url', { maxBytes: MAX_SOURCE_BYTES });
    await requireVideo(ctx, source);
    const digest = (await sha256OfFile(source.path, ctx.signal)).slice(0, CHARACTER_DIGEST_LENGTH);
    const id = `char_${digest}`;
    const name = readString(input, 'name') ?? stem(readString(input, 'source_video_name')) ?? 'Character';
    // A copy of our own: the client's URL may expire before the character is used.
    const kept = await ctx.blobs.putFile(source.path, source.contentType, source.extension);
    await rememberCharacter(ctx, id, { name, url: kept.url });
    return {
      done: {
        status: 'completed',
        character: { id, name, sourceVideoUrl },
        provider: PROVIDER_ID,
        model: route.publicName,
      },
    };
  },
};

function stem(fileName: string | undefined): string | undefined {
  return fileName?.replace(/\.[a-z0-9]{2,4}$/i, '') || undefined;
}
