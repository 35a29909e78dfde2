/**
 * What Topaz must be told about the source before it takes the upload: container, byte size, duration, frame
 * rate, frame count and resolution (create request, https://developer.topazlabs.com/video-api/api-walkthrough).
 * Clients send only `duration_seconds`, and only as a pricing hint, so the rest is read from the file itself
 * with the SDK's ffprobe wrapper.
 */
import { stat } from 'node:fs/promises';
import { MediaToolError, probeMedia, ProviderError, type MediaProbe } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type TopazContext } from './topaz-vendor.js';

/** The containers Topaz takes (`source.container` enum of the create request). */
export type TopazContainer = 'mp4' | 'mov' | 'mkv';

export interface FrameSize {
  width: number;
  height: number;
}

export interface SourceVideo {
  container: TopazContainer;
  /** Bytes. */
  size: number;
  durationSeconds: number;
  /** Frames per second as ffprobe measures it (e.g. 29.97). */
  frameRate: number;
  frameCount: number;
  resolution: FrameSize;
}

/** Reads the source file at `path` (fetched there whole, never into memory: it may run to gigabytes). */
export async function probeSource(ctx: TopazContext, path: string): Promise<SourceVideo> {
  let probe: MediaProbe;
  try {
    probe = await probeMedia(path, ctx.signal);
  } catch (error) {
    // Aborted by the kernel (timeout, shutdown): the input is not at fault, try again later.
    if (error instanceof MediaToolError && error.retryable) throw new ProviderError('topaz: probing the source video was aborted', { provider: PROVIDER_ID, retryable: true });
    // ffprobe's lines name our scratch folder: they go to the log, not to the client.
    ctx.log.warn({ requestId: ctx.requestId, detail: error instanceof MediaToolError ? error.detail : String(error) }, 'topaz: source video not readable');
    throw unusable('video_url could not be decoded as video');
  }
  const stream = probe.video;
  if (!stream?.width || !stream.height) throw unusable('video_url has no video stream');
  const frameRate = stream.fps;
  const durationSeconds = probe.durationSeconds > 0 ? probe.durationSeconds : stream.durationSeconds;
  if (!frameRate || !durationSeconds) throw unusable('the frame rate or duration of video_url cannot be read');
  return {
    container: containerOf(probe.formatName, probe.majorBrand),
    size: (await stat(path)).size,
    durationSeconds,
    frameRate,
    // nb_frames is in the header of MP4/MOV; Matroska does not store it, so it is derived.
    frameCount: stream.frameCount ?? Math.max(1, Math.round(durationSeconds * frameRate)),
    resolution: { width: stream.width, height: stream.height },
  };
}

/**
 * ffprobe names MP4 and QuickTime alike (`mov,mp4,m4a,3gp,3g2,mj2`); the `qt  ` brand tells QuickTime apart.
 * WebM is a Matroska profile, so it goes as `mkv`.
 */
function containerOf(formatName: string, majorBrand: string | undefined): TopazContainer {
  const formats = formatName.split(',');
  if (formats.includes('matroska') || formats.includes('webm')) return 'mkv';
  if (formats.includes('mov') || formats.includes('mp4')) return majorBrand?.trim() === 'qt' ? 'mov' : 'mp4';
  throw unusable(`Topaz takes MP4, MOV or MKV sources; video_url is ${formatName || 'of an unknown format'}`);
}

/** Something wrong with the client's file: retrying would fetch the same file. */
function unusable(message: string): ProviderError {
  return new ProviderError(`topaz: ${message}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unsupported_input' });
}
