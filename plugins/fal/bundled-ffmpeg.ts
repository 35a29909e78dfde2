/**
 * The two media steps fal results sometimes need, done with the static ffmpeg/ffprobe binaries the gateway
 * ships (@ffmpeg-installer/ffmpeg, @ffprobe-installer/ffprobe): pulling the audio track out of a video, and
 * reading a video's length. Arguments are arrays (no shell), and the child dies with the call's signal.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import ffmpegInstaller from '@ffmpeg-installer/ffmpeg';
import ffprobeInstaller from '@ffprobe-installer/ffprobe';
import { ProviderError } from '../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type FalContext } from './fal-vendor.js';

const run = promisify(execFile);

/**
 * The video's audio track as MP3 (`-vn -acodec libmp3lame`): a file every client plays, whatever codec the
 * video carries. A video without sound is a result we cannot serve, so that fails permanently.
 */
export async function extractAudioTrackMp3(ctx: FalContext, video: Buffer): Promise<Buffer> {
  const dir = await ctx.scratchDir();
  const source = join(dir, 'source-video');
  const target = join(dir, 'audio-track.mp3');
  await writeFile(source, video);
  await tool(ctx, 'ffmpeg', ffmpegInstaller.path, ['-hide_banner', '-nostdin', '-loglevel', 'error', '-y', '-i', source, '-vn', '-acodec', 'libmp3lame', target]);
  return readFile(target);
}

/** The container's duration in seconds. */
export async function videoDurationSeconds(ctx: FalContext, video: Buffer): Promise<number> {
  const source = join(await ctx.scratchDir(), 'probed-video');
  await writeFile(source, video);
  const stdout = await tool(ctx, 'ffprobe', ffprobeInstaller.path, ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=noprint_wrappers=1:nokey=1', source]);
  const seconds = Number.parseFloat(stdout.trim());
  if (!Number.isFinite(seconds) || seconds < 0) throw permanent(`ffprobe could not read the length of the video (${stdout.trim() || 'no output'})`);
  return seconds;
}

async function tool(ctx: FalContext, name: string, binary: string, args: string[]): Promise<string> {
  try {
    return (await run(binary, args, { signal: ctx.signal, maxBuffer: 1024 * 1024 })).stdout;
  } catch (error) {
    // An abort comes from the kernel (timeout, shutdown), not from the media: the call may be tried again.
    if (ctx.signal.aborted) throw new ProviderError(`${PROVIDER_ID}: ${name} was aborted`, { provider: PROVIDER_ID, retryable: true });
    const stderr = String((error as { stderr?: unknown }).stderr ?? '').trim().split('\n').slice(-3).join(' | ');
    throw permanent(`${name} failed on the fal result: ${stderr || (error as Error).message}`);
  }
}

function permanent(message: string): ProviderError {
  return new ProviderError(`${PROVIDER_ID}: ${message}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'unusable_media' });
}
