import { expect } from 'chai';
import nock from 'nock';
import elevenlabs from '../../../plugins/elevenlabs/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { API_KEY, AUDIO_HEADERS, elevenLabsApi, expectHostedMp3, finished, GEORGE, harnessPerTest, MP3 } from './elevenlabs-test-kit.js';

/** The alignment of "Hi!" shaped like the vendor's documented with-timestamps example. */
const ALIGNMENT = {
  characters: ['H', 'i', '!'],
  character_start_times_seconds: [0, 0.186, 0.279],
  character_end_times_seconds: [0.186, 0.279, 0.348],
};

describe('elevenlabs plugin: narration.generate', () => {
  const harness = harnessPerTest();

  it('maps every field onto POST /v1/text-to-speech/{voice_id} (tone only for eleven_v3) and hosts the MP3 without a task id', async () => {
    const scope = elevenLabsApi()
      .post('/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM', {
        text: 'Guten Morgen! Heute ist ein schöner Tag.',
        model_id: 'eleven_flash_v2_5',
        language_code: 'de',
        seed: 4294967295,
        previous_text: 'Hallo.',
        next_text: 'Bis bald.',
        apply_text_normalization: 'on',
        pronunciation_dictionary_locators: [{ pronunciation_dictionary_id: 'dict_a' }, { pronunciation_dictionary_id: 'dict_b' }],
        voice_settings: { stability: 0.4, similarity_boost: 0.8, speed: 1.1 },
      })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    const result = await harness().start(
      'narration.generate',
      {
        text: 'Guten Morgen! Heute ist ein schöner Tag.',
        voice_id: '21m00Tcm4TlvDq8ikWAM',
        model_id: 'eleven_flash_v2_5',
        language_code: 'de',
        seed: 4294967295,
        previous_text: 'Hallo.',
        next_text: 'Bis bald.',
        apply_text_normalization: 'on',
        pronunciation_dictionary_ids: ['dict_a', 'dict_b'],
        stability: 0.4,
        similarity_boost: 0.8,
        speed: 1.1,
        tone: 'cheerful',
      },
      'eleven_flash_v2_5',
    );

    expect(scope.isDone()).to.equal(true);
    const output = finished(result);
    expect(output).to.deep.equal({
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: output.audio_url,
      provider: 'elevenlabs',
      model: 'eleven_flash_v2_5',
    });
    await expectHostedMp3(harness(), 'narration.generate', output);
  });

  it('speaks with the premade voice George when no voice_id is given', async () => {
    const scope = elevenLabsApi()
      .post(`/v1/text-to-speech/${GEORGE}`, { text: 'Welcome to the demo.', model_id: 'eleven_multilingual_v2' })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    const result = await harness().start('narration.generate', { text: 'Welcome to the demo.' });

    expect(scope.isDone()).to.equal(true);
    expect(result).to.have.nested.property('done.model', 'eleven_multilingual_v2');
  });

  it('gives eleven_v3 the tone as a leading audio tag, stripped of brackets', async () => {
    const scope = elevenLabsApi()
      .post(`/v1/text-to-speech/${GEORGE}`, { text: '[excited whisper] The results are in.', model_id: 'eleven_v3' })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    await harness().start('narration.generate', { text: 'The results are in.', tone: ' excited] [whisper ', model_id: 'eleven_v3' }, 'eleven_v3');

    expect(scope.isDone()).to.equal(true);
  });

  it('calls /with-timestamps for include_timestamps, hosts the decoded audio and copies the alignment', async () => {
    const scope = elevenLabsApi()
      .post(`/v1/text-to-speech/${GEORGE}/with-timestamps`, { text: 'Hi!', model_id: 'eleven_turbo_v2_5', voice_settings: { speed: 0.9 } })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, { audio_base64: MP3.toString('base64'), alignment: ALIGNMENT, normalized_alignment: ALIGNMENT }, { 'content-type': 'application/json' });

    const result = await harness().start('narration.generate', { text: 'Hi!', include_timestamps: true, speed: 0.9, model_id: 'eleven_turbo_v2_5' }, 'eleven_turbo_v2_5');

    expect(scope.isDone()).to.equal(true);
    const output = finished(result);
    expect(output).to.deep.equal({
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: output.audio_url,
      provider: 'elevenlabs',
      model: 'eleven_turbo_v2_5',
      alignment: ALIGNMENT,
    });
    await expectHostedMp3(harness(), 'narration.generate', output);
  });

  it('uses the configured base_url, default voice and output format', async () => {
    const custom = await createPluginHarness(elevenlabs, {
      api_key: API_KEY,
      base_url: 'https://eu.residency.elevenlabs.io',
      default_voice_id: 'EXAVITQu4vr4xnSDxMaL',
      output_format: 'mp3_22050_32',
    });
    const scope = nock('https://eu.residency.elevenlabs.io', { reqheaders: { 'xi-api-key': API_KEY } })
      .post('/v1/text-to-speech/EXAVITQu4vr4xnSDxMaL', { text: 'Hello.', model_id: 'eleven_multilingual_v2' })
      .query({ output_format: 'mp3_22050_32' })
      .reply(200, MP3, { 'content-type': 'audio/mpeg' });
    try {
      await custom.start('narration.generate', { text: 'Hello.' });
      expect(scope.isDone()).to.equal(true);
    } finally {
      await custom.close();
    }
  });
});
