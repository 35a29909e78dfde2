/**
 * What Topaz must be told about the source before it takes the upload: container, byte size, duration, frame
 * rate, frame count and resolution (create request, https://developer.topazlabs.com/video-api/api-walkthrough).
 * Clients send only `duration_seconds`, and only as a pricing hint, so the rest is read from the file itself
 * with the static ffprobe of @ffprobe-installer (arguments as an array, never a shell string).
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { ProviderError } from '../../src/kernel/plugin-sdk/index.js';
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

interface ProbeOutput {
  format?: { format_name?: string; duration?: string; tags?: { major_brand?: string } };
  streams?: { codec_type?: string; width?: number; height?: number; avg_frame_rate?: string; r_frame_rate?: string; nb_frames?: string; duration?: string }[];
}

export async function probeSource(ctx: TopazContext, bytes: Buffer): Promise<SourceVideo> {
  const path = join(await ctx.scratchDir(), 'source');
  await writeFile(path, bytes);
  let parsed: ProbeOutput;
  try {
    const { stdout } = await promisify(execFile)(
      ffprobeInstaller.path,
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-select_streams', 'v:0', path],
      { signal: ctx.signal, maxBuffer: 1024 * 1024 },
    );
    parsed = JSON.parse(stdout) as ProbeOutput;
  } catch (error) {
    // Aborted by the kernel (timeout, shutdown): the input is not at fault, try again later.
    if (ctx.signal.aborted) throw new ProviderError('topaz: probing the source video was aborted', { provider: PROVIDER_ID, retryable: true });
    throw unusable(`video_url is not a video ffprobe can read (${firstLine(error)})`);
  }
  const stream = parsed.streams?.find((candidate) => candidate.codec_type === 'video');
  if (!stream?.width || !stream.height) throw unusable('video_url has no video stream');
  const frameRate = rate(stream.avg_frame_rate) || rate(stream.r_frame_rate);
  const durationSeconds = positive(parsed.format?.duration) ?? positive(stream.duration);
  if (!frameRate || !durationSeconds) throw unusable('the frame rate or duration of video_url cannot be read');
  return {
    container: containerOf(parsed.format?.format_name ?? '', parsed.format?.tags?.major_brand),
    size: bytes.length,
    durationSeconds,
    frameRate,
    // nb_frames is in the header of MP4/MOV; Matroska does not store it, so it is derived.
    frameCount: positive(stream.nb_frames) ?? Math.max(1, Math.round(durationSeconds * frameRate)),
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

function rate(value: string | undefined): number {
  const [numerator, denominator] = (value ?? '').split('/').map(Number);
  return numerator > 0 && denominator > 0 ? numerator / denominator : 0;
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

function firstLine(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const text = typeof stderr === 'string' && stderr.trim() !== '' ? stderr : error instanceof Error ? error.message : String(error);
  return text.trim().split('\n')[0].slice(0, 200);
}

/** Something wrong with the client's file: retrying would fetch the same file. */
function unusable(message: string): ProviderError {
  return new ProviderError(`topaz: ${message}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unsupported_input' });
}
