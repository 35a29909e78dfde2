/**
 * The local plugin's answers to the three operations the spec only names: the location and variant enhancers
 * (deterministic, in the prompt's language, built on the prompt rewriter) and video.extend (the source's own
 * frames and sound, then seconds that continue from its last frame under a push-in).
 */
import { expect } from 'chai';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { detectLanguage, KNOWN_LANGUAGES, type KnownLanguage } from '../../../plugins/local/language/detect-language.js';
import { LOCATION_PHRASES } from '../../../plugins/local/language/location-phrases.js';
import { PHRASE_TABLES } from '../../../plugins/local/language/phrase-tables.js';
import { UNIT_CUES, VARIANT_CUES } from '../../../plugins/local/language/variant-phrases.js';
import { createLocalHarness, LOCAL_TASK_ID, rms, type LocalHarness } from './local-harness.js';
import { expectH264, rejectionOf } from './media-expectations.js';
import { framePixels, lumaCorrelation, meanDifference, type Region } from './pixel-probes.js';

/** A place, in every language the rewriter has a phrase table for. */
const PLACES: Record<KnownLanguage, string> = {
  en: 'an old library with tall wooden shelves',
  fr: 'une vieille bibliothèque avec de hautes étagères en bois',
  es: 'una biblioteca antigua con estanterías altas y un salón de lectura',
  de: 'eine alte Bibliothek mit hohen Holzregalen und einem Lesesaal',
  it: 'una vecchia biblioteca con alti scaffali di legno',
  pt: 'uma velha biblioteca com estantes altas de madeira',
  ja: '高い木の本棚が並ぶ古い図書館',
  zh: '有高大木制书架的古老图书馆',
  ko: '높은 나무 책장이 있는 오래된 도서관',
  ru: 'старая библиотека с высокими деревянными полками',
};

const TOP: Region = { x: 0, y: 0, width: 1, height: 0.6 };
const CAPTION_BAND: Region = { x: 0.1, y: 0.75, width: 0.8, height: 0.2 };

describe('local plugin: the operations the spec only names', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  describe('prompt.enhance.location', () => {
    it('continues the place with where the viewer stands, then how the space reads, in one deterministic text', async () => {
      const input = { prompt: 'an abandoned train station', setting: 'interior', visualStyle: 'photorealistic' };
      const output = await harness.run('prompt.enhance.location', input);
      expect(output).to.deep.equal({ enhancedPrompt: output.enhancedPrompt, model: 'local-prompt-template', operation: 'prompt.enhance.location', status: 'succeeded' });
      const text = String(output.enhancedPrompt);
      expect(text.startsWith('An abandoned train station, seen from one standpoint in the middle of the space, with the walls, floor and ceiling all in view. ')).to.equal(true);
      expect(text).to.contain('Photorealistic style');
      expect(text.endsWith(' Clear layout, real materials and textures, consistent lighting throughout.')).to.equal(true);
      expect(await harness.run('prompt.enhance.location', input)).to.deep.equal(output);
    });

    it('says inside, outside, or neither, as the setting asks', async () => {
      const said = async (setting?: string) => String((await harness.run('prompt.enhance.location', { prompt: 'a quiet harbour with small boats', ...(setting ? { setting } : {}) })).enhancedPrompt);
      expect(await said('exterior')).to.contain(LOCATION_PHRASES.en.standpoint.exterior);
      expect(await said('interior')).to.contain(LOCATION_PHRASES.en.standpoint.interior);
      expect(await said()).to.contain(LOCATION_PHRASES.en.standpoint.any);
    });

    for (const language of KNOWN_LANGUAGES) {
      it(`writes in the prompt's own language (${language}) and keeps the client's words`, async () => {
        const output = await harness.run('prompt.enhance.location', { prompt: PLACES[language], setting: 'interior' });
        const text = String(output.enhancedPrompt);
        expect(detectLanguage(text)).to.equal(language);
        expect(text).to.contain(LOCATION_PHRASES[language].standpoint.interior);
        expect(text.endsWith(LOCATION_PHRASES[language].surfaces)).to.equal(true);
        // The client's place, capitalised as the first words of the text.
        expect(text.toLocaleLowerCase().startsWith(PLACES[language].toLocaleLowerCase())).to.equal(true);
      });
    }

    it('adds no foreign word to a prompt in a language it has no table for', async () => {
      const output = await harness.run('prompt.enhance.location', { prompt: 'стара їдальня біля річки', setting: 'interior' });
      expect(output.enhancedPrompt).to.equal('стара їдальня біля річки — 360°');
    });

    it("fits three_d.location.generate's 2000 characters with the longest input the manifest takes, in every language", async () => {
      for (const language of KNOWN_LANGUAGES) {
        const place = PLACES[language];
        const prompt = `${place} `.repeat(Math.ceil(1000 / (place.length + 1))).slice(0, 1000);
        const rewriteRequest = `${place} `.repeat(Math.ceil(500 / (place.length + 1))).slice(0, 500);
        const output = await harness.run('prompt.enhance.location', { prompt, setting: 'exterior', visualStyle: 's'.repeat(200), rewriteRequest });
        expect([...String(output.enhancedPrompt)].length, language).to.be.at.most(2000);
      }
    });
  });

  describe('prompt.enhance.variant', () => {
    /** The light phrases a text holds: the variant's cue and any the rewriter would add of its own. */
    const lightsIn = (text: string, language: KnownLanguage) =>
      [...new Set([...VARIANT_CUES[language].light, ...PHRASE_TABLES[language].lighting])].filter((phrase) => text.toLocaleLowerCase().includes(phrase.toLocaleLowerCase()));

    it('writes `count` variants, each with its own light and palette, and the first as enhancedPrompt', async () => {
      const output = await harness.run('prompt.enhance.variant', { prompt: 'a red bicycle against a white wall', count: 3, variation: 'moderate' });
      const variants = output.enhancedPrompts as string[];
      expect(output).to.deep.equal({ enhancedPrompts: variants, enhancedPrompt: variants[0], model: 'local-prompt-template', operation: 'prompt.enhance.variant', status: 'succeeded' });
      expect(variants).to.have.length(3);
      expect(new Set(variants).size).to.equal(3);
      const lights = variants.map((variant) => lightsIn(variant, 'en'));
      const palettes = variants.map((variant) => VARIANT_CUES.en.palette.filter((cue) => variant.includes(cue)));
      // Exactly one light each (the rewriter adds none that would contradict it), and no two alike.
      for (const found of [...lights, ...palettes]) expect(found).to.have.length(1);
      expect(new Set(lights.flat()).size).to.equal(3);
      expect(new Set(palettes.flat()).size).to.equal(3);
      for (const variant of variants) expect(variant.startsWith('A red bicycle against a white wall, ')).to.equal(true);
      expect(await harness.run('prompt.enhance.variant', { prompt: 'a red bicycle against a white wall', count: 3, variation: 'moderate' })).to.deep.equal(output);
    });

    it('varies the light only when subtle, and the light, palette and mood when strong', async () => {
      const variants = async (variation: string) => (await harness.run('prompt.enhance.variant', { prompt: 'a lighthouse on a cliff', count: 4, variation })).enhancedPrompts as string[];
      const cuesIn = (text: string) => ({
        light: VARIANT_CUES.en.light.filter((cue) => text.includes(cue)).length,
        palette: VARIANT_CUES.en.palette.filter((cue) => text.includes(cue)).length,
        mood: VARIANT_CUES.en.mood.filter((cue) => text.includes(cue)).length,
      });
      for (const text of await variants('subtle')) expect(cuesIn(text)).to.deep.equal({ light: 1, palette: 0, mood: 0 });
      const strong = await variants('strong');
      for (const text of strong) expect(cuesIn(text)).to.deep.equal({ light: 1, palette: 1, mood: 1 });
      expect(new Set(strong).size).to.equal(4);
    });

    it('writes concise, camera-aware variants for a video', async () => {
      const variants = (await harness.run('prompt.enhance.variant', { prompt: 'a fox running through snow', count: 2, target: 'video' })).enhancedPrompts as string[];
      for (const variant of variants) {
        expect(PHRASE_TABLES.en.cameraMoves.some((move) => variant.toLowerCase().includes(move)), variant).to.equal(true);
        expect(variant.split(/\s+/).length, variant).to.be.at.most(80);
      }
    });

    it('keeps each variant\'s cues when a video rewrite shortens a long prompt', async () => {
      const prompt = `a street market at the edge of an old harbour town ${'where stalls sell fish, bread, lemons and rope '.repeat(6)}`;
      const variants = (await harness.run('prompt.enhance.variant', { prompt, count: 3, variation: 'moderate', target: 'video' })).enhancedPrompts as string[];
      expect(new Set(variants).size).to.equal(3);
      for (const variant of variants) {
        expect(variant, variant).to.contain('…');
        expect(VARIANT_CUES.en.light.filter((cue) => variant.toLowerCase().includes(cue)), variant).to.have.length(1);
        expect(VARIANT_CUES.en.palette.filter((cue) => variant.toLowerCase().includes(cue)), variant).to.have.length(1);
      }
    });

    for (const language of KNOWN_LANGUAGES) {
      it(`keeps every variant in the prompt's language (${language}), each different`, async () => {
        const output = await harness.run('prompt.enhance.variant', { prompt: PLACES[language], count: 4, variation: 'strong' });
        const variants = output.enhancedPrompts as string[];
        expect(new Set(variants).size).to.equal(4);
        for (const variant of variants) {
          expect(detectLanguage(variant), variant).to.equal(language);
          expect(lightsIn(variant, language), variant).to.have.length(1);
        }
      });
    }

    it('varies a prompt in a language it has no table for by units only', async () => {
      const output = await harness.run('prompt.enhance.variant', { prompt: 'стара їдальня біля річки', count: 2, variation: 'strong' });
      const variants = output.enhancedPrompts as string[];
      expect(variants).to.have.length(2);
      for (const variant of variants) expect(variant).to.match(/^стара їдальня біля річки — \d{4} K · \d{2} mm · [−+]\d EV$/);
      expect(variants[0]).to.not.equal(variants[1]);
      expect(UNIT_CUES.light.some((cue) => variants[0].includes(cue))).to.equal(true);
    });

    it('refuses a count it cannot keep distinct', async () => {
      const error = await rejectionOf(harness.run('prompt.enhance.variant', { prompt: 'a cat', count: 5 }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
      expect((error as ProviderError).message).to.equal('count must be a whole number from 1 to 4');
    });
  });

  describe('video.extend', () => {
    it('starts with the source, frame for frame, then continues from its last frame for `duration` seconds', async () => {
      const output = await harness.run('video.extend', { video_url: harness.urls.video, prompt: 'the pattern slowly draws closer', duration: 2 });
      expect(output.task_id).to.match(LOCAL_TASK_ID);
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        duration: 4,
        source_duration: 2,
        aspect_ratio: '4:3',
        provider: 'local',
        model: 'local-video',
      });
      // The 2 s source at its own size and frame rate, then 2 s more.
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 320, height: 240, duration: 4, fps: 12 });
      expect(probe.durationSeconds).to.be.closeTo(4, 0.1);

      const result = harness.pathOf(String(output.video_url));
      const source = harness.fixtures.videoWithAudio;
      // The source's frames come first (the test pattern moves: each instant is told apart from the others).
      for (const seconds of [0.2, 1, 1.7]) {
        const [ours, theirs] = await Promise.all([framePixels(result, seconds), framePixels(source, seconds)]);
        expect(meanDifference(ours, theirs), `${seconds} s`).to.be.below(2);
      }
      // At 12 fps the source's last frame shows from 1.917 s (seeking to 1.9 lands on it); the first added frame from 2 s.
      const lastSourceFrame = await framePixels(source, 1.9);
      const seam = await framePixels(result, 2);
      const end = await framePixels(result, 3.9);
      // The added seconds open on the source's last frame (above the caption)...
      expect(lumaCorrelation(seam, lastSourceFrame, TOP)).to.be.above(0.95);
      // ...with the prompt drawn as a caption over them...
      expect(meanDifference(seam, lastSourceFrame, CAPTION_BAND)).to.be.above(15);
      // ...and the camera pushes in: by the end the picture has moved on.
      expect(meanDifference(end, seam, TOP)).to.be.above(10);
      expect(lumaCorrelation(end, lastSourceFrame, TOP)).to.be.below(lumaCorrelation(seam, lastSourceFrame, TOP));
    });

    it("keeps the source's sound, with silence under the added seconds", async () => {
      const output = await harness.run('video.extend', { video_url: harness.urls.video, duration: 2 });
      const probe = await harness.probe(String(output.video_url));
      expect(probe.audio?.codec).to.equal('aac');
      const audio = await harness.decodeAudio(String(output.video_url));
      const slice = (from: number, to: number) => ({
        ...audio,
        channels: audio.channels.map((samples) => samples.slice(Math.round(from * audio.sampleRate), Math.round(to * audio.sampleRate))),
      });
      expect(rms(slice(0.2, 1.8))).to.be.above(0.05);
      expect(rms(slice(2.3, 3.9))).to.be.below(0.001);
    });

    it('adds 5 s by default, stays silent for a silent source and renders the resolution asked for', async () => {
      const output = await harness.run('video.extend', { video_url: harness.urls.silentVideo, resolution: '720p' });
      expect(output).to.include({ duration: 6.5, source_duration: 1.5, aspect_ratio: '16:9' });
      const probe = await harness.probe(String(output.video_url));
      expectH264(probe, { width: 1280, height: 720, duration: 6.5, fps: 12 });
      expect(probe.audio).to.equal(undefined);
    });

    it('fails permanently, naming video_url, when the source is not a video', async () => {
      const error = await rejectionOf(harness.run('video.extend', { video_url: harness.urls.notMedia, duration: 2 }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
      expect((error as ProviderError).message).to.equal('video_url could not be decoded as video');
    });
  });
});
