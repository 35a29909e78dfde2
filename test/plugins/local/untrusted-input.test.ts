/**
 * Client media is untrusted: a playlist disguised as a video must not make ffmpeg open the files or URLs it
 * lists, and a file that does not decode must fail with a message that names the field and nothing of the
 * server (no scratch path, no ffprobe line).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { ProviderError, runFfmpeg } from '../../../src/kernel/plugin-sdk/index.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';
import { rejectionOf } from './media-expectations.js';

describe('local plugin: untrusted input media', () => {
  let harness: LocalHarness;
  let server: Server;
  let serverUrl: string;
  const received: string[] = [];
  /** A real MPEG-TS clip on the server's disk: what a playlist would try to pull into the output. */
  let secretSegment: string;

  before(async () => {
    harness = await createLocalHarness();
    server = createServer((request, response) => {
      received.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    secretSegment = join(harness.fixtures.dir, 'secret.ts');
    await runFfmpeg(['-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=2', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', secretSegment], {
      signal: new AbortController().signal,
    });
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await harness.cleanup();
  });
  beforeEach(() => {
    received.length = 0;
  });

  async function uploadPlaylist(name: string, segment: string, contentType: string): Promise<string> {
    const path = join(harness.fixtures.dir, name);
    await writeFile(path, ['#EXTM3U', '#EXT-X-TARGETDURATION:10', '#EXTINF:2,', segment, '#EXT-X-ENDLIST', ''].join('\n'));
    return harness.ctx.upload(path, contentType);
  }

  async function expectInputError(operation: string, input: Record<string, string>, message: string): Promise<void> {
    const error = await rejectionOf(harness.run(operation, input));
    expect(error).to.be.instanceOf(ProviderError);
    expect({ message: (error as ProviderError).message, retryable: (error as ProviderError).retryable }).to.deep.equal({ message, retryable: false });
  }

  it('refuses an HLS playlist served as video/mp4 that points at a local segment, and renders nothing', async () => {
    const url = await uploadPlaylist('local-playlist.mp4', secretSegment, 'video/mp4');
    const hostedBefore = harness.ctx.hosted.length;
    await expectInputError('video.upscale', { video_url: url }, 'video_url could not be decoded as video');
    expect(harness.ctx.hosted.length, 'no output hosted').to.equal(hostedBefore);
  });

  it('refuses a .m3u8 playlist that points at a local file URL', async () => {
    const url = await uploadPlaylist('local-playlist.m3u8', `file://${secretSegment}`, 'application/vnd.apple.mpegurl');
    await expectInputError('video.upscale', { video_url: url }, 'video_url could not be decoded as video');
  });

  it('never opens the URL an HLS playlist lists (a loopback server receives nothing)', async () => {
    const disguised = await uploadPlaylist('remote-playlist.mp4', `${serverUrl}/segment.ts`, 'video/mp4');
    const plain = await uploadPlaylist('remote-playlist.m3u8', `${serverUrl}/segment.ts`, 'application/vnd.apple.mpegurl');
    await expectInputError('video.upscale', { video_url: disguised }, 'video_url could not be decoded as video');
    await expectInputError('lipsync.generate', { video_url: harness.urls.video, audio_url: plain }, 'audio_url could not be decoded as audio');
    expect(received).to.deep.equal([]);
  });

  it('refuses an ffconcat list pointing at another file', async () => {
    const path = join(harness.fixtures.dir, 'list.mp4');
    await writeFile(path, `ffconcat version 1.0\nfile ${secretSegment}\n`);
    await expectInputError('subtitles.generate', { video_url: await harness.ctx.upload(path, 'video/mp4') }, 'video_url could not be decoded as video');
  });

  it('names only the field when an input does not decode: no path, no tool output', async () => {
    await expectInputError('video.upscale', { video_url: harness.urls.notMedia }, 'video_url could not be decoded as video');
    await expectInputError('image.edit', { prompt: 'x', image_url: harness.urls.notMedia }, 'image_url could not be decoded as an image');
  });
});
