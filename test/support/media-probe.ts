/** Decodes downloaded media the way a client would check it: the SDK's ffprobe for audio/video, sharp for images, glTF readers for models. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { NodeIO } from '@gltf-transform/core';
import sharp from 'sharp';
import { probeMedia as probeWithGateway } from '../../src/kernel/plugin-sdk/index.js';

export interface Download {
  bytes: Buffer;
  contentType: string;
  contentLength: number;
}

export async function download(url: string): Promise<Download> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const bytes = Buffer.from(await response.arrayBuffer());
  return { bytes, contentType: response.headers.get('content-type') ?? '', contentLength: Number(response.headers.get('content-length')) };
}

export interface MediaInfo {
  formatName: string;
  durationSeconds: number;
  video?: { codec: string; width: number; height: number };
  audio?: { codec: string };
}

export async function probeMedia(bytes: Buffer): Promise<MediaInfo> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-probe-'));
  try {
    const file = join(dir, 'media');
    await writeFile(file, bytes);
    const probe = await probeWithGateway(file, new AbortController().signal);
    return {
      formatName: probe.formatName,
      durationSeconds: probe.durationSeconds,
      video: probe.video ? { codec: probe.video.codec, width: probe.video.width, height: probe.video.height } : undefined,
      audio: probe.audio ? { codec: probe.audio.codec } : undefined,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function probeImage(bytes: Buffer): Promise<{ format: string; width: number; height: number }> {
  const metadata = await sharp(bytes).metadata();
  return { format: metadata.format!, width: metadata.width!, height: metadata.height! };
}

/** Parses a binary glTF fully; returns its mesh count. */
export async function readGlb(bytes: Buffer): Promise<{ meshes: number }> {
  if (bytes.toString('latin1', 0, 4) !== 'glTF' || bytes.readUInt32LE(4) !== 2) throw new Error('not a glTF 2.0 binary');
  const document = await new NodeIO().readBinary(new Uint8Array(bytes));
  return { meshes: document.getRoot().listMeshes().length };
}

/** SPZ: a gzip stream whose header starts with the magic 0x5053474e ("NGSP") and version 2+. */
export function readSpzHeader(bytes: Buffer): { version: number; points: number } {
  const raw = gunzipSync(bytes);
  if (raw.readUInt32LE(0) !== 0x5053474e) throw new Error('not an SPZ file');
  return { version: raw.readUInt32LE(4), points: raw.readUInt32LE(8) };
}
