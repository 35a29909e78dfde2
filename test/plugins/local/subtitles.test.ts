/**
 * subtitles.generate burns in the words the gateway knows for the source, in the requested style, and says so
 * when it knows none. The tests read the words back from the output and the style from its pixels.
 */
import { join } from 'node:path';
import { expect } from 'chai';
import { RENDERERS } from '../../../plugins/local/renderers.js';
import { timedCues } from '../../../plugins/local/operations/subtitles-generate.js';
import { parseFfmetadata, readKnownWords } from '../../../plugins/local/media/media-words.js';
import { createLocalHarness, type LocalHarness } from './local-harness.js';
import { expectH264 } from './media-expectations.js';
import { framePixels, share, type Region } from './pixel-probes.js';

const SAMPLE_SPEECH = join(process.cwd(), 'samples', 'speech.mp4');
const SAMPLE_TRANSCRIPT = 'Hello, and welcome to mediagate. This is a sample clip.';
/** Where libass draws bottom-centred captions. */
const CAPTION_AREA: Region = { x: 0, y: 0.7, width: 1, height: 0.3 };

const isYellow = ([r, g, b]: [number, number, number]): boolean => r > 200 && g > 180 && b < 90;
const isMagenta = ([r, g, b]: [number, number, number]): boolean => r > 190 && g < 80 && b > 190;

describe('local plugin: subtitles.generate', () => {
  let harness: LocalHarness;
  let speechUrl: string;
  before(async () => {
    harness = await createLocalHarness();
    speechUrl = await harness.ctx.upload(SAMPLE_SPEECH, 'video/mp4');
  });
  after(() => harness.cleanup());

  const yellow = { font: 'DejaVu Sans Bold', fontSize: 34, color: '#FFDD00', strokeColor: '#000000', strokeWidth: 2 };

  it('burns in the transcript of a shipped sample, in the requested colour, and keeps size, length and sound', async () => {
    const output = await harness.run('subtitles.generate', { video_url: speechUrl, file_name: 'speech.mp4', subtitle_settings: yellow });
    expect(output).to.deep.equal({
      task_id: output.task_id,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      transcript: SAMPLE_TRANSCRIPT,
      note: 'Subtitles show the transcript of the shipped sample video; the offline renderer does not recognise speech.',
      provider: 'local',
      model: RENDERERS['subtitles.generate'],
    });
    const probe = await harness.probe(String(output.video_url));
    expectH264(probe, { width: 640, height: 360, duration: 4 });
    expect(probe.audio?.codec).to.equal('aac');
    const subtitled = await framePixels(harness.pathOf(String(output.video_url)), 1.5);
    const original = await framePixels(SAMPLE_SPEECH, 1.5);
    expect(share(subtitled, isYellow, CAPTION_AREA), 'yellow text').to.be.greaterThan(0.01);
    expect(share(original, isYellow, CAPTION_AREA), 'none before').to.be.lessThan(0.0005);
    // The words stay with the file: subtitling it again finds them in its tags.
    expect(await readKnownWords(harness.ctx, harness.pathOf(String(output.video_url)))).to.deep.equal({ words: SAMPLE_TRANSCRIPT, prompt: undefined, from: 'tags' });
  });

  it('follows the colour asked for', async () => {
    const output = await harness.run('subtitles.generate', { video_url: speechUrl, subtitle_settings: { ...yellow, color: '#FF00FF' } });
    const pixels = await framePixels(harness.pathOf(String(output.video_url)), 1.5);
    expect(share(pixels, isMagenta, CAPTION_AREA)).to.be.greaterThan(0.01);
    expect(share(pixels, isYellow, CAPTION_AREA)).to.be.lessThan(0.0005);
  });

  it('shows a narration\'s text through lip sync: the words travel in the files', async () => {
    const text = 'Good morning from the offline studio.';
    const narration = await harness.run('narration.generate', { text });
    const lipsync = await harness.run('lipsync.generate', { video_url: harness.urls.silentVideo, audio_url: String(narration.audio_url) });
    const output = await harness.run('subtitles.generate', { video_url: String(lipsync.video_url) });
    expect(output).to.deep.include({
      transcript: text,
      note: 'Subtitles show the spoken words recorded in the video by the gateway that made it; the offline renderer does not recognise speech.',
    });
  });

  it('shows the prompt of a generated clip that has no spoken words, and says so', async () => {
    const video = await harness.run('video.generate', { prompt: 'A lighthouse at dusk', duration: 2, resolution: '360p' });
    const output = await harness.run('subtitles.generate', { video_url: String(video.video_url) });
    expect(output).to.deep.include({
      transcript: 'A lighthouse at dusk',
      note: 'The video has no recorded spoken words: subtitles show the prompt the gateway rendered it from; the offline renderer does not recognise speech.',
    });
  });

  it('invents no words for a video it knows nothing of: a notice in the requested style, and a note', async () => {
    const output = await harness.run('subtitles.generate', { video_url: harness.urls.video, file_name: 'team_update.mp4', subtitle_settings: yellow });
    expect(output).to.deep.equal({
      task_id: output.task_id,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      note: 'No subtitles: the offline renderer does not recognise speech and the gateway knows no words for this video, so the frames carry a notice instead.',
      provider: 'local',
      model: RENDERERS['subtitles.generate'],
    });
    const pixels = await framePixels(harness.pathOf(String(output.video_url)), 1);
    expect(share(pixels, isYellow, CAPTION_AREA), 'the notice, styled').to.be.greaterThan(0.005);
  });

  it('spreads the words over the sound in short captions, in proportion to their length', () => {
    expect(timedCues('Hello, and welcome to mediagate. This is a sample clip.', { start: 0.5, end: 3.5 })).to.deep.equal([
      // 32 and 22 characters of 54.
      { startSeconds: 0.5, endSeconds: 0.5 + (3 * 32) / 54, text: 'Hello, and welcome to mediagate.' },
      { startSeconds: 0.5 + (3 * 32) / 54, endSeconds: 3.5, text: 'This is a sample clip.' },
    ]);
    const long = timedCues('one two three four five six seven eight nine ten', { start: 0, end: 5 });
    expect(long.map((cue) => cue.text)).to.deep.equal(['one two three four five six seven', 'eight nine ten']);
  });

  it('reads ffmpeg\'s metadata listing, escapes included', () => {
    const listing = ';FFMETADATA1\nmajor_brand=isom\nmediagate_words=a\\=b\\; c\\\\d\\\nnext line\n[STREAM]\nmediagate_words=stream\n';
    expect([...parseFfmetadata(listing)]).to.deep.equal([
      ['major_brand', 'isom'],
      ['mediagate_words', 'a=b; c\\d\nnext line'],
    ]);
  });
});
