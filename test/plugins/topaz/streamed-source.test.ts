/**
 * A source may run to gigabytes, so it never sits in memory: the plugin streams `video_url` to a scratch file
 * (never `ctx.blobs.fetchInput`), probes that file, and PUTs each upload part read from it, a fresh read for
 * every attempt. Topaz's parts are at least 500 MB; the part tests pass `uploadSource` a small floor so a small
 * file makes several parts.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';
import nock from 'nock';
import topazPlugin from '../../../plugins/topaz/index.js';
import { topazHttp, type TopazConfig, type TopazContext, type TopazHandler } from '../../../plugins/topaz/topaz-vendor.js';
import { uploadSource } from '../../../plugins/topaz/upload-source.js';
import { videoUpscale } from '../../../plugins/topaz/video-upscale.js';
import { definePlugin, type PluginBlobs } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { useNock } from '../../support/vendor-conformance.js';
import {
  accepted,
  bodyBytes,
  CONFIG,
  created,
  expectUpload,
  makeSourceClips,
  OPERATION,
  REQUEST_ID,
  serveSource,
  SOURCE_URL,
  STORAGE,
  topazApi,
  type SourceClips,
} from './topaz-test-kit.js';

/** The Topaz plugin with its video.upscale handler swapped, run through the real harness (real ctx). */
function withHandler(handler: TopazHandler) {
  return definePlugin<TopazConfig>({ ...topazPlugin, operations: { [OPERATION]: handler } });
}

/** Blobs whose in-memory read fails the test: whatever the plugin still reads that way shows up. */
function withoutInMemoryFetch(blobs: PluginBlobs): PluginBlobs {
  return {
    ...blobs,
    fetchInput: async (url) => {
      throw new Error(`read into memory: ${url}`);
    },
  };
}

const PART_FLOOR = 16_384;

/** Signed URL of upload part `n`, as Topaz signs one per part. */
function partUrl(n: number): string {
  return `${STORAGE}/${REQUEST_ID}/source.mp4?partNumber=${n}&X-Amz-Signature=sig${n}`;
}

interface ReceivedPart {
  partNumber: string;
  contentLength: string | undefined;
  body: Buffer;
}

/** Signed storage taking PUTs of parts, in the order they arrive; `answers` are its status codes, in turn. */
function storageTakingParts(received: ReceivedPart[], answers: number[]): nock.Scope {
  const scope = nock(STORAGE, { badheaders: ['x-api-key'] });
  for (const status of answers) {
    scope
      .put(`/${REQUEST_ID}/source.mp4`)
      .query(true)
      .reply(function (uri, body) {
        const partNumber = new URL(uri, STORAGE).searchParams.get('partNumber') ?? '?';
        const length = this.req.headers['content-length'];
        received.push({ partNumber, contentLength: Array.isArray(length) ? length.join() : length, body: bodyBytes(body) });
        return status === 200 ? [200, '', { ETag: `"etag-${partNumber}"` }] : [status, '<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>'];
      });
  }
  return scope;
}

describe('topaz plugin: the source is streamed through disk, never held in memory', () => {
  useNock();
  let clips: SourceClips;
  let harness: PluginHarness | undefined;
  let dir: string;

  before(async () => {
    clips = await makeSourceClips();
  });
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'mediagate-topaz-parts-'));
  });
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `uploadSource` for a file of `size` random bytes with the small part floor; returns the file's bytes. */
  async function uploadRandomFile(size: number): Promise<Buffer> {
    const bytes = randomBytes(size);
    const path = join(dir, 'source.mp4');
    await writeFile(path, bytes);
    harness = await createPluginHarness(
      withHandler({
        async start(_input, ctx: TopazContext) {
          await uploadSource(ctx, topazHttp(ctx), REQUEST_ID, { path, size, container: 'mp4' }, PART_FLOOR);
          return { done: {} };
        },
      }),
      CONFIG,
    );
    await harness.start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus');
    return bytes;
  }

  it('fetches, probes and uploads the source without ever reading it into memory', async () => {
    harness = await createPluginHarness(withHandler({ ...videoUpscale, start: (input, ctx, route) => videoUpscale.start(input, { ...ctx, blobs: withoutInMemoryFetch(ctx.blobs) }, route) }), CONFIG);
    serveSource(clips.mp4);
    const create = topazApi()
      .post('/video/', (body: { source?: { size?: number } }) => body.source?.size === clips.mp4.length)
      .reply(200, created());
    const { api, storage } = expectUpload(clips.mp4);

    const result = await harness.start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus');

    expect(result).to.deep.equal({ task: { taskId: REQUEST_ID, state: { source_seconds: 2 } } });
    expect({ create: create.isDone(), api: api.isDone(), storage: storage.isDone() }).to.deep.equal({ create: true, api: true, storage: true });
  });

  it('uploads a source larger than one part as consecutive slices of the file, in order, each with its length', async () => {
    const api = topazApi()
      .patch(`/video/${REQUEST_ID}/accept`)
      .reply(200, accepted([partUrl(1), partUrl(2), partUrl(3)]))
      .patch(`/video/${REQUEST_ID}/complete-upload/`, {
        uploadResults: [
          { partNum: 1, eTag: 'etag-1' },
          { partNum: 2, eTag: 'etag-2' },
          { partNum: 3, eTag: 'etag-3' },
        ],
      })
      .reply(202, { message: 'Processing has been queued' });
    const received: ReceivedPart[] = [];
    storageTakingParts(received, [200, 200, 200]);

    const bytes = await uploadRandomFile(2 * PART_FLOOR + 7_000);

    expect(received).to.deep.equal([
      { partNumber: '1', contentLength: String(PART_FLOOR), body: bytes.subarray(0, PART_FLOOR) },
      { partNumber: '2', contentLength: String(PART_FLOOR), body: bytes.subarray(PART_FLOOR, 2 * PART_FLOOR) },
      { partNumber: '3', contentLength: '7000', body: bytes.subarray(2 * PART_FLOOR) },
    ]);
    expect(Buffer.concat(received.map((part) => part.body)).equals(bytes)).to.equal(true);
    expect(api.isDone()).to.equal(true);
  });

  it('re-reads a part from its start when storage asks for the PUT again', async () => {
    topazApi()
      .patch(`/video/${REQUEST_ID}/accept`)
      .reply(200, accepted([partUrl(1), partUrl(2)]))
      .patch(`/video/${REQUEST_ID}/complete-upload/`, { uploadResults: [{ partNum: 1, eTag: 'etag-1' }, { partNum: 2, eTag: 'etag-2' }] })
      .reply(202, { message: 'Processing has been queued' });
    const received: ReceivedPart[] = [];
    // Part 1 in one go; part 2 refused once (503 SlowDown), then taken.
    storageTakingParts(received, [200, 503, 200]);

    const bytes = await uploadRandomFile(PART_FLOOR + 5_000);

    const second = { partNumber: '2', contentLength: '5000', body: bytes.subarray(PART_FLOOR) };
    expect(received).to.deep.equal([{ partNumber: '1', contentLength: String(PART_FLOOR), body: bytes.subarray(0, PART_FLOOR) }, second, second]);
    expect(harness?.sleeps).to.have.length(1);
  });
});
