/** subtitles.generate on fal-ai/auto-caption: the style mapping and the finished output. */
import { expect } from 'chai';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { HOSTED_URL } from '../../support/vendor-conformance.js';
import { BYTES, caseOf, completed, doneOutput, falQueue, queueUrls, REQUEST_ID, submitted, useFalHarness } from './fal-test-kit.js';

const OPERATION = 'subtitles.generate';
const CASE = caseOf(OPERATION);

describe('fal plugin: subtitles.generate request', () => {
  const harness = useFalHarness();

  const submits = async (input: JsonObject, body: JsonObject): Promise<void> => {
    const api = falQueue().post('/fal-ai/auto-caption', body).reply(200, submitted(CASE.appId));
    await harness().start(OPERATION, input);
    expect(api.isDone()).to.equal(true);
  };

  it('sends the video alone, captions at the foot of the frame, when no style is given', async () => {
    await submits({ video_url: 'https://example.com/v.mp4' }, { video_url: 'https://example.com/v.mp4', top_align: 'bottom' });
  });

  it('leaves out a font auto-caption does not know (fal then uses "Standard") and the outline colour it has no field for', async () => {
    await submits(
      { video_url: 'https://example.com/v.mp4', subtitle_settings: { font: 'DejaVu Sans', strokeColor: '#000000', strokeWidth: 0 } },
      { video_url: 'https://example.com/v.mp4', top_align: 'bottom', stroke_width: 0 },
    );
  });

  it('matches fal\'s font names case-insensitively and passes a .ttf URL through', async () => {
    await submits(
      { video_url: 'https://example.com/v.mp4', subtitle_settings: { font: 'times new roman' } },
      { video_url: 'https://example.com/v.mp4', top_align: 'bottom', txt_font: 'Times New Roman' },
    );
    await submits(
      { video_url: 'https://example.com/v.mp4', subtitle_settings: { font: 'https://fonts.example.com/Inter-Bold.ttf' } },
      { video_url: 'https://example.com/v.mp4', top_align: 'bottom', txt_font: 'https://fonts.example.com/Inter-Bold.ttf' },
    );
  });
});

describe('fal plugin: subtitles.generate result', () => {
  const harness = useFalHarness();

  it('hosts the captioned video and answers the spec\'s output', async () => {
    falQueue()
      .get(`/fal-ai/auto-caption/requests/${REQUEST_ID}/status`).reply(200, completed(CASE.appId))
      .get(`/fal-ai/auto-caption/requests/${REQUEST_ID}`).reply(200, CASE.result());
    await CASE.serveFiles();

    const output = doneOutput(await harness().status(OPERATION, { taskId: REQUEST_ID, state: { model_id: CASE.modelId, ...queueUrls(CASE.appId) } }));

    expect(output).to.deep.equal({
      task_id: REQUEST_ID,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      provider: 'fal',
      model: 'fal-ai/auto-caption',
    });
    expect(output.video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(await harness().hostedBytes(String(output.video_url))).to.deep.equal(BYTES.captioned);
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
  });
});
