import { readFile } from 'node:fs/promises';
import { expect } from 'chai';
import { composeMusic } from '../../../plugins/local/audio/music-composer.js';
import { synthesizeSoundEffect } from '../../../plugins/local/audio/sound-effects.js';
import type { PcmAudio } from '../../../plugins/local/audio/pcm.js';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { createLocalHarness, HOSTED_URL, LOCAL_TASK_ID, rms, type LocalHarness } from './local-harness.js';
import { expectH264, expectMp3, rejectionOf } from './media-expectations.js';

/** Jump between the last and the first sample, against the largest jump inside the clip. */
function wrapJump(audio: PcmAudio): { wrap: number; largestInside: number } {
  const [samples] = audio.channels;
  let largestInside = 0;
  for (let index = 1; index < samples.length; index += 1) largestInside = Math.max(largestInside, Math.abs(samples[index] - samples[index - 1]));
  return { wrap: Math.abs(samples[0] - samples[samples.length - 1]), largestInside };
}

describe('local plugin: audio operations', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  describe('music.generate', () => {
    it('composes a 30 s MP3 by default and names it from the prompt', async () => {
      const output = await harness.run('music.generate', { prompt: 'Upbeat synthwave drive at night' });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: output.audio_url,
        requested_provider: 'suno',
        provider: 'local',
        model: 'local-music',
        title: 'Upbeat synthwave drive at night',
      });
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output.audio_url).to.match(HOSTED_URL);
      expectMp3(await harness.probe(String(output.audio_url)), 30);
      expect(rms(await harness.decodeAudio(String(output.audio_url)))).to.be.greaterThan(0.05);
    });

    it('follows duration_seconds, title and provider', async () => {
      const output = await harness.run('music.generate', {
        prompt: 'calm piano',
        title: 'Morning',
        provider: 'elevenlabs',
        model: 'music_v2',
        generation_mode: 'loop',
        duration_seconds: 8,
      });
      expect(output).to.deep.include({ title: 'Morning', requested_provider: 'elevenlabs' });
      expectMp3(await harness.probe(String(output.audio_url)), 8);
    });

    it('writes loops whose end flows into their start', () => {
      const audio = composeMusic({ seed: 7, durationSeconds: 6, mood: 'energetic', loop: true, ambience: false });
      expect(audio.channels[0].length).to.equal(6 * audio.sampleRate);
      const { wrap, largestInside } = wrapJump(audio);
      expect(wrap).to.be.at.most(largestInside);
    });

    it('is deterministic for a prompt', () => {
      const request = { seed: 42, durationSeconds: 3, mood: 'bright' as const, loop: false, ambience: false };
      expect(Buffer.from(composeMusic(request).channels[0].buffer).equals(Buffer.from(composeMusic(request).channels[0].buffer))).to.equal(true);
    });
  });

  describe('narration.generate', () => {
    it('speaks the text as MP3 with no task id', async () => {
      const output = await harness.run('narration.generate', { text: 'Hello there. This narration was spoken offline.', voice_id: 'rachel' });
      expect(output).to.deep.equal({
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: output.audio_url,
        provider: 'local',
        model: 'local-speech',
      });
      const probe = await harness.probe(String(output.audio_url));
      expect(probe.formatName).to.equal('mp3');
      expect(probe.durationSeconds).to.be.within(1.5, 8);
      expect(rms(await harness.decodeAudio(String(output.audio_url)))).to.be.greaterThan(0.02);
    });

    it('speaks longer text for longer and faster with speed', async () => {
      const text = 'The quick brown fox jumps over the lazy dog while the city sleeps under a quiet rain.';
      const normal = await harness.probe(String((await harness.run('narration.generate', { text })).audio_url));
      const fast = await harness.probe(String((await harness.run('narration.generate', { text, speed: 1.6 })).audio_url));
      const short = await harness.probe(String((await harness.run('narration.generate', { text: 'Hi.' })).audio_url));
      expect(fast.durationSeconds).to.be.lessThan(normal.durationSeconds * 0.85);
      expect(short.durationSeconds).to.be.lessThan(normal.durationSeconds / 2);
    });

    it('adds character timestamps spanning the speech', async () => {
      const text = 'Bonjour à tous, ceci est un essai.';
      const output = await harness.run('narration.generate', { text, language_code: 'fr', include_timestamps: true });
      const alignment = output.alignment as { characters: string[]; character_start_times_seconds: number[]; character_end_times_seconds: number[] };
      const duration = (await harness.probe(String(output.audio_url))).durationSeconds;
      expect(alignment.characters.join('')).to.equal(text);
      expect(alignment.character_start_times_seconds).to.have.length(text.length);
      expect(alignment.character_end_times_seconds).to.have.length(text.length);
      const ends = alignment.character_end_times_seconds;
      expect([...ends].sort((a, b) => a - b)).to.deep.equal(ends);
      expect(alignment.character_start_times_seconds[0]).to.be.at.least(0);
      expect(ends[ends.length - 1]).to.be.at.most(duration + 0.05);
    });

    it('falls back to the text language when espeak-ng lacks the requested one', async () => {
      const output = await harness.run('narration.generate', { text: 'Guten Morgen, wie geht es dir?', language_code: 'zz-ZZ' });
      expect((await harness.probe(String(output.audio_url))).durationSeconds).to.be.greaterThan(0.5);
    });
  });

  describe('soundfx.generate', () => {
    it('synthesises a 5 s one-off effect by default', async () => {
      const output = await harness.run('soundfx.generate', { prompt: 'heavy rain on a tin roof' });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: output.audio_url,
        provider: 'local',
        model: 'local-soundfx',
        mode: 'one_off',
      });
      expectMp3(await harness.probe(String(output.audio_url)), 5);
      expect(rms(await harness.decodeAudio(String(output.audio_url)))).to.be.greaterThan(0.02);
    });

    it('lasts duration_seconds and loops seamlessly when asked', async () => {
      const output = await harness.run('soundfx.generate', { prompt: 'wind in the trees', duration_seconds: 3, loop: true });
      expectMp3(await harness.probe(String(output.audio_url)), 3);
      const audio = synthesizeSoundEffect({ prompt: 'wind in the trees', seed: 1, durationSeconds: 3, loop: true });
      const { wrap, largestInside } = wrapJump(audio);
      expect(wrap).to.be.at.most(largestInside);
    });

    it('follows a video: its length by default, and a preview with the effect muxed in', async () => {
      const output = await harness.run('soundfx.generate', { prompt: 'footsteps on gravel', video_url: harness.urls.silentVideo });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: output.audio_url,
        sfx_video_url: output.sfx_video_url,
        provider: 'local',
        model: 'local-soundfx',
        mode: 'video_context',
      });
      expectMp3(await harness.probe(String(output.audio_url)), 1.5);
      const preview = await harness.probe(String(output.sfx_video_url));
      expectH264(preview, { width: 320, height: 180, duration: 1.5 });
      expect(preview.audio?.codec).to.equal('aac');
    });
  });

  describe('lipsync.generate', () => {
    it('lays the audio on the video, looped to the audio length, and reports that length', async () => {
      const output = await harness.run('lipsync.generate', { video_url: harness.urls.silentVideo, audio_url: harness.urls.video });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        audio_url: output.audio_url,
        provider: 'local',
        model: 'local-lipsync',
        // The audio's length, which the lipsync.generate manifest settles on.
        usage: { output_seconds: 2 },
      });
      expect(output.audio_url).to.match(HOSTED_URL);
      expect(output.audio_url).not.to.equal(harness.urls.video);
      // The client's audio is hosted as it came, from its file.
      expect((await readFile(harness.pathOf(String(output.audio_url)))).equals(await readFile(harness.fixtures.videoWithAudio))).to.equal(true);
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 320, height: 180, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('cuts a longer video to a shorter audio', async () => {
      const output = await harness.run('lipsync.generate', { video_url: harness.urls.video, audio_url: harness.urls.tone });
      expectH264(await harness.probe(String(output.video_url)), { width: 320, height: 240, duration: 1.5 });
      // The tone's measured length (its encoder pads it a little past 1.5 s).
      expect((output.usage as { output_seconds: number }).output_seconds).to.be.closeTo(1.5, 0.05);
    });

    it('rejects audio that has no sound stream', async () => {
      const error = await rejectionOf(harness.run('lipsync.generate', { video_url: harness.urls.video, audio_url: harness.urls.silentVideo }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).message).to.include('audio_url');
    });
  });
});
