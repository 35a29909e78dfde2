/**
 * What the ElevenLabs tests share: the key, the vendor host with the key required on every call, audio
 * as the vendor serves it, and a harness around the real plugin.
 */
import { expect } from 'chai';
import nock from 'nock';
import elevenlabs from '../../../plugins/elevenlabs/index.js';
import { ProviderError, type JsonObject, type StartResult } from '../../../src/kernel/plugin-sdk/index.js';
import type { BreakerSettings } from '../../../src/kernel/plugins/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
export { failure } from '../../support/vendor-conformance.js';

export const API = 'https://api.elevenlabs.io';
export const API_KEY = 'xi-test-key-not-real';
export const HOSTED_MP3 = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.mp3$/;
export const GEORGE = 'JBFqnCBsd6RMkjVDRZzb';

/** An MP3 as the vendor streams it: an ID3v2 tag, then MPEG-1 Layer III frame headers. */
export const MP3 = Buffer.concat([
  Buffer.from('ID3', 'latin1'),
  Buffer.from([0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]),
  Buffer.from([0xff, 0xfb, 0x90, 0x64]),
  Buffer.alloc(413, 0x55),
  Buffer.from([0xff, 0xfb, 0x90, 0x64]),
  Buffer.alloc(413, 0xaa),
]);

export const AUDIO_HEADERS = { 'content-type': 'audio/mpeg', 'request-id': 'a3f1c2d4e5b6978800112233445566ff' };

/** The vendor host; a request without our key does not match. */
export function elevenLabsApi(): nock.Scope {
  return nock(API, { reqheaders: { 'xi-api-key': API_KEY, 'content-type': 'application/json' } });
}

export function elevenLabsHarness(breaker: Partial<BreakerSettings> = {}): Promise<PluginHarness> {
  return createPluginHarness(elevenlabs, { api_key: API_KEY }, breaker);
}

export function useNock(): void {
  before(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  after(() => nock.enableNetConnect());
}

/** Nock for the suite and a fresh harness (and breaker) per test; call the returned function inside a test. */
export function harnessPerTest(breaker: Partial<BreakerSettings> = {}): () => PluginHarness {
  useNock();
  let harness: PluginHarness | undefined;
  beforeEach(async () => {
    harness = await elevenLabsHarness(breaker);
  });
  afterEach(() => harness?.close());
  return () => harness!;
}

export function finished(result: StartResult): JsonObject {
  if (!('done' in result)) throw new Error(`expected a finished output, got task ${result.task.taskId}`);
  return result.done;
}

/** The output names our hosted MP3, which holds exactly the vendor's bytes, and satisfies the manifest. */
export async function expectHostedMp3(harness: PluginHarness, operation: string, output: JsonObject): Promise<void> {
  expect(output.audio_url).to.match(HOSTED_MP3);
  expect((await harness.hostedBytes(String(output.audio_url))).equals(MP3)).to.equal(true);
  expect(harness.checkOutput(operation, output)).to.deep.equal([]);
}
