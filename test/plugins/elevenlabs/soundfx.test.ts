import { expect } from 'chai';
import { AUDIO_HEADERS, elevenLabsApi, expectHostedMp3, finished, harnessPerTest, MP3 } from './elevenlabs-test-kit.js';

describe('elevenlabs plugin: soundfx.generate (one_off)', () => {
  const harness = harnessPerTest();

  it('maps the prompt and knobs onto POST /v1/sound-generation and hosts the MP3 under the vendor request id', async () => {
    const scope = elevenLabsApi()
      .post('/v1/sound-generation', {
        text: 'gentle rain on a tin roof',
        duration_seconds: 3,
        prompt_influence: 0.5,
        loop: true,
        model_id: 'eleven_text_to_sound_v2',
      })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, AUDIO_HEADERS);

    const result = await harness().start('soundfx.generate', {
      prompt: 'gentle rain on a tin roof',
      mode: 'one_off',
      title: 'Rain',
      duration_seconds: 3,
      prompt_influence: 0.5,
      loop: true,
      seed: 7,
      negative_tags: 'thunder',
      description_prompt: 'not used while prompt is given',
    });

    expect(scope.isDone()).to.equal(true);
    const output = finished(result);
    expect(output).to.deep.equal({
      task_id: AUDIO_HEADERS['request-id'],
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: output.audio_url,
      provider: 'elevenlabs',
      model: 'eleven_text_to_sound_v2',
      mode: 'one_off',
    });
    await expectHostedMp3(harness(), 'soundfx.generate', output);
  });

  it('sends description_prompt as the text when there is no prompt, and makes up a task id without a request-id header', async () => {
    const scope = elevenLabsApi()
      .post('/v1/sound-generation', { text: 'a wooden door creaking open slowly', model_id: 'eleven_text_to_sound_v2' })
      .query({ output_format: 'mp3_44100_128' })
      .reply(200, MP3, { 'content-type': 'audio/mpeg' });

    const result = await harness().start('soundfx.generate', { description_prompt: 'a wooden door creaking open slowly' });

    expect(scope.isDone()).to.equal(true);
    expect(result).to.have.nested.property('done.task_id').that.matches(/^elevenlabs_[0-9a-f]{16}$/);
  });
});
