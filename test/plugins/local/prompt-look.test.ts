/**
 * Pictures and video frames show what the prompt names: the tests decode the output and measure its colours
 * (the caption band along the bottom is left out of every measure).
 */
import { expect } from 'chai';
import { readPromptCues } from '../../../plugins/local/media/prompt-cues.js';
import { gradeFromPrompt } from '../../../plugins/local/media/colour-grade.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';
import { framePixels, imagePixels, isBlue, isGreenDominant, isNearWhite, isRed, meanColour, share, type Pixels, type Region } from './pixel-probes.js';

/** Above the caption band. */
const PICTURE: Region = { x: 0, y: 0, width: 1, height: 0.74 };
const SKY: Region = { x: 0, y: 0, width: 1, height: 0.4 };
const GROUND: Region = { x: 0, y: 0.62, width: 1, height: 0.12 };

describe('local plugin: prompts set the look of pictures and frames', () => {
  let harness: LocalHarness;
  before(async () => {
    harness = await createLocalHarness();
  });
  after(() => harness.cleanup());

  async function picture(prompt: string): Promise<Pixels> {
    const output = await harness.run('image.generate', { prompt, aspect_ratio: '16:9' });
    return imagePixels(harness.pathOf(String(output.image_url)));
  }

  describe('reading the cues', () => {
    it('tells the subject colour from the colour of a scene part', () => {
      const cues = readPromptCues('A red bicycle against a white wall');
      expect(cues.colours.map(({ word, part }) => ({ word, part }))).to.deep.equal([
        { word: 'red', part: undefined },
        { word: 'white', part: 'wall' },
      ]);
      expect(cues.setting).to.equal('indoor');
      expect(readPromptCues('a bright blue sky over green fields').colours.map((cue) => cue.part)).to.deep.equal(['sky', 'ground']);
    });

    it('reads the time of day, the season and the first setting named', () => {
      expect(readPromptCues('a neon market street at night')).to.deep.include({ timeOfDay: 'night', setting: 'city' });
      expect(readPromptCues('two boats on a calm lake at golden hour')).to.deep.include({ timeOfDay: 'sunset', setting: 'sea', colours: [] });
      expect(readPromptCues('a fox in a forest in autumn')).to.deep.include({ season: 'autumn', setting: 'forest' });
      expect(readPromptCues('a cabin in winter')).to.deep.include({ season: 'winter', setting: 'snow' });
      expect(readPromptCues('Sam waves on a sunny beach')).to.deep.include({ timeOfDay: 'day', setting: 'beach' });
      expect(readPromptCues('a black and white portrait')).to.deep.include({ monochrome: true, colours: [] });
      expect(readPromptCues('Ein Fuchs im Schnee')).to.deep.include({ colours: [], timeOfDay: undefined, season: undefined, setting: undefined, monochrome: false });
    });

    it('grades an edit only as far as its prompt has cues', () => {
      expect(gradeFromPrompt('add a hat')).to.equal(undefined);
      const night = gradeFromPrompt('make it night')!;
      expect(night.gain.every((gain) => gain < 0.8)).to.equal(true);
      expect(night.gain[2]).to.be.greaterThan(night.gain[0]);
      expect(gradeFromPrompt('black and white')!.saturation).to.equal(0);
    });
  });

  describe('image.generate', () => {
    it('"a red bicycle against a white wall": a white wall and a red subject, not a green landscape', async () => {
      const image = await picture('a red bicycle against a white wall');
      expect(share(image, isNearWhite, PICTURE), 'white wall').to.be.greaterThan(0.3);
      expect(share(image, isRed, PICTURE), 'red subject').to.be.greaterThan(0.08);
      expect(share(image, isGreenDominant, PICTURE), 'green').to.be.lessThan(0.01);
    });

    it('night is dark and day is light, with the named colour either way', async () => {
      const night = await picture('a blue car in the city at night');
      const day = await picture('a blue car in the city at noon');
      expect(meanColour(night, PICTURE).luma).to.be.lessThan(60);
      expect(meanColour(day, PICTURE).luma).to.be.greaterThan(100);
      expect(share(night, isBlue, PICTURE)).to.be.greaterThan(0.05);
      expect(share(day, isBlue, PICTURE)).to.be.greaterThan(0.05);
    });

    it('a sunset sky is warm, a noon sky is blue', async () => {
      const sunset = meanColour(await picture('a sunset over the sea'), SKY);
      const noon = meanColour(await picture('the sea at noon'), SKY);
      expect(sunset.r - sunset.b).to.be.greaterThan(30);
      expect(noon.b - noon.r).to.be.greaterThan(30);
    });

    it('the setting shows in the ground: forest green, desert sand, snow white, sea blue', async () => {
      expect(share(await picture('a deep forest'), isGreenDominant, GROUND)).to.be.greaterThan(0.5);
      const desert = meanColour(await picture('a camel in the desert'), GROUND);
      expect(desert.r).to.be.greaterThan(desert.g);
      expect(desert.g).to.be.greaterThan(desert.b + 30);
      expect(share(await picture('a cabin in the snow'), isNearWhite, GROUND)).to.be.greaterThan(0.6);
      expect(share(await picture('a lighthouse by the ocean'), isBlue, GROUND)).to.be.greaterThan(0.5);
    });
  });

  describe('video frames', () => {
    it('a generated clip shows the same scene as the picture of its prompt', async () => {
      const day = await harness.run('video.generate', { prompt: 'a red bicycle against a white wall', duration: 2, resolution: '360p' });
      const night = await harness.run('video.generate', { prompt: 'a red bicycle against a white wall at night', duration: 2, resolution: '360p' });
      const dayFrame = await framePixels(harness.pathOf(String(day.video_url)), 1);
      const nightFrame = await framePixels(harness.pathOf(String(night.video_url)), 1);
      expect(share(dayFrame, isNearWhite, PICTURE), 'white wall').to.be.greaterThan(0.25);
      expect(share(dayFrame, isRed, PICTURE), 'red subject').to.be.greaterThan(0.05);
      expect(share(dayFrame, isGreenDominant, PICTURE), 'green').to.be.lessThan(0.01);
      expect(meanColour(nightFrame, PICTURE).luma).to.be.lessThan(meanColour(dayFrame, PICTURE).luma - 60);
    });
  });
});
