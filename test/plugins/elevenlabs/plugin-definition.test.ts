import { expect } from 'chai';
import { MalformedVendorResponse } from '../../../src/kernel/plugin-sdk/index.js';
import elevenlabs from '../../../plugins/elevenlabs/index.js';
import { describeElevenLabsError } from '../../../plugins/elevenlabs/elevenlabs-api.js';
import { readTimestampedSpeech } from '../../../plugins/elevenlabs/endpoints/text-to-speech-with-timestamps.js';
import { PluginRegistry } from '../../../src/kernel/plugins/index.js';
import { API_KEY } from './elevenlabs-test-kit.js';

const BREAKER = { timeout_ms: 1000, error_threshold_percentage: 50, reset_timeout_ms: 1000, volume_threshold: 3, rolling_count_timeout_ms: 1000 };

describe('elevenlabs plugin: definition', () => {
  it('serves narration, one-off sound effects and music, all finished in start', () => {
    expect(elevenlabs.id).to.equal('elevenlabs');
    expect(Object.keys(elevenlabs.operations).sort()).to.deep.equal(['music.generate', 'narration.generate', 'soundfx.generate']);
    for (const handler of Object.values(elevenlabs.operations)) {
      expect(handler.status).to.equal(undefined);
      expect(handler.cancel).to.equal(undefined);
    }
  });

  it('is enabled only with an api_key, and loads without one (the router then skips it)', () => {
    const registry = new PluginRegistry(BREAKER);
    registry.register(elevenlabs, {});
    expect(registry.breakerStates().elevenlabs.enabled).to.equal(false);
    registry.shutdown();
    expect(elevenlabs.isEnabled({})).to.equal(false);
    expect(elevenlabs.isEnabled({ api_key: '' })).to.equal(false);
    expect(elevenlabs.isEnabled({ api_key: API_KEY })).to.equal(true);
  });

  it('fills the documented defaults and refuses settings it cannot honour', () => {
    const registry = new PluginRegistry(BREAKER);
    registry.register(elevenlabs, { api_key: API_KEY });
    expect(registry.get('elevenlabs')!.config).to.deep.equal({
      api_key: API_KEY,
      base_url: 'https://api.elevenlabs.io',
      output_format: 'mp3_44100_128',
      default_voice_id: 'JBFqnCBsd6RMkjVDRZzb',
    });
    expect(registry.breakerStates().elevenlabs.enabled).to.equal(true);
    registry.shutdown();

    const strict = new PluginRegistry(BREAKER);
    expect(() => strict.register(elevenlabs, { api_key: API_KEY, output_format: 'pcm_44100', timeout_ms: 10, voice: 'x' })).to.throw(
      /providers\.elevenlabs must NOT have additional properties[\s\S]*providers\.elevenlabs\.timeout_ms must be >= 1000[\s\S]*providers\.elevenlabs\.output_format must match pattern/,
    );
    strict.shutdown();
  });
});

describe('elevenlabs plugin: error bodies', () => {
  it('reads the current envelope, preferring code and naming the parameter', () => {
    expect(
      describeElevenLabsError({
        detail: { type: 'validation_error', code: 'invalid_parameters', message: 'Bad model.', status: 'invalid_parameters', request_id: 'r1', param: 'model_id' },
      }),
    ).to.deep.equal({ message: 'Bad model. (param model_id)', code: 'invalid_parameters' });
  });

  it('reads the legacy envelope, whose status is the code', () => {
    expect(describeElevenLabsError({ detail: { status: 'quota_exceeded', message: 'You have insufficient quota to complete this request' } })).to.deep.equal({
      message: 'You have insufficient quota to complete this request',
      code: 'quota_exceeded',
    });
  });

  it('reads a bare detail string and the 422 validation list', () => {
    expect(describeElevenLabsError({ detail: 'Not Found' })).to.deep.equal({ message: 'Not Found' });
    expect(
      describeElevenLabsError({
        detail: [
          { loc: ['body', 'voice_settings', 'speed'], msg: 'Input should be less than or equal to 1.2', type: 'less_than_equal' },
          { loc: ['query', 'output_format'], msg: 'Input should be a valid format', type: 'enum' },
        ],
      }),
    ).to.deep.equal({
      message: 'voice_settings.speed: Input should be less than or equal to 1.2; query.output_format: Input should be a valid format',
      code: 'validation_error',
    });
  });

  it('says nothing for bodies it does not know, so the HTTP client falls back to the raw text', () => {
    expect(describeElevenLabsError('<html>Bad Gateway</html>')).to.deep.equal({});
    expect(describeElevenLabsError({ error: 'x' })).to.deep.equal({});
    expect(describeElevenLabsError({ detail: [] })).to.deep.equal({});
  });
});

describe('elevenlabs plugin: with-timestamps answers', () => {
  it('treats an answer without alignment as malformed: the client asked for timing', () => {
    expect(() => readTimestampedSpeech({ audio_base64: 'SUQz', alignment: null })).to.throw(
      MalformedVendorResponse,
      'elevenlabs: malformed response: alignment.characters is missing or not a array',
    );
  });
});
