/**
 * The one ffmpeg/ffprobe wrapper every plugin uses. Inputs are untrusted client or vendor files, so:
 * - arguments are arrays, never a shell string (prompts and file names cannot inject options);
 * - every input is opened with `-protocol_whitelist file,pipe` and `-format_whitelist` (the demuxers below),
 *   so a playlist disguised as a video (HLS, ffconcat...) cannot make ffmpeg open other files or URLs;
 * - stderr is kept for logs only: errors carry it in `detail`, never in `message`, which may reach a client.
 *
 * Which binaries run is decided at start: see media-tool-binaries.ts.
 */
import { spawn } from 'node:child_process';
import { currentMediaTools, type MediaToolName } from './media-tool-binaries.js';

/**
 * Demuxers an input may be read with (ffprobe `format_name` parts). Everything else is refused, notably `hls`
 * and `concat` (they open the files or URLs they list), `tty`, `image2` with patterns aside, subtitles...
 */
export const ALLOWED_INPUT_FORMATS: readonly string[] = [
  'mov', 'mp4', 'm4a', '3gp', '3g2', 'mj2', 'matroska', 'webm', 'mp3', 'wav', 'ogg', 'flac', 'aac',
  'png_pipe', 'jpeg_pipe', 'webp_pipe', 'gif', 'gif_pipe', 'image2',
];

/**
 * Formats only our own code names with `-f` (generated sources and raw PCM on a pipe). None of them can be
 * picked by probing a client's file: they have no content probe, so listing them opens no door.
 */
const GENERATOR_FORMATS = ['lavfi', 's16le', 'f32le'];

const INPUT_GUARD_ARGS = ['-protocol_whitelist', 'file,pipe', '-format_whitelist', [...ALLOWED_INPUT_FORMATS, ...GENERATOR_FORMATS].join(',')];

/** Only the tail is kept: ffmpeg can write megabytes of warnings on a broken input. */
const STDERR_TAIL_CHARS = 4000;

/** Why a media tool call failed. `message` is safe to show; `detail` (stderr, paths) is for logs only. */
export class MediaToolError extends Error {
  override readonly name = 'MediaToolError';
  constructor(
    message: string,
    readonly reason: 'aborted' | 'failed' | 'unsupported-format' | 'unreadable',
    readonly detail: string,
  ) {
    super(message);
  }

  /** An abort comes from the kernel (timeout, shutdown), not from the media, so the call may be retried. */
  get retryable(): boolean {
    return this.reason === 'aborted';
  }
}

export interface MediaRunOptions {
  signal: AbortSignal;
  /** Working folder, so filter arguments can name scratch files without path escaping. */
  cwd?: string;
}

/** Runs ffmpeg quietly and overwriting outputs; each `-i` gets the protocol and format guards. */
export async function runFfmpeg(args: readonly string[], options: MediaRunOptions): Promise<void> {
  const { ffmpeg } = await currentMediaTools();
  await runTool('ffmpeg', ffmpeg.path, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', ...guardInputs(args)], options);
}

/** Like runFfmpeg, but returns what ffmpeg wrote to stdout (`pipe:1` outputs). */
export async function runFfmpegToBuffer(args: readonly string[], options: MediaRunOptions): Promise<Buffer> {
  const { ffmpeg } = await currentMediaTools();
  return (await runTool('ffmpeg', ffmpeg.path, ['-hide_banner', '-nostdin', '-loglevel', 'error', ...guardInputs(args)], options)).stdout;
}

export interface VideoStreamInfo {
  codec: string;
  /** e.g. `yuv420p`. */
  pixelFormat: string;
  width: number;
  height: number;
  fps: number;
  /** From the container header (MP4/MOV); undefined where it is not stored (Matroska). */
  frameCount?: number;
  durationSeconds?: number;
}

export interface AudioStreamInfo {
  codec: string;
  sampleRate: number;
  channels: number;
}

export interface MediaProbe {
  /** ffprobe's demuxer name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  formatName: string;
  /** QuickTime and MP4 share a demuxer; the brand (`qt  `, `isom`...) tells them apart. */
  majorBrand?: string;
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
  nb_frames?: string;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; tags?: { major_brand?: string } };
  streams?: FfprobeStream[];
}

/**
 * Reads a file's container and first video and audio streams. Throws MediaToolError `unsupported-format`
 * when the file is not one of ALLOWED_INPUT_FORMATS (a playlist, a subtitle file...), `unreadable` when it
 * does not decode at all.
 */
export async function probeMedia(path: string, signal: AbortSignal): Promise<MediaProbe> {
  const { ffprobe } = await currentMediaTools();
  let run: ToolRun;
  try {
    run = await runTool('ffprobe', ffprobe.path, ['-v', 'error', ...INPUT_GUARD_ARGS, '-print_format', 'json', '-show_format', '-show_streams', path], { signal });
  } catch (error) {
    if (error instanceof MediaToolError && error.reason === 'failed') throw new MediaToolError('the file could not be decoded', 'unreadable', error.detail);
    throw error;
  }
  let parsed: FfprobeOutput;
  try {
    parsed = JSON.parse(run.stdout.toString('utf8')) as FfprobeOutput;
  } catch {
    throw new MediaToolError('the file could not be decoded', 'unreadable', `ffprobe printed no JSON: ${run.stdout.toString('utf8').slice(0, 200)}`);
  }
  const formatName = parsed.format?.format_name ?? '';
  // The whitelist already kept other demuxers out; this check also holds if a build ignores the option.
  if (!formatName.split(',').some((name) => ALLOWED_INPUT_FORMATS.includes(name))) {
    throw new MediaToolError('the file is not in an accepted media format', 'unsupported-format', `ffprobe format_name: ${formatName || 'none'}`);
  }
  return describeProbe(parsed);
}

function describeProbe(parsed: FfprobeOutput): MediaProbe {
  const streams = parsed.streams ?? [];
  const video = streams.find((stream) => stream.codec_type === 'video');
  const audio = streams.find((stream) => stream.codec_type === 'audio');
  const formatDuration = Number.parseFloat(parsed.format?.duration ?? '');
  const streamDuration = Math.max(...streams.map((stream) => Number.parseFloat(stream.duration ?? '0')).filter(Number.isFinite), 0);
  return {
    formatName: parsed.format?.format_name ?? 'unknown',
    majorBrand: parsed.format?.tags?.major_brand?.trim() || undefined,
    durationSeconds: Number.isFinite(formatDuration) ? formatDuration : streamDuration,
    video: video
      ? {
          codec: video.codec_name ?? 'unknown',
          pixelFormat: video.pix_fmt ?? 'unknown',
          width: video.width ?? 0,
          height: video.height ?? 0,
          fps: parseFrameRate(video.avg_frame_rate) || parseFrameRate(video.r_frame_rate),
          frameCount: positive(video.nb_frames),
          durationSeconds: positive(video.duration),
        }
      : undefined,
    audio: audio
      ? { codec: audio.codec_name ?? 'unknown', sampleRate: Number.parseInt(audio.sample_rate ?? '0', 10), channels: audio.channels ?? 0 }
      : undefined,
  };
}

function parseFrameRate(value: string | undefined): number {
  const [numerator, denominator] = (value ?? '').split('/').map(Number);
  return numerator > 0 && denominator > 0 ? numerator / denominator : 0;
}

function positive(value: string | undefined): number | undefined {
  const number = Number(value);
  return Number.isFinite(number) && number > 0 ? number : undefined;
}

/** Escapes a value for use inside an ffmpeg filtergraph option (`key=value`). */
export function filterValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/:/g, '\\:').replace(/([[\],;])/g, '\\$1');
}

/** Input options apply to the next `-i` only, so the guards go before every one of them. */
function guardInputs(args: readonly string[]): string[] {
  return args.flatMap((arg) => (arg === '-i' ? [...INPUT_GUARD_ARGS, arg] : [arg]));
}

interface ToolRun {
  stdout: Buffer;
  stderr: string;
}

function runTool(name: MediaToolName, binary: string, args: string[], options: MediaRunOptions): Promise<ToolRun> {
  if (options.signal.aborted) return Promise.reject(new MediaToolError(`${name} was aborted`, 'aborted', 'aborted before start'));
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
      reject(new MediaToolError(`${name} could not start`, 'failed', `${binary}: ${error.message}`));
    });
    child.on('close', (code) => {
      options.signal.removeEventListener('abort', onAbort);
      if (options.signal.aborted) reject(new MediaToolError(`${name} was aborted`, 'aborted', 'aborted while running'));
      else if (code === 0) resolve({ stdout: Buffer.concat(stdout), stderr });
      else reject(new MediaToolError(`${name} failed`, 'failed', `exit code ${code}: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
  });
}

