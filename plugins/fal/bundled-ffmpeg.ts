/**
 * The two media steps fal results sometimes need, done with the SDK's ffmpeg wrapper: pulling the audio track
 * out of a video, and reading a video's length. What the tools print stays in the log; the error says which
 * step failed.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MediaToolError, probeMedia, ProviderError, runFfmpeg } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type FalContext } from './fal-vendor.js';

/**
 * The video's audio track as MP3 (`-vn -acodec libmp3lame`): a file every client plays, whatever codec the
 * video carries. A video without sound is a result we cannot serve, so that fails permanently.
 */
export async function extractAudioTrackMp3(ctx: FalContext, video: Buffer): Promise<Buffer> {
  const dir = await ctx.scratchDir();
  const source = join(dir, 'source-video');
  const target = join(dir, 'audio-track.mp3');
  await writeFile(source, video);
  try {
    await runFfmpeg(['-i', source, '-vn', '-acodec', 'libmp3lame', target], { signal: ctx.signal });
  } catch (error) {
    throw toolFailure(ctx, error, 'the audio track of the fal result could not be extracted');
  }
  return readFile(target);
}

/** The container's duration in seconds. */
export async function videoDurationSeconds(ctx: FalContext, video: Buffer): Promise<number> {
  const source = join(await ctx.scratchDir(), 'probed-video');
  await writeFile(source, video);
  let seconds: number;
  try {
    seconds = (await probeMedia(source, ctx.signal)).durationSeconds;
  } catch (error) {
    throw toolFailure(ctx, error, 'the length of the video could not be read');
  }
  if (!Number.isFinite(seconds) || seconds <= 0) throw permanent('the length of the video could not be read');
  return seconds;
}

function toolFailure(ctx: FalContext, error: unknown, message: string): ProviderError {
  const detail = error instanceof MediaToolError ? `${error.message}: ${error.detail}` : String(error);
  ctx.log.warn({ requestId: ctx.requestId, detail }, `${PROVIDER_ID}: ${message}`);
  // An abort comes from the kernel (timeout, shutdown), not from the media: the call may be tried again.
  if (error instanceof MediaToolError && error.retryable) return new ProviderError(`${PROVIDER_ID}: media processing was interrupted`, { provider: PROVIDER_ID, retryable: true });
  return permanent(message);
}

function permanent(message: string): ProviderError {
  return new ProviderError(`${PROVIDER_ID}: ${message}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unusable_media' });
}
