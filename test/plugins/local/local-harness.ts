/**
 * Drives the local plugin the way the kernel does (operation handler, PluginContext, routed model)
 * against a fake blob store holding real fixture media, and inspects what it produced.
 */
import { join } from 'node:path';
import type { JsonObject, RoutedModel } from '../../../src/kernel/plugin-sdk/index.js';
import localPlugin, { type LocalConfig } from '../../../plugins/local/index.js';
import { decodeWav, type PcmAudio } from '../../../plugins/local/audio/pcm.js';
import { probeMedia, runFfmpegToBuffer, type MediaProbe } from '../../../src/kernel/plugin-sdk/index.js';
import { createFakePluginContext, type FakePluginContext } from '../../support/fake-plugin-context.js';
import { createMediaFixtures, type MediaFixtures } from './media-fixtures.js';

export interface FixtureUrls {
  image: string;
  portrait: string;
  video: string;
  silentVideo: string;
  tone: string;
  notMedia: string;
}

export interface LocalHarness {
  ctx: FakePluginContext<LocalConfig>;
  fixtures: MediaFixtures;
  urls: FixtureUrls;
  /** Calls the operation's `start` and returns its finished output. */
  run(operation: string, input: JsonObject, route?: Partial<RoutedModel>): Promise<JsonObject>;
  probe(url: string): Promise<MediaProbe>;
  pathOf(url: string): string;
  /** Decodes any hosted audio (or a video's audio) to 16-bit PCM. */
  decodeAudio(url: string): Promise<PcmAudio>;
  cleanup(): Promise<void>;
}

export const TEST_ROUTE: RoutedModel = { model: 'local-test', vendorModel: 'local', publicName: 'local-test' };

export async function createLocalHarness(config: LocalConfig = {}): Promise<LocalHarness> {
  const fixtures = await createMediaFixtures();
  // Each harness keeps its own library: ids recorded by one test run never answer another's.
  const ctx = await createFakePluginContext<LocalConfig>({ config: { libraryDir: join(fixtures.dir, 'library'), ...config } });
  const urls: FixtureUrls = {
    image: await ctx.upload(fixtures.imagePng, 'image/png'),
    portrait: await ctx.upload(fixtures.portraitJpeg, 'image/jpeg'),
    video: await ctx.upload(fixtures.videoWithAudio, 'video/mp4'),
    silentVideo: await ctx.upload(fixtures.silentVideo, 'video/mp4'),
    tone: await ctx.upload(fixtures.toneMp3, 'audio/mpeg'),
    notMedia: await ctx.upload(fixtures.notMedia, 'video/mp4'),
  };
  return {
    ctx,
    fixtures,
    urls,
    async run(operation, input, route) {
      const handler = localPlugin.operations[operation];
      if (!handler) throw new Error(`local plugin has no ${operation}`);
      const result = await handler.start(input, { ...ctx, operation }, { ...TEST_ROUTE, ...route });
      if (!('done' in result)) throw new Error(`${operation} returned a task instead of a finished output`);
      return result.done;
    },
    probe: (url) => probeMedia(ctx.pathOf(url), ctx.signal),
    pathOf: (url) => ctx.pathOf(url),
    async decodeAudio(url) {
      return decodeWav(await runFfmpegToBuffer(['-i', ctx.pathOf(url), '-vn', '-f', 'wav', '-acodec', 'pcm_s16le', 'pipe:1'], { signal: ctx.signal }));
    },
    async cleanup() {
      await ctx.cleanup();
      await fixtures.cleanup();
    },
  };
}

/** Root-mean-square level of the first channel: ~0 for silence. */
export function rms(audio: PcmAudio): number {
  const [samples] = audio.channels;
  let sum = 0;
  for (const sample of samples) sum += sample * sample;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

export const HOSTED_URL = /^http:\/\/fake\.local\/files\/.+/;
export const LOCAL_TASK_ID = /^local_[0-9a-f]{16}$/;
