/**
 * What the Topaz tests share: credentials, a real small source clip (made once with the SDK's ffmpeg), the
 * hosts the plugin talks to, and interceptors for each step of Topaz's flow with the bodies Topaz documents
 * (https://developer.topazlabs.com/video-api/api-walkthrough and the endpoint references).
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import topazPlugin from '../../../plugins/topaz/index.js';
import { runFfmpeg } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { useNock } from '../../support/vendor-conformance.js';

export const API = 'https://api.topazlabs.com';
export const STORAGE = 'https://videocloud.s3.amazonaws.com';
export const INPUTS = 'https://media.example';
export const KEY = 'tpz_test_key_not_real';
export const CONFIG = { api_key: KEY };
export const OPERATION = 'video.upscale';
export const REQUEST_ID = '0193893a-a2ba-799e-b258-928f02c0f419';
export const SOURCE_URL = `${INPUTS}/inputs/clip.mp4`;
const SIGNED = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc';
export const UPLOAD_URL = `${STORAGE}/${REQUEST_ID}/source.mp4?${SIGNED}&x-id=UploadPart`;
export const DOWNLOAD_URL = `${STORAGE}/${REQUEST_ID}/output.mp4?${SIGNED}`;
export const ETAG = 'ff00a2c854712e4b4765eeefa084baa5';

export interface SourceClips {
  /** 320x180, 2 s, 24 fps H.264 + AAC in MP4: 48 frames. */
  mp4: Buffer;
  /** The same picture in a QuickTime file. */
  mov: Buffer;
}

/** Makes the clips once per suite; ffprobe in the plugin reads them for real. */
export async function makeSourceClips(): Promise<SourceClips> {
  const dir = await mkdtemp(join(tmpdir(), 'mediagate-topaz-test-'));
  try {
    const encode = (file: string) =>
      runFfmpeg([
        '-f', 'lavfi', '-i', 'testsrc=size=320x180:rate=24:duration=2',
        '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest',
        join(dir, file),
      ], { signal: new AbortController().signal });
    await Promise.all([encode('clip.mp4'), encode('clip.mov')]);
    return { mp4: await readFile(join(dir, 'clip.mp4')), mov: await readFile(join(dir, 'clip.mov')) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Registers the hooks of a Topaz suite — no real network, the source clips made once, a fresh harness per
 * test — and returns accessors for the current clips and harness.
 */
export function useTopazSuite(): { clips: () => SourceClips; harness: () => PluginHarness } {
  useNock();
  let clips: SourceClips | undefined;
  let harness: PluginHarness | undefined;
  before(async () => {
    clips = await makeSourceClips();
  });
  beforeEach(async () => {
    harness = await createPluginHarness(topazPlugin, CONFIG);
  });
  afterEach(() => harness?.close());
  const present = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the Topaz suite exists only inside a test');
    return value;
  };
  return { clips: () => present(clips), harness: () => present(harness) };
}

/** Topaz's API with the key required on every call. */
export function topazApi(): nock.Scope {
  return nock(API, { reqheaders: { 'x-api-key': KEY } });
}

/** The client's source video, served as a CDN would. */
export function serveSource(bytes: Buffer, path = '/inputs/clip.mp4', type = 'video/mp4'): nock.Scope {
  return nock(INPUTS).get(path).reply(200, bytes, { 'content-type': type, 'content-length': String(bytes.length) });
}

/** The create answer (create request reference): the id and the cost/time estimates, [low, high]. */
export function created(cost: [number, number] = [2, 3]): Record<string, unknown> {
  return { requestId: REQUEST_ID, estimates: { cost, time: [600, 700] } };
}

/** The accept answer (accept request reference): one signed URL for a source under 500 MB. */
export function accepted(urls: string[] = [UPLOAD_URL]): Record<string, unknown> {
  return { uploadId: 'GDlWC7qIaE6okS41Xf/ktpuS5XzTRabg', urls, message: 'Accepted' };
}

/** A binary request body as nock hands it to a matcher (hex-encoded when it is not text). */
export function bodyBytes(body: unknown): Buffer {
  if (Buffer.isBuffer(body)) return body;
  const text = String(body);
  return /^[0-9a-f]+$/i.test(text) && text.length % 2 === 0 ? Buffer.from(text, 'hex') : Buffer.from(text, 'binary');
}

/**
 * Accept, one PUT of exactly `bytes` to signed storage (with the container's type and WITHOUT the API key),
 * then complete-upload with that part's ETag.
 */
export function expectUpload(bytes: Buffer, contentType = 'video/mp4'): { api: nock.Scope; storage: nock.Scope } {
  const api = topazApi()
    .patch(`/video/${REQUEST_ID}/accept`)
    .reply(200, accepted())
    .patch(`/video/${REQUEST_ID}/complete-upload/`, { uploadResults: [{ partNum: 1, eTag: ETAG }] })
    .reply(202, { message: 'Processing has been queued' });
  const storage = nock(STORAGE, { badheaders: ['x-api-key'], reqheaders: { 'content-type': contentType } })
    .put(`/${REQUEST_ID}/source.mp4`, (body) => bodyBytes(body).equals(bytes))
    .query(true)
    .reply(200, '', { ETag: `"${ETAG}"` });
  return { api, storage };
}

/** A status answer (get request status reference). */
export function statusAnswer(status: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { status, progress: 0, estimates: { cost: [2, 3], time: [600, 700] }, ...extra };
}

export function completeAnswer(cost: [number, number] = [3, 4]): Record<string, unknown> {
  return {
    status: 'complete',
    progress: 100,
    estimates: { cost, time: [600, 700] },
    outputSize: '1843200',
    averageFps: 11.5,
    combinedFps: 23,
    download: { url: DOWNLOAD_URL, expiresIn: 86_400_000, expiresAt: 1_735_689_600_000 },
  };
}
