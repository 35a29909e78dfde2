import { expect } from 'chai';
import { trackTitle } from '../../../plugins/elevenlabs/operations/music-generate.js';
import { AUDIO_HEADERS, elevenLabsApi, expectHostedMp3, finished, harnessPerTest, MP3 } from './elevenlabs-test-kit.js';

describe('elevenlabs plugin: music.generate (provider B)', () => {
  const harness = harnessPerTest();

  it('maps music_v2 with a generation mode onto POST /v1/music and hosts the track', async () => {
    const scope = elevenLabsApi()
      .post('/v1/music', {
        prompt: 'upbeat synthwave loop with a driving bassline',
        music_length_ms: 3000,
        model_id: 'music_v2',
        force_instrumental: true,
        generation_mode: 'loop',
      })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    const result = await harness().start(
      'music.generate',
      {
        prompt: 'upbeat synthwave loop with a driving bassline',
        provider: 'elevenlabs',
        model: 'music_v2',
        generation_mode: 'loop',
        duration_seconds: 3,
        instrumental: true,
        // The vendor refuses seed together with prompt, so it is not sent.
        seed: 42,
      },
      'music_v2',
    );

    expect(scope.isDone()).to.equal(true);
    const output = finished(result);
    expect(output).to.deep.equal({
      task_id: AUDIO_HEADERS['request-id'],
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: output.audio_url,
      requested_provider: 'elevenlabs',
      provider: 'elevenlabs',
      model: 'music_v2',
      title: 'Upbeat synthwave loop with a driving bassline',
    });
    await expectHostedMp3(harness(), 'music.generate', output);
  });

  it('sends music_v1 with the description prompt and keeps the given title', async () => {
    const scope = elevenLabsApi()
      .post('/v1/music', { prompt: 'a calm lo-fi beat for studying', music_length_ms: 30000, model_id: 'music_v1' })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    const result = await harness().start(
      'music.generate',
      { description_prompt: 'a calm lo-fi beat for studying', provider: 'elevenlabs', model: 'music_v1', duration_seconds: 30, title: 'Study Session' },
      'music_v1',
    );

    expect(scope.isDone()).to.equal(true);
    expect(result).to.have.nested.property('done.title', 'Study Session');
    expect(result).to.have.nested.property('done.model', 'music_v1');
  });

  it('titles an untitled track after the first sentence of its prompt, cut at a word', () => {
    expect(trackTitle({ prompt: 'epic orchestral battle music. Brass and choir.' })).to.equal('Epic orchestral battle music');
    expect(trackTitle({ prompt: 'a slow and very long cinematic piece with strings, piano, soft pads and distant thunder rolling in' })).to.equal(
      'A slow and very long cinematic piece with strings, piano,',
    );
    expect(trackTitle({ prompt: '   ' })).to.equal('Untitled');
    expect(trackTitle({ prompt: 'x', title: '  Morning Light ' })).to.equal('Morning Light');
  });
});
