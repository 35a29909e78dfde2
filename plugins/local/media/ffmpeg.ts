/**
 * Runs the static ffmpeg/ffprobe binaries shipped by @ffmpeg-installer and @ffprobe-installer.
 * Arguments are always an array (never a shell string) so prompts and file names cannot inject
 * options; the child is killed when the kernel aborts the call.
 */
import { spawn } from 'node:child_process';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID } from '../local-config.js';

export const FFMPEG_PATH = ffmpegInstaller.path;
export const FFPROBE_PATH = ffprobeInstaller.path;

/** Only the tail is kept: ffmpeg can write megabytes of warnings on a broken input. */
const STDERR_TAIL_CHARS = 4000;

interface ToolRun {
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  signal: AbortSignal;
  /** Working folder, so filter arguments can name scratch files without path escaping. */
  cwd?: string;
}

export async function runFfmpeg(args: string[], options: RunOptions): Promise<void> {
  await runTool(FFMPEG_PATH, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...args], options, 'ffmpeg');
}

export interface VideoStreamInfo {
  codec: string;
  /** e.g. `yuv420p`. */
  pixelFormat: string;
  width: number;
  height: number;
  fps: number;
}

export interface AudioStreamInfo {
  codec: string;
  sampleRate: number;
  channels: number;
}

export interface MediaProbe {
  formatName: string;
  /** Container duration; 0 for still images. */
  durationSeconds: number;
  video?: VideoStreamInfo;
  audio?: AudioStreamInfo;
}

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string };
  streams?: FfprobeStream[];
}

/** Throws a non-retryable ProviderError when the file is not media ffprobe can read. */
export async function probeMedia(path: string, signal: AbortSignal): Promise<MediaProbe> {
  const run = await runTool(
    FFPROBE_PATH,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
    { signal },
    'ffprobe',
  );
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(run.stdout) as FfprobeOutput;
  } catch {
    throw new ProviderError('ffprobe returned unreadable output', { provider: PROVIDER_ID, retryable: false });
  }
  const streams = parsed.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const formatDuration = Number.parseFloat(parsed.format?.duration ?? '');
  const streamDuration = Math.max(
    ...streams.map((stream) => Number.parseFloat(stream.duration ?? '0')).filter(Number.isFinite),
    0,
  );
  return {
    formatName: parsed.format?.format_name ?? 'unknown',
    durationSeconds: Number.isFinite(formatDuration) ? formatDuration : streamDuration,
    video: video
      ? {
          codec: video.codec_name ?? 'unknown',
          pixelFormat: video.pix_fmt ?? 'unknown',
          width: video.width ?? 0,
          height: video.height ?? 0,
          fps: parseFrameRate(video.avg_frame_rate) || parseFrameRate(video.r_frame_rate),
        }
      : undefined,
    audio: audio
      ? {
          codec: audio.codec_name ?? 'unknown',
          sampleRate: Number.parseInt(audio.sample_rate ?? '0', 10),
          channels: audio.channels ?? 0,
        }
      : undefined,
  };
}

function parseFrameRate(value: string | undefined): number {
  if (!value) return 0;
  const [numerator, denominator] = value.split('/').map(Number);
  if (!numerator || !denominator) return 0;
  return numerator / denominator;
}

/** Escapes a value for use inside an ffmpeg filtergraph option (`key=value`). */
export function filterValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/:/g, '\\:').replace(/([[\],;])/g, '\\$1');
}

function runTool(binary: string, args: string[], options: RunOptions, name: string): Promise<ToolRun> {
  if (options.signal.aborted) return Promise.reject(abortedError(name));
  return new Promise<ToolRun>((resolve, reject) => {
    const child = spawn(binary, args, { cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_CHARS);
    });
    const onAbort = (): void => {
      child.kill('SIGKILL');
    };
    options.signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) => {
      options.signal.removeEventListener('abort', onAbort);
      reject(new ProviderError(`${name} could not start: ${error.message}`, { provider: PROVIDER_ID, retryable: false }));
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) {
        reject(abortedError(name));
      } else if (code === 0) {
        resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderr });
      } else {
        const detail = lastLines(stderr) || `exit code ${code}`;
        reject(new ProviderError(`${name} failed: ${detail}`, { provider: PROVIDER_ID, retryable: false }));
      }
    });
  });
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' | ');
}

/** An abort comes from the kernel (timeout, shutdown), not from the input, so it may be retried. */
function abortedError(name: string): ProviderError {
  return new ProviderError(`${name} was aborted`, { provider: PROVIDER_ID, retryable: true });
}
