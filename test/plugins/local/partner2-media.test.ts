/**
 * The partner2 family works on the media its requests refer to: edits and remixes on the video
 * `partner_video_id` names (or `source_video_url`), generate_with_characters with the characters' own source
 * clips. The tests decode frames and compare them with the sources.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'chai';
import { ProviderError } from '../../../src/kernel/plugin-sdk/index.js';
import { characterBoxes } from '../../../plugins/local/media/character-layer.js';
import { RENDERERS } from '../../../plugins/local/renderers.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';
import { expectH264, rejectionOf } from './media-expectations.js';
import { framePixels, lumaCorrelation, meanColour, meanDifference, share, type Pixels, type Region } from './pixel-probes.js';

const SAMPLE_CHARACTER = join(process.cwd(), 'samples', 'character.mp4');
/** The sample's id: `char_` + the first 16 hex digits of its SHA-256 (samples/catalogue.json). */
const SAMPLE_CHARACTER_ID = 'char_0d71e476655d2f4b';
const VIDEO_ID = /^video_[0-9a-f]{16}$/;
const FRAME = { width: 1280, height: 720 };
/** Between a top caption (edits) and a bottom one (generated clips). */
const MIDDLE: Region = { x: 0, y: 0.2, width: 1, height: 0.55 };

/** The sample character's teal shirt. */
const isShirt = ([r, g, b]: [number, number, number]): boolean => r < 90 && g > 95 && g < 160 && b > 90 && b < 150 && Math.abs(g - b) < 30;
/** The sample character's light blue backdrop, which keying removes. */
const isBackdrop = ([r, g, b]: [number, number, number]): boolean => r > 135 && r < 215 && g > 170 && g < 235 && b > 195 && b - r > 25;

describe('local plugin: the partner2 family uses the media it refers to', () => {
  let harness: LocalHarness;
  let sampleCharacterUrl: string;
  before(async () => {
    harness = await createLocalHarness();
    sampleCharacterUrl = await harness.ctx.upload(SAMPLE_CHARACTER, 'video/mp4');
  });
  after(() => harness.cleanup());

  async function frame(url: unknown, seconds: number): Promise<Pixels> {
    return framePixels(harness.pathOf(String(url)), seconds, FRAME);
  }

  async function createCharacter(sourceVideoUrl: string, name: string): Promise<string> {
    const output = await harness.run('partner2.character.create', { name, source_video_url: sourceVideoUrl });
    return String((output.character as { id: string }).id);
  }

  describe('partner2.character.create', () => {
    it('names the character by its clip and keeps a hosted copy of the clip', async () => {
      const input = { name: 'Ada', source_video_url: harness.urls.video, source_video_name: 'ada.mp4' };
      const hostedBefore = harness.ctx.hosted.length;
      const output = await harness.run('partner2.character.create', input);
      // The id is the SHA-256 of the whole file (hashed as it streams from disk), so ids handed out stay valid.
      const digest = createHash('sha256').update(await readFile(harness.fixtures.videoWithAudio)).digest('hex').slice(0, 16);
      expect(output).to.deep.equal({
        status: 'completed',
        character: { id: `char_${digest}`, name: 'Ada', sourceVideoUrl: harness.urls.video },
        provider: 'local',
        model: RENDERERS['partner2.character.create'],
      });
      const kept = harness.ctx.hosted.slice(hostedBefore);
      expect(kept).to.have.length(1);
      expect((await readFile(harness.pathOf(kept[0].url))).equals(await readFile(harness.fixtures.videoWithAudio))).to.equal(true);
      expect(await harness.run('partner2.character.create', input)).to.deep.equal(output);
    });

    it('refuses a source over 100 MB', async () => {
      const { open } = await import('node:fs/promises');
      const { pathToFileURL } = await import('node:url');
      const path = join(harness.fixtures.dir, 'huge.mp4');
      const file = await open(path, 'w');
      await file.truncate(100 * 1024 * 1024 + 1);
      await file.close();
      const error = await rejectionOf(harness.run('partner2.character.create', { name: 'Big', source_video_url: pathToFileURL(path).href }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).retryable).to.equal(false);
    });

    it('refuses a source that is not a video', async () => {
      const error = await rejectionOf(harness.run('partner2.character.create', { name: 'Bad', source_video_url: harness.urls.notMedia }));
      expect(error).to.be.instanceOf(ProviderError);
      expect((error as ProviderError).message).to.include('source_video_url');
    });
  });

  describe('partner2.video.generate_with_characters', () => {
    it('stands a character from its source clip in the scene, its plain backdrop keyed out', async () => {
      const id = await createCharacter(sampleCharacterUrl, 'Sam');
      expect(id).to.equal(SAMPLE_CHARACTER_ID);
      const output = await harness.run('partner2.video.generate_with_characters', { prompt: 'Sam waves in the city at night', characters: [id], duration: 4 });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        duration: 4,
        provider: 'local',
        model: RENDERERS['partner2.video.generate_with_characters'],
      });
      expect(output.task_id).to.match(VIDEO_ID);
      expectH264(await harness.probe(String(output.video_url)), { ...FRAME, duration: 4 });

      const [box] = characterBoxes(FRAME, 1, [true]);
      const inBox: Region = { x: box.x / FRAME.width, y: box.y / FRAME.height, width: box.width / FRAME.width, height: box.height / FRAME.height };
      const beside: Region = { x: 0, y: 0.2, width: 0.25, height: 0.5 };
      const early = await frame(output.video_url, 1);
      expect(share(early, isShirt, inBox), 'the character is in its place').to.be.greaterThan(0.04);
      expect(share(early, isShirt, beside), 'and nowhere else').to.be.lessThan(0.002);
      expect(share(early, isBackdrop, inBox), 'without its backdrop').to.be.lessThan(0.01);
      // The clip plays in the scene: the character's waving arm moves between frames.
      const later = await frame(output.video_url, 1.5);
      expect(meanDifference(early, later, inBox)).to.be.greaterThan(meanDifference(early, later, beside) + 0.5);
    });

    it('frames a clip without a plain backdrop and plays it, not a still', async () => {
      const id = await createCharacter(harness.urls.silentVideo, 'Bars');
      const output = await harness.run('partner2.video.generate_with_characters', { prompt: 'Bars on a beach', partner_cameos: [id], duration: 4 });
      const [box] = characterBoxes(FRAME, 1, [false]);
      // The 320×180 test pattern fitted into its box, standing on the box's bottom edge, centred.
      const scale = Math.min(box.width / 320, box.height / 180);
      const panel = { width: 320 * scale, height: 180 * scale };
      const inner: Region = {
        x: (box.x + (box.width - panel.width) / 2 + panel.width * 0.1) / FRAME.width,
        y: (box.y + box.height - panel.height + panel.height * 0.1) / FRAME.height,
        width: (panel.width * 0.8) / FRAME.width,
        height: (panel.height * 0.6) / FRAME.height,
      };
      const rendered = await frame(output.video_url, 1);
      const source = await framePixels(harness.fixtures.silentVideo, 1, FRAME);
      const expected = placeInto(source, panel, box, FRAME);
      expect(lumaCorrelation(rendered, expected, inner), 'the panel shows the source clip').to.be.greaterThan(0.9);
      expect(meanDifference(rendered, expected, inner)).to.be.lessThan(20);
    });

    it('finds a shipped sample character by its id, without a record', async () => {
      const fresh = await createLocalHarness();
      try {
        const output = await fresh.run('partner2.video.generate_with_characters', { prompt: 'A presenter waves', characters: [SAMPLE_CHARACTER_ID], duration: 4 });
        const pixels = await framePixels(fresh.pathOf(String(output.video_url)), 1, FRAME);
        expect(share(pixels, isShirt, MIDDLE)).to.be.greaterThan(0.01);
      } finally {
        await fresh.cleanup();
      }
    });

    it('refuses a character it does not know rather than render without it', async () => {
      const error = await rejectionOf(harness.run('partner2.video.generate_with_characters', { prompt: 'x', characters: ['char_unknown1'] }));
      expect(error).to.be.instanceOf(ProviderError);
      expect({ retryable: (error as ProviderError).retryable, message: (error as ProviderError).message }).to.deep.equal({
        retryable: false,
        message: 'character char_unknown1 is unknown to the local renderer: create it with partner2.character.create on this gateway',
      });
    });
  });

  describe('partner2.video.edit and partner2.video.remix', () => {
    let source: { id: string; url: string };
    before(async () => {
      const id = await createCharacter(sampleCharacterUrl, 'Sam');
      const output = await harness.run('partner2.video.generate_with_characters', { prompt: 'Sam waves in a green field', characters: [id], duration: 4 });
      source = { id: String(output.task_id), url: String(output.video_url) };
    });

    it('edits the video its partner_video_id names: the frames are the source frames', async () => {
      const output = await harness.run('partner2.video.edit', { partner_video_id: source.id, prompt: 'tighten the pacing' });
      expect(output).to.deep.equal({
        task_id: output.task_id,
        asset_type: 'video',
        status: 'succeeded',
        video_url: output.video_url,
        provider: 'local',
        model: RENDERERS['partner2.video.edit'],
      });
      expect(output.task_id).to.match(VIDEO_ID);
      expectH264(await harness.probe(String(output.video_url)), { ...FRAME, duration: 4 });
      const edited = await frame(output.video_url, 2);
      expect(meanDifference(edited, await frame(source.url, 2), MIDDLE), 'the same frame').to.be.lessThan(6);
      const other = await harness.run('video.generate', { prompt: 'a camel in the desert', duration: 4 });
      expect(meanDifference(edited, await frame(other.video_url, 2), MIDDLE), 'another clip').to.be.greaterThan(25);
    });

    it('grades the source as the prompt asks and keeps its shapes', async () => {
      const output = await harness.run('partner2.video.edit', { partner_video_id: source.id, prompt: 'make it night' });
      const [edited, original] = [await frame(output.video_url, 2), await frame(source.url, 2)];
      expect(meanColour(edited, MIDDLE).luma).to.be.lessThan(meanColour(original, MIDDLE).luma * 0.6);
      expect(lumaCorrelation(edited, original, MIDDLE)).to.be.greaterThan(0.85);
    });

    it('can edit its own edits: every partner2 id it answers with resolves', async () => {
      const first = await harness.run('partner2.video.edit', { partner_video_id: source.id, prompt: 'make it sunset' });
      const second = await harness.run('partner2.video.remix', { partner_video_id: String(first.task_id), prompt: 'now in black and white', duration: 4 });
      const pixels = await frame(second.video_url, 2);
      expect(share(pixels, ([r, g, b]) => Math.max(r, g, b) - Math.min(r, g, b) > 30, MIDDLE), 'no colour left').to.be.lessThan(0.01);
    });

    it('remixes with a slow push-in: the source re-framed, not replaced', async () => {
      const output = await harness.run('partner2.video.remix', { partner_video_id: source.id, prompt: 'tighten the pacing', duration: 4 });
      const [start, end, original] = [await frame(output.video_url, 0.2), await frame(output.video_url, 3.8), await frame(source.url, 3.8)];
      expect(lumaCorrelation(end, original, MIDDLE), 'still the source').to.be.greaterThan(0.5);
      // Closer in at the end: the re-framing grows, so the end differs from the source more than the start does.
      expect(meanDifference(end, original, MIDDLE)).to.be.greaterThan(meanDifference(start, await frame(source.url, 0.2), MIDDLE));
    });

    it('takes source_video_url over the id, and keeps the source sound', async () => {
      const output = await harness.run('partner2.video.edit', { partner_video_id: source.id, prompt: 'golden hour', source_video_url: harness.urls.video });
      const probe = await harness.probe(String(output.video_url));
      // The 2 s 4:3 test clip with a tone, not the 4 s character clip: its length, and landscape 720p.
      expectH264(probe, { ...FRAME, duration: 2 });
      expect(probe.audio?.codec).to.equal('aac');
    });

    it('refuses an id it did not make when no source_video_url is sent', async () => {
      const error = await rejectionOf(harness.run('partner2.video.remix', { partner_video_id: 'video_abc123', prompt: 'x' }));
      expect(error).to.be.instanceOf(ProviderError);
      expect({ retryable: (error as ProviderError).retryable, message: (error as ProviderError).message }).to.deep.equal({
        retryable: false,
        message: 'partner_video_id video_abc123 is not a video the local renderer made on this gateway; send source_video_url with the hosted copy of the source video',
      });
    });
  });
});

/** `source` scaled to `panel` and placed as the character layer places it in `box`, on an empty frame. */
function placeInto(source: Pixels, panel: { width: number; height: number }, box: { x: number; y: number; width: number; height: number }, size: { width: number; height: number }): Pixels {
  const data = Buffer.alloc(size.width * size.height * 3);
  const left = box.x + (box.width - panel.width) / 2;
  const top = box.y + box.height - panel.height;
  for (let y = 0; y < size.height; y += 1) {
    for (let x = 0; x < size.width; x += 1) {
      const u = (x - left) / panel.width;
      const v = (y - top) / panel.height;
      if (u < 0 || u >= 1 || v < 0 || v >= 1) continue;
      const from = (Math.floor(v * source.height) * source.width + Math.floor(u * source.width)) * 3;
      source.data.copy(data, (y * size.width + x) * 3, from, from + 3);
    }
  }
  return { data, width: size.width, height: size.height };
}
