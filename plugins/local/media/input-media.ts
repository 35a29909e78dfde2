/**
 * Reads media URLs given as input into the call's scratch folder and checks they decode. Anything
 * wrong with a client's input is a permanent failure: retrying would fetch the same bad file.
 * An input stays a file: consumers hand its path to sharp or ffmpeg, which read it themselves, so a large
 * source never sits in memory and no read blocks the event loop.
 */
import { rename } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, resolveLocalConfig, type LocalContext } from '../local-config.js';
import { mediaFailure, probeMedia, type AudioStreamInfo, type MediaProbe, type VideoStreamInfo } from './ffmpeg.js';

export interface FetchedInput {
  /** Input field the URL came from, for error messages. */
  field: string;
  url: string;
  /** The fetched file in the call's scratch folder (removed by the kernel after the call). */
  path: string;
  contentType: string;
  extension: string;
}

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/quicktime': 'mov',
  'video/webm': 'webm',
  'audio/mpeg': 'mp3',
  'audio/mp3': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/aac': 'aac',
  'audio/mp4': 'm4a',
  'audio/ogg': 'ogg',
};

let inputCounter = 0;

export function invalidInput(message: string): ProviderError {
  return new ProviderError(message, { provider: PROVIDER_ID, retryable: false });
}

export async function fetchInputToFile(
  ctx: LocalContext,
  url: string,
  field: string,
  options: { maxBytes?: number } = {},
): Promise<FetchedInput> {
  const maxBytes = options.maxBytes ?? resolveLocalConfig(ctx.config).maxInputBytes;
  inputCounter += 1;
  const stem = join(await ctx.scratchDir(), `input-${inputCounter}-${field.replace(/[^a-z0-9_]/gi, '_')}`);
  let fetched: { contentType: string };
  try {
    // Streamed to disk: a source video may be hundreds of MB.
    fetched = await ctx.blobs.fetchInputToFile(url, `${stem}.download`, { maxBytes, field });
  } catch (error) {
    // The kernel's own classification (e.g. a transient 503) wins; anything else is the input's fault.
    if (ProviderError.is(error)) throw error;
    throw invalidInput(`could not fetch ${field} (${url}): ${error instanceof Error ? error.message : String(error)}`);
  }
  const contentType = (fetched.contentType || 'application/octet-stream').split(';')[0].trim().toLowerCase();
  const extension = EXTENSIONS[contentType] ?? extensionFromUrl(url) ?? 'bin';
  const path = `${stem}.${extension}`;
  await rename(`${stem}.download`, path);
  return { field, url, path, contentType, extension };
}

export function isImageInput(input: FetchedInput): boolean {
  return input.contentType.startsWith('image/') || /^(png|jpe?g|webp|gif|avif|tiff?)$/i.test(input.extension);
}

export interface DecodedVideo extends MediaProbe {
  video: VideoStreamInfo;
}

export async function requireVideo(ctx: LocalContext, input: FetchedInput): Promise<DecodedVideo> {
  const probe = await probeOrFail(ctx, input, 'video');
  if (!probe.video || probe.durationSeconds <= 0) throw invalidInput(`${input.field} is not a decodable video`);
  return { ...probe, video: probe.video };
}

export interface DecodedAudio extends MediaProbe {
  audio: AudioStreamInfo;
}

export async function requireAudio(ctx: LocalContext, input: FetchedInput): Promise<DecodedAudio> {
  const probe = await probeOrFail(ctx, input, 'audio');
  if (!probe.audio || probe.durationSeconds <= 0) throw invalidInput(`${input.field} has no decodable audio`);
  return { ...probe, audio: probe.audio };
}

export interface DecodedImage {
  /** As displayed, after the EXIF orientation. */
  width: number;
  height: number;
}

export async function requireImage(input: FetchedInput): Promise<DecodedImage> {
  try {
    const metadata = await sharp(input.path).metadata();
    // Sizes as displayed: renderers apply the EXIF orientation (`rotate()`) before using the image.
    const { width, height } = metadata.autoOrient ?? metadata;
    if (!width || !height) throw new Error('no dimensions');
    return { width, height };
  } catch (error) {
    throw mediaFailure(error, `${input.field} could not be decoded as an image`);
  }
}

/**
 * The client reads only which field failed and as what: ffprobe's lines and our scratch paths stay on the
 * error's `cause` for the log.
 */
async function probeOrFail(ctx: LocalContext, input: FetchedInput, kind: 'video' | 'audio'): Promise<MediaProbe> {
  try {
    return await probeMedia(input.path, ctx.signal);
  } catch (error) {
    throw mediaFailure(error, `${input.field} could not be decoded as ${kind}`);
  }
}

function extensionFromUrl(url: string): string | undefined {
  const match = /\.([a-z0-9]{2,5})(?:$|[?#])/i.exec(url);
  return match ? match[1].toLowerCase() : undefined;
}
