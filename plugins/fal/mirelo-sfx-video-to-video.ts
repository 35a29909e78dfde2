/**
 * soundfx.generate in mode video_context on mirelo-ai/sfx-v1.5/video-to-video: Mirelo designs sound for the
 * video and returns the video with the sound laid in. Fields from fal's schema for the model (fal-js,
 * libs/client/src/types/video/{types,zod}.gen.ts `SfxV15VideoToVideoInput`/`Output`):
 *   video_url, text_prompt, duration (1-10 s, default 10), seed (integer >= 1), num_samples (2-8, default 2),
 *   start_offset -> { video: [ File, ... ] } (one File per sample).
 * Mirelo has no negative prompt, so `negative_tags` is not sent; `title` is ours. We serve the first sample;
 * `num_samples` is left at fal's default because its minimum is 2.
 */
import { mapFields, pick, type FieldMap } from '../../src/kernel/plugin-sdk/index.js';
import { extractAudioTrackMp3 } from './bundled-ffmpeg.js';
import { falFileAt, MP4_VIDEO, storedAs, type FalFile, type MediaKind } from './fal-file.js';
import { falAsset, falQueueHandler } from './fal-queue.js';
import type { FalContext } from './fal-vendor.js';

/** Mirelo's accepted sound length (fal schema: 1 to 10 s); ours allows 0.5 to 30 s, so it is held inside. */
const MIRELO_DURATION = { min: 1, max: 10 };
/** fal's schema wants seed >= 1; ours starts at 0, which is sent as 1 so it stays repeatable. */
const MIRELO_MIN_SEED = 1;

const MP3_AUDIO: MediaKind = { typePrefix: 'audio/', contentType: 'audio/mpeg', extension: 'mp3' };

/** Where the result keeps its files: the sounded video, and audio if a model version ever returns it apart. */
const RESULT_FILES = { video: 'video.0', audio: 'audio.0' };

const SFX_REQUEST_FIELDS: FieldMap = {
  video_url: 'video_url',
  // The description stands in for a missing prompt (manifest: "used as the prompt when prompt is omitted").
  description_prompt: { to: 'text_prompt', transform: (text, input) => (input.prompt === undefined ? text : undefined) },
  prompt: 'text_prompt',
  duration_seconds: { to: 'duration', transform: (seconds) => (typeof seconds === 'number' ? Math.min(MIRELO_DURATION.max, Math.max(MIRELO_DURATION.min, seconds)) : undefined) },
  seed: { to: 'seed', transform: (seed) => (typeof seed === 'number' ? Math.max(MIRELO_MIN_SEED, seed) : undefined) },
};

export const soundfxVideoContext = falQueueHandler({
  request: (input) => mapFields(input, SFX_REQUEST_FIELDS),
  async finish(result, task, ctx, route) {
    const video = falFileAt(result, RESULT_FILES.video);
    const videoType = storedAs(video, MP4_VIDEO);
    // Fetched once (within the blob store's input limit, as any rehost): the same bytes are hosted and, when no
    // audio file came with them, give the audio track.
    const { bytes } = await ctx.blobs.fetchInput(video.url);
    const hostedVideo = await ctx.blobs.put(bytes, videoType.contentType, videoType.extension);
    const audioUrl = await hostAudio(ctx, result, bytes);
    return falAsset('audio', task, route, { audio_url: audioUrl, sfx_video_url: hostedVideo.url, mode: 'video_context' });
  },
});

/**
 * The sound as an audio file. sfx-v1.5/video-to-video returns only the video, so its audio track is extracted
 * with the bundled ffmpeg; an audio file in the result is hosted as it is.
 */
async function hostAudio(ctx: FalContext, result: unknown, video: Buffer): Promise<string> {
  if (pick(result, `${RESULT_FILES.audio}.url`) !== undefined) {
    const audio: FalFile = falFileAt(result, RESULT_FILES.audio);
    return (await ctx.blobs.rehost(audio.url, storedAs(audio, MP3_AUDIO))).url;
  }
  return (await ctx.blobs.put(await extractAudioTrackMp3(ctx, video), MP3_AUDIO.contentType, MP3_AUDIO.extension)).url;
}
