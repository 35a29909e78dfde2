/**
 * How long and what shape a client's source video is, measured before anything is sent: Wan's clip continuation
 * takes the length of the whole output (first clip included), so the length of the first clip decides what to
 * ask for. The clip is streamed to the call's scratch folder and read with the SDK's ffprobe wrapper; a file that
 * is no video is the client's fault (permanent), an abort is not (retryable).
 *
 * Measuring a client's video with client-safe errors is not DashScope's business: it is a candidate for the
 * plugin SDK (topaz measures its sources the same way).
 */
import { join } from 'node:path';
import { MediaToolError, probeMedia, ProviderError, unsupportedInput, type MediaProbe } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type DashScopeContext } from './dashscope-vendor.js';

/** Wan 2.7 takes first clips of up to 100 MB (MP4 or MOV). */
export const FIRST_CLIP_MAX_BYTES = 100 * 1024 * 1024;

export interface SourceClip {
  durationSeconds: number;
  width: number;
  height: number;
}

export async function measureSourceClip(ctx: DashScopeContext, url: string, field: string): Promise<SourceClip> {
  const path = join(await ctx.scratchDir(), 'source-clip');
  await ctx.blobs.fetchInputToFile(url, path, { maxBytes: FIRST_CLIP_MAX_BYTES, field });
  let probe: MediaProbe;
  try {
    probe = await probeMedia(path, ctx.signal);
  } catch (error) {
    if (error instanceof MediaToolError && error.retryable) throw new ProviderError(`${PROVIDER_ID}: measuring ${field} was aborted`, { provider: PROVIDER_ID, retryable: true });
    // ffprobe's lines name our scratch folder: they go to the log, not to the client.
    ctx.log.warn({ requestId: ctx.requestId, detail: error instanceof MediaToolError ? error.detail : String(error) }, `${PROVIDER_ID}: ${field} not readable`);
    throw unsupportedInput(PROVIDER_ID, `${field} could not be decoded as video`);
  }
  const stream = probe.video;
  if (!stream?.width || !stream.height) throw unsupportedInput(PROVIDER_ID, `${field} has no video stream`);
  const durationSeconds = stream.durationSeconds && stream.durationSeconds > 0 ? stream.durationSeconds : probe.durationSeconds;
  if (!(durationSeconds > 0)) throw unsupportedInput(PROVIDER_ID, `the duration of ${field} cannot be read`);
  return { durationSeconds, width: stream.width, height: stream.height };
}
