/**
 * How every ElevenLabs call fails, run against each endpoint the plugin uses: a vendor 4xx is permanent with
 * the vendor's message, a 429 waits for Retry-After, a 5xx burst opens the breaker, and a 2xx without the
 * audio is a permanent "malformed response".
 */
import { expect } from 'chai';
import nock from 'nock';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { AUDIO_HEADERS, elevenLabsApi, failure, finished, GEORGE, harnessPerTest, MP3 } from './elevenlabs-test-kit.js';

interface VendorCall {
  name: string;
  operation: string;
  model: string;
  input: JsonObject;
  path: string;
  /** A documented success answer. */
  success: { body: Buffer | JsonObject; headers: Record<string, string> };
  /** A 2xx that lacks the result. */
  malformed: { body: Buffer | JsonObject; headers: Record<string, string> };
  malformedMessage: string;
}

const CALLS: VendorCall[] = [
  {
    name: 'narration (text-to-speech)',
    operation: 'narration.generate',
    model: 'eleven_multilingual_v2',
    input: { text: 'Welcome to the demo.' },
    path: `/v1/text-to-speech/${GEORGE}`,
    success: { body: MP3, headers: AUDIO_HEADERS },
    malformed: { body: Buffer.alloc(0), headers: { 'content-type': 'audio/mpeg' } },
    malformedMessage: `elevenlabs: malformed response: POST /v1/text-to-speech/${GEORGE} returned 0 bytes of audio/mpeg instead of audio`,
  },
  {
    name: 'narration (with-timestamps)',
    operation: 'narration.generate',
    model: 'eleven_multilingual_v2',
    input: { text: 'Hi!', include_timestamps: true },
    path: `/v1/text-to-speech/${GEORGE}/with-timestamps`,
    success: {
      body: { audio_base64: MP3.toString('base64'), alignment: { characters: ['H', 'i', '!'], character_start_times_seconds: [0, 0.1, 0.2], character_end_times_seconds: [0.1, 0.2, 0.3] } },
      headers: { 'content-type': 'application/json' },
    },
    malformed: { body: { alignment: null }, headers: { 'content-type': 'application/json' } },
    malformedMessage: 'elevenlabs: malformed response: audio_base64 is missing or not a string',
  },
  {
    name: 'sound effect',
    operation: 'soundfx.generate',
    model: 'one_off',
    input: { prompt: 'glass shattering on a tiled floor', duration_seconds: 2 },
    path: '/v1/sound-generation',
    success: { body: MP3, headers: AUDIO_HEADERS },
    malformed: { body: {}, headers: { 'content-type': 'application/json' } },
    malformedMessage: 'elevenlabs: malformed response: POST /v1/sound-generation returned 2 bytes of application/json instead of audio',
  },
  {
    name: 'music',
    operation: 'music.generate',
    model: 'music_v2',
    input: { prompt: 'a calm lo-fi beat', provider: 'elevenlabs', model: 'music_v2', duration_seconds: 10 },
    path: '/v1/music',
    success: { body: MP3, headers: AUDIO_HEADERS },
    malformed: { body: Buffer.alloc(0), headers: {} },
    malformedMessage: 'elevenlabs: malformed response: POST /v1/music returned 0 bytes of untyped content instead of audio',
  },
];

describe('elevenlabs plugin: vendor failures', () => {
  for (const call of CALLS) {
    describe(call.name, () => {
      const harness = harnessPerTest({ volume_threshold: 2 });

      const vendor = () => elevenLabsApi().post(call.path).query({ output_format: 'mp3_44100_128' });
      const start = () => harness().start(call.operation, call.input, call.model);

      it('turns a vendor 4xx into a permanent error carrying the vendor message, without retrying', async () => {
        const scope = vendor().reply(400, {
          detail: {
            type: 'validation_error',
            code: 'invalid_parameters',
            message: 'The text is too long for this model.',
            status: 'invalid_parameters',
            request_id: '3c807fc4c3a1705f9638ecc764a91c01',
            param: 'text',
          },
        });

        const error = await failure(start());

        expect(scope.isDone()).to.equal(true);
        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal(`elevenlabs: The text is too long for this model. (param text) (HTTP 400 on POST ${call.path})`);
        expect(error.details).to.deep.include({ provider: 'elevenlabs', vendorStatus: 400, vendorCode: 'invalid_parameters' });
        expect(harness().sleeps).to.deep.equal([]);
        expect(harness().breakerState()).to.equal('closed');
      });

      it('waits out a 429 for its Retry-After and then succeeds', async () => {
        const scope = vendor()
          .reply(429, { detail: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'Too many requests.' } }, { 'retry-after': '7' })
          .post(call.path)
          .query({ output_format: 'mp3_44100_128' })
          .reply(200, call.success.body, call.success.headers);

        const result = await start();

        expect(scope.isDone()).to.equal(true);
        expect(harness().sleeps).to.deep.equal([7000]);
        expect(harness().checkOutput(call.operation, finished(result))).to.deep.equal([]);
      });

      it('opens the breaker on a burst of 503s, then fails fast without calling the vendor', async () => {
        const scope = vendor().times(6).reply(503, { detail: { type: 'service_unavailable', code: 'service_unavailable', message: 'Service temporarily unavailable.' } });

        for (let attempt = 0; attempt < 2; attempt += 1) {
          const error = await failure(start());
          expect(error.retryable).to.equal(true);
          expect(error.details.vendorStatus).to.equal(503);
          expect(error.message).to.contain('Service temporarily unavailable.');
        }
        expect(scope.isDone()).to.equal(true);
        expect(harness().sleeps).to.have.length(4);
        expect(harness().breakerState()).to.equal('open');

        const unreached = vendor().reply(200, call.success.body, call.success.headers);
        const fastFailure = await failure(start());
        expect(fastFailure.retryable).to.equal(true);
        expect(fastFailure.details.vendorCode).to.equal('EOPENBREAKER');
        expect(unreached.isDone()).to.equal(false);
        expect(nock.pendingMocks()).to.have.length(1);
      });

      it('fails permanently with a clear message when a 2xx lacks the audio', async () => {
        const scope = vendor().reply(200, call.malformed.body, call.malformed.headers);

        const error = await failure(start());

        expect(scope.isDone()).to.equal(true);
        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal(call.malformedMessage);
        expect(harness().sleeps).to.deep.equal([]);
      });
    });
  }
});
