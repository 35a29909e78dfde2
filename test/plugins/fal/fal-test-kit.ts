/**
 * What the fal tests share: the key, the queue answers as fal documents them
 * (https://fal.ai/docs/documentation/model-apis/inference/queue), one case per operation the plugin serves (its
 * model, its input, the body fal must receive, a documented result and the files behind it), the harness with
 * nock around it, and a real MP4 with a sound track.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import falPlugin from '../../../plugins/fal/index.js';
import { runFfmpeg, type JsonObject, type StatusResult } from '../../../src/kernel/plugin-sdk/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';

export const QUEUE = 'https://queue.fal.run';
export const CDN = 'https://v3b.fal.media';
export const KEY = 'fal-test-key-not-real';
export const CONFIG = { api_key: KEY };
export const REQUEST_ID = '764cabcf-b745-4b3e-ae38-1200304cf45b';

/** The queue with the key as fal reads it: `Authorization: Key <FAL_KEY>`. */
export function falQueue(): nock.Scope {
  return nock(QUEUE, { reqheaders: { authorization: `Key ${KEY}` } });
}

/** The queue URLs of a request, as the submit answer names them (under the app id, not the model id). */
export function queueUrls(appId: string, requestId = REQUEST_ID): { status_url: string; response_url: string; cancel_url: string } {
  const base = `${QUEUE}/${appId}/requests/${requestId}`;
  return { status_url: `${base}/status`, response_url: base, cancel_url: `${base}/cancel` };
}

/** The submit answer (fal docs, "Submit a request"). */
export function submitted(appId: string, requestId = REQUEST_ID): Record<string, unknown> {
  return { status: 'IN_QUEUE', request_id: requestId, ...queueUrls(appId, requestId), queue_position: 0 };
}

export function inQueue(appId: string, position: number): Record<string, unknown> {
  return { status: 'IN_QUEUE', request_id: REQUEST_ID, response_url: queueUrls(appId).response_url, queue_position: position };
}

export function inProgress(appId: string, message = 'Processing...'): Record<string, unknown> {
  return {
    status: 'IN_PROGRESS',
    request_id: REQUEST_ID,
    response_url: queueUrls(appId).response_url,
    logs: [{ message, level: 'INFO', source: 'USER', timestamp: '2026-08-01T10:00:00.000Z' }],
  };
}

export function completed(appId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { status: 'COMPLETED', request_id: REQUEST_ID, response_url: queueUrls(appId).response_url, logs: [], metrics: { inference_time: 12.5 }, ...extra };
}

/** One operation of the plugin as a client reaches it. */
export interface FalOperationCase {
  name: string;
  operation: string;
  model?: string;
  /** What we submit to (the full model id) and poll under (its app id). */
  modelId: string;
  appId: string;
  input: JsonObject;
  /** The body fal must receive for `input`. */
  body: JsonObject;
  /** A documented result body. */
  result(): Record<string, unknown>;
  /** Serves the files the result points at. */
  serveFiles(): Promise<void>;
}

export const BYTES = {
  captioned: Buffer.from('\x00\x00\x00\x18ftypmp42 captioned video bytes'),
  upscaled: Buffer.from('\x00\x00\x00\x18ftypmp42 upscaled video bytes'),
};

export const CASES: FalOperationCase[] = [
  {
    name: 'subtitles.generate (fal-ai/auto-caption)',
    operation: 'subtitles.generate',
    modelId: 'fal-ai/auto-caption',
    appId: 'fal-ai/auto-caption',
    input: {
      video_url: 'https://example.com/inputs/talk.mp4',
      duration: 3,
      file_name: 'talk.mp4',
      content_type: 'video/mp4',
      subtitle_settings: { font: 'Georgia', fontSize: 32.4, color: '#FFFFFF', strokeColor: '#000000', strokeWidth: 2 },
    },
    body: { video_url: 'https://example.com/inputs/talk.mp4', top_align: 'bottom', txt_font: 'Georgia', font_size: 32, txt_color: '#FFFFFF', stroke_width: 2 },
    result: () => ({ video_url: `${CDN}/files/b/koala/captioned.mp4` }),
    async serveFiles() {
      nock(CDN).get('/files/b/koala/captioned.mp4').reply(200, BYTES.captioned, { 'content-type': 'application/octet-stream' });
    },
  },
  {
    name: 'soundfx.generate video_context (mirelo-ai/sfx-v1.5/video-to-video)',
    operation: 'soundfx.generate',
    model: 'video_context',
    modelId: 'mirelo-ai/sfx-v1.5/video-to-video',
    appId: 'mirelo-ai/sfx-v1.5',
    input: { mode: 'video_context', video_url: 'https://example.com/inputs/door.mp4', prompt: 'a wooden door creaking open', negative_tags: 'music', duration_seconds: 4, seed: 42 },
    body: { video_url: 'https://example.com/inputs/door.mp4', text_prompt: 'a wooden door creaking open', duration: 4, seed: 42 },
    result: () => ({
      video: [
        { url: `${CDN}/files/b/zebra/sample-1.mp4`, content_type: 'video/mp4', file_name: 'sample-1.mp4', file_size: 1024 },
        { url: `${CDN}/files/b/zebra/sample-2.mp4`, content_type: 'video/mp4', file_name: 'sample-2.mp4', file_size: 1024 },
      ],
    }),
    async serveFiles() {
      nock(CDN).get('/files/b/zebra/sample-1.mp4').reply(200, await videoWithSound(), { 'content-type': 'video/mp4' });
    },
  },
  {
    name: 'video.upscale (fal-ai/bytedance-upscaler/upscale/video)',
    operation: 'video.upscale',
    modelId: 'fal-ai/bytedance-upscaler/upscale/video',
    appId: 'fal-ai/bytedance-upscaler',
    input: { video_url: 'https://example.com/inputs/clip.mp4', duration_seconds: 2, model: 'bytedance-upscaler', target_resolution: '2k' },
    body: { video_url: 'https://example.com/inputs/clip.mp4', target_resolution: '2k' },
    result: () => ({ video: { url: `${CDN}/files/b/lion/upscaled.mp4`, content_type: 'video/mp4', file_name: 'upscaled.mp4', file_size: 4096 }, duration: 2.5 }),
    async serveFiles() {
      nock(CDN).get('/files/b/lion/upscaled.mp4').reply(200, BYTES.upscaled, { 'content-type': 'video/mp4' });
    },
  },
];

export function caseOf(operation: string): FalOperationCase {
  const found = CASES.find((entry) => entry.operation === operation);
  if (!found) throw new Error(`no fal case for ${operation}`);
  return found;
}

/**
 * Registers the hooks of a fal suite (no real network; interceptors dropped after each test) and returns the
 * suite's harness. One harness serves the suite: the tests that open its breaker make their own.
 */
export function useFalHarness(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  let harness: PluginHarness | undefined;
  before(async () => {
    nock.disableNetConnect();
    harness = await createPluginHarness(falPlugin, CONFIG, breaker);
  });
  beforeEach(() => {
    if (harness) harness.sleeps.length = 0;
  });
  afterEach(() => nock.cleanAll());
  after(async () => {
    nock.enableNetConnect();
    await harness?.close();
  });
  return () => {
    if (!harness) throw new Error('the fal harness exists only inside a suite');
    return harness;
  };
}

/** The output of a poll that must have finished. */
export function doneOutput(result: StatusResult): JsonObject {
  if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
  return result.done;
}

let soundedVideo: Promise<Buffer> | undefined;

/** A real 1 s 160x120 H.264 MP4 with a 440 Hz AAC tone, made once per run with the SDK's ffmpeg.
 * `-t 1` rather than `-shortest`: the AAC encoder's priming would otherwise make the container 1.024 s long. */
export function videoWithSound(): Promise<Buffer> {
  soundedVideo ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mediagate-fal-fixture-'));
    try {
      const file = join(dir, 'sounded.mp4');
      await runFfmpeg([
        '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=1',
        '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1',
        '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-t', '1', file,
      ], { signal: AbortSignal.timeout(30_000) });
      return await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return soundedVideo;
}
