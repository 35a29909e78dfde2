/**
 * `POST /v1/videos/characters` (https://developers.openai.com/api/reference/resources/videos/methods/create_character):
 * partner2.character.create. Multipart: `video` (the source clip as a file) and `name` (1-80 characters).
 * Answers at once with `{id: "char_…", name, created_at}`, so `start` returns the finished output; the id
 * then goes into partner2.video.generate_with_characters.
 */
import { contentTypeForKey, extensionForContentType, pick, ProviderError, requireField, type JsonObject, type JsonValue, type RoutedModel, type StartResult } from '../../src/kernel/plugin-sdk/index.js';
import { partner2Http, PROVIDER_ID, type Partner2Context, type Partner2Handler } from './partner2-vendor.js';

const PATH = 'v1/videos/characters';

/**
 * The spec's limit for character sources. fetchInput refuses a larger file from its Content-Length before
 * reading it (and stops reading once a file without one passes the limit), so no more is ever held in memory.
 */
const MAX_SOURCE_BYTES = 100 * 1024 * 1024;

/** Sources are "short MP4s" (OpenAI's Sora skill, references/video-api.md): the type when nothing better is known. */
const DEFAULT_VIDEO_TYPE = 'video/mp4';

export const characterCreate: Partner2Handler = {
  async start(input: JsonObject, ctx: Partner2Context, route: RoutedModel): Promise<StartResult> {
    const sourceVideoUrl = String(input.source_video_url);
    const form = new FormData();
    form.append('name', String(input.name));
    form.append('video', await sourceVideo(ctx, sourceVideoUrl, input.source_video_name));
    const { data } = await partner2Http(ctx).request({ method: 'POST', path: PATH, body: form });
    const id = requireField<string>(data, 'id', PROVIDER_ID);
    // `name` is optional in the answer (openai-python `VideoCreateCharacterResponse`); ours is what was sent.
    const vendorName = pick(data, 'name');
    const name = typeof vendorName === 'string' && vendorName !== '' ? vendorName : String(input.name);
    return { done: { status: 'completed', character: { id, name, sourceVideoUrl }, provider: PROVIDER_ID, model: route.publicName } };
  },
};

/**
 * The source clip as an upload. Whatever keeps it from being read (missing, unreachable, too large) fails the
 * request with that reason: the spec promises "must be fetchable by the service and at most 100 MB", and a
 * source host's outage is no fault of the vendor's, so it must not count against the vendor's circuit breaker.
 */
async function sourceVideo(ctx: Partner2Context, url: string, fileName: JsonValue | undefined): Promise<File> {
  let source: { bytes: Buffer; contentType: string };
  try {
    source = await ctx.blobs.fetchInput(url, { maxBytes: MAX_SOURCE_BYTES });
  } catch (error) {
    throw new ProviderError(`${PROVIDER_ID}: the source video cannot be used (at most ${MAX_SOURCE_BYTES / 1024 / 1024} MB, fetchable by the service): ${(error as Error).message}`, {
      provider: PROVIDER_ID,
      retryable: false,
      vendorCode: 'source_video_unavailable',
    });
  }
  const name = typeof fileName === 'string' && fileName.trim() !== '' ? fileName.trim() : undefined;
  // The vendor goes by the file's media type and name; a CDN's octet-stream says neither.
  const type = [source.contentType, name ? contentTypeForKey(name) : ''].find((candidate) => candidate.startsWith('video/')) ?? DEFAULT_VIDEO_TYPE;
  // A view on the fetched bytes, not a copy: up to 100 MB is held once.
  const bytes = new Uint8Array(source.bytes.buffer as ArrayBuffer, source.bytes.byteOffset, source.bytes.byteLength);
  return new File([bytes], name ?? `source.${extensionForContentType(type)}`, { type });
}
