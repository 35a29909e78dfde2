/**
 * How video.generate and partner2.video.generate_with_characters fill `POST /v1/videos`: defaults, sizes
 * per resolution, the first frame, the three spellings of characters, and the inputs the vendor cannot take.
 */
import { expect } from 'chai';
import nock from 'nock';
import partner2 from '../../../plugins/partner2/index.js';
import type { JsonValue } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { failure, useNock } from '../../support/vendor-conformance.js';
import { CONFIG, videoObject, videosApi } from './partner2-test-kit.js';

const VIDEO_ID = 'video_68d7512d07848190b3e45da0ecbebcde004da08e1e0678d5';
const queued = videoObject(VIDEO_ID, 'queued');

describe('partner2 plugin: POST /v1/videos', () => {
  useNock();
  let harness: PluginHarness;
  before(async () => {
    harness = await createPluginHarness(partner2, CONFIG);
  });
  after(() => harness.close());

  describe('video.generate', () => {
    it('sends 4 s at 1280x720 when duration, shape and resolution are left out, and says so in the output fields', async () => {
      const api = videosApi().post('/v1/videos', { model: 'sora-2', prompt: 'a paper boat in the rain', seconds: '4', size: '1280x720' }).reply(200, queued);

      const result = await harness.start('video.generate', { prompt: 'a paper boat in the rain', model: 'partner-2' }, 'partner-2');

      expect(result).to.deep.equal({ task: { taskId: VIDEO_ID, state: { output: { duration: 4, aspect_ratio: '16:9' } } } });
      expect(api.isDone()).to.equal(true);
    });

    it('renders 1080p natively on partner-2-pro (1920x1080 / 1080x1920) and passes the first frame as input_reference', async () => {
      const frame = 'https://media.example/inputs/first-frame.png';
      const api = videosApi()
        .post('/v1/videos', { model: 'sora-2-pro', prompt: 'a lighthouse at dusk', seconds: '20', size: '1920x1080', input_reference: { image_url: frame } })
        .reply(200, queued)
        .post('/v1/videos', { model: 'sora-2-pro', prompt: 'a lighthouse at dusk', seconds: '16', size: '1080x1920', input_reference: { image_url: frame } })
        .reply(200, queued);

      const landscape = await harness.start('video.generate', { prompt: 'a lighthouse at dusk', model: 'partner-2-pro', duration: 20, resolution: '1080p', aspect_ratio: '16:9', image_url: frame }, 'partner-2-pro');
      const portrait = await harness.start('video.generate', { prompt: 'a lighthouse at dusk', model: 'partner-2-pro', duration: 16, resolution: '1080p', aspect_ratio: '9:16', first_frame_url: frame }, 'partner-2-pro');

      expect(landscape).to.deep.equal({ task: { taskId: VIDEO_ID, state: { output: { duration: 20, aspect_ratio: '16:9' } } } });
      expect(portrait).to.deep.equal({ task: { taskId: VIDEO_ID, state: { output: { duration: 16, aspect_ratio: '9:16' } } } });
      expect(api.isDone()).to.equal(true);
    });

    it('leaves out the inputs the vendor has no field for', async () => {
      const api = videosApi().post('/v1/videos', { model: 'sora-2', prompt: 'a fox in snow', seconds: '8', size: '720x1280' }).reply(200, queued);

      await harness.start(
        'video.generate',
        { prompt: 'a fox in snow', model: 'partner-2', duration: 8, aspect_ratio: '9:16', negative_prompt: 'blur', seed: 7, watermark: false, nsfw_checker: true, prompt_extend: true },
        'partner-2',
      );

      expect(api.isDone()).to.equal(true);
    });

    const unsupported: Array<[string, JsonValue]> = [
      ['last_frame_url', 'https://media.example/inputs/last.png'],
      ['end_image_url', 'https://media.example/inputs/last.png'],
      ['reference_image_urls', ['https://media.example/inputs/ref.png']],
    ];
    for (const [field, value] of unsupported) {
      it(`refuses ${field} permanently without calling the vendor`, async () => {
        const untouched = videosApi().post('/v1/videos').reply(200, queued);

        const error = await failure(
          harness.start('video.generate', { prompt: 'a fox', model: 'partner-2', image_url: 'https://media.example/inputs/first.png', [field]: value }, 'partner-2'),
        );

        expect(error.retryable).to.equal(false);
        expect(error.details.vendorCode).to.equal('unsupported_input');
        expect(error.message).to.match(new RegExp(`^partner2: partner-2 does not take .*\\(${field}\\)$`));
        expect(untouched.isDone()).to.equal(false);
      });
    }

    it('refuses a shape the family does not render, should the manifest ever let one through', async () => {
      const error = await failure(harness.start('video.generate', { prompt: 'a fox', model: 'partner-2', aspect_ratio: '1:1' }, 'partner-2'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('partner2: partner2 renders 16:9 or 9:16 at 720p or 1080p, not 1:1 at 720p');
      expect(nock.pendingMocks()).to.deep.equal([]);
    });
  });

  describe('partner2.video.generate_with_characters', () => {
    const body = (characters: string[], extra: Record<string, unknown> = {}) => ({
      model: 'sora-2',
      prompt: 'Mochi and Pip play chess in a park',
      seconds: '4',
      size: '1280x720',
      characters: characters.map((id) => ({ id })),
      ...extra,
    });

    it('sends each spelling of the characters as characters: [{id}]', async () => {
      const api = videosApi()
        .post('/v1/videos', body(['char_mochi01', 'char_pip02'])).reply(200, queued)
        .post('/v1/videos', body(['char_mochi01', 'char_pip02'])).reply(200, queued)
        .post('/v1/videos', body(['char_mochi01'])).reply(200, queued);
      const prompt = 'Mochi and Pip play chess in a park';

      const cameos = await harness.start('partner2.video.generate_with_characters', { prompt, partner_cameos: ['char_mochi01', 'char_pip02'] });
      await harness.start('partner2.video.generate_with_characters', { prompt, partner_characters: [{ id: 'char_mochi01', name: 'Mochi' }, { id: 'char_pip02' }] });
      await harness.start('partner2.video.generate_with_characters', { prompt, characters: ['char_mochi01'] });

      expect(cameos).to.deep.equal({ task: { taskId: VIDEO_ID, state: { output: { duration: 4 } } } });
      expect(api.isDone()).to.equal(true);
    });

    it('renders with sora-2-pro at 1080x1920 for quality pro at 1080p portrait', async () => {
      const api = videosApi()
        .post('/v1/videos', body(['char_mochi01'], { model: 'sora-2-pro', seconds: '8', size: '1080x1920' }))
        .reply(200, queued);

      const result = await harness.start(
        'partner2.video.generate_with_characters',
        { prompt: 'Mochi and Pip play chess in a park', characters: ['char_mochi01'], quality: 'pro', resolution: '1080p', aspect_ratio: '9:16', duration: 8 },
        'pro',
      );

      expect(result).to.deep.equal({ task: { taskId: VIDEO_ID, state: { output: { duration: 8 } } } });
      expect(api.isDone()).to.equal(true);
    });
  });
});
