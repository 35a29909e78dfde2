/**
 * image.generate and image.edit with Seedream 4.0: the exact request (size in pixels for the asked shape and
 * class, fixed single-image / URL / no-watermark fields, reference images, the inline edit source), the output
 * with our hosted copies, and the refusals.
 */
import { expect } from 'chai';
import nock from 'nock';
import sharp from 'sharp';
import bytedancePlugin from '../../../plugins/bytedance/index.js';
import { seedreamSize } from '../../../plugins/bytedance/seedream-size.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, expectRefusedBeforeSending, pngBytes, threePngs } from '../../support/vendor-conformance.js';
import { arkApi, CONFIG, failure, HOSTED_URL, IMAGES_PATH, imagesResponse, INPUTS, KEY, tosFile, useBytedanceHarness } from './bytedance-test-kit.js';

/** What every Seedream request carries besides the model, prompt, size and images. */
const FIXED = { sequential_image_generation: 'disabled', response_format: 'url', watermark: false };
const TASK_ID = /^bytedance_[0-9a-f]{24}$/;

describe('bytedance plugin: Seedream 4.0 images', () => {
  const harness = useBytedanceHarness();
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => void ([red, blue, green] = await threePngs()));

  describe('image.generate', () => {
    it('asks for the exact pixels of the shape and class, one image, a URL, no watermark; hosts the JPEG and keeps the vendor URL', async () => {
      const vendorUrl = tosFile('/seedream-4-0/021757469054207_0.jpeg', red);
      const api = arkApi()
        .post(IMAGES_PATH, { model: 'seedream-4-0-250828', prompt: 'a red bicycle leaning on a white wall, morning light', size: '2736x1536', ...FIXED })
        .matchHeader('content-type', 'application/json')
        .reply(200, imagesResponse([{ url: vendorUrl, size: '2736x1536' }]));

      const result = await harness().start('image.generate', { prompt: 'a red bicycle leaning on a white wall, morning light', model: 'seedream-4', aspect_ratio: '16:9', resolution: '2K' }, 'seedream-4');

      const output = (result as { done: JsonObject }).done;
      await expectImageOutput(harness(), 'image.generate', output, { provider: 'bytedance', model: 'seedream-4', taskId: TASK_ID, aspectRatio: '16:9', providerUrls: [vendorUrl] }, [red]);
      expect(output.image_url).to.match(/\.jpeg$/);
      expect(api.isDone() && nock.pendingMocks().length === 0).to.equal(true);
    });

    it('renders 1:1 at 1K when neither is asked (the manifest prices an absent class as 1K); a style joins the prompt; quality and the reference balance are not sent', async () => {
      const vendorUrl = tosFile('/seedream-4-0/square_0.jpeg', blue);
      arkApi()
        .post(IMAGES_PATH, { model: 'seedream-4-0-250828', prompt: 'isometric city block\nStyle: pastel colours', size: '1024x1024', ...FIXED })
        .reply(200, imagesResponse([{ url: vendorUrl, size: '1024x1024' }]));

      const result = (await harness().start('image.generate', { prompt: 'isometric city block', model: 'seedream-4', style: 'pastel colours', quality: 'high', reference_prompt_balance: 0.4 }, 'seedream-4')) as { done: JsonObject };

      expect(result.done).to.include({ aspect_ratio: '1:1', provider_image_count: 1 });
      expect(await harness().hostedBytes(result.done.image_url as string)).to.deep.equal(blue);
    });

    it('sends reference images as the `image` array of their URLs, which Seedream fetches itself', async () => {
      const references = [`${INPUTS}/inputs/subject.png`, `${INPUTS}/inputs/style.jpg`];
      const vendorUrl = tosFile('/seedream-4-0/blend_0.jpeg', green);
      arkApi()
        .post(IMAGES_PATH, { model: 'seedream-4-0-250828', prompt: 'the subject in the style', size: '3648x4576', image: references, ...FIXED })
        .reply(200, imagesResponse([{ url: vendorUrl, size: '3648x4576' }]));

      const result = (await harness().start('image.generate', { prompt: 'the subject in the style', model: 'seedream-4', aspect_ratio: '4:5', resolution: '4K', reference_image_urls: references }, 'seedream-4')) as { done: JsonObject };

      expect(result.done).to.include({ aspect_ratio: '4:5', provider_image_count: 1 });
      expect(result.done.provider_image_urls).to.deep.equal([vendorUrl]);
    });

    it('fails permanently with the vendor\'s reason when the image itself was refused', async () => {
      arkApi()
        .post(IMAGES_PATH)
        .reply(200, imagesResponse([{ error: { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' } }]));

      const error = await failure(harness().start('image.generate', { prompt: 'something forbidden', model: 'seedream-4' }, 'seedream-4'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('bytedance: no image was rendered: The request failed because the output image may contain sensitive information. (OutputImageSensitiveContentDetected)');
      expect(error.details.vendorCode).to.equal('OutputImageSensitiveContentDetected');
    });

    it('keeps the path prefix of a configured base_url', async () => {
      const proxied = await createPluginHarness(bytedancePlugin, { ...CONFIG, base_url: 'https://ark-proxy.example/modelark' });
      const vendorUrl = tosFile('/seedream-4-0/proxied_0.jpeg', red);
      const api = nock('https://ark-proxy.example', { reqheaders: { authorization: `Bearer ${KEY}` } })
        .post(`/modelark${IMAGES_PATH}`)
        .reply(200, imagesResponse([{ url: vendorUrl, size: '1024x1024' }]));
      try {
        const result = (await proxied.start('image.generate', { prompt: 'a red bicycle', model: 'seedream-4' }, 'seedream-4')) as { done: JsonObject };
        expect(result.done.provider_image_urls).to.deep.equal([vendorUrl]);
        expect(api.isDone()).to.equal(true);
      } finally {
        await proxied.close();
      }
    });
  });

  describe('image.edit', () => {
    it('sends the source inline and keeps its shape when no aspect ratio is asked (6x4 -> 3:2 at 1K: 1264x848)', async () => {
      nock(INPUTS).get('/inputs/source.png').reply(200, blue, { 'content-type': 'image/png' });
      const vendorUrl = tosFile('/seedream-4-0/edit_0.jpeg', green);
      const api = arkApi()
        .post(IMAGES_PATH, {
          model: 'seedream-4-0-250828',
          prompt: 'replace the background with a beach at sunset',
          size: '1264x848',
          image: `data:image/png;base64,${blue.toString('base64')}`,
          ...FIXED,
        })
        .reply(200, imagesResponse([{ url: vendorUrl, size: '1264x848' }]));

      const result = await harness().start('image.edit', { prompt: 'replace the background with a beach at sunset', image_url: `${INPUTS}/inputs/source.png`, model: 'seedream-4' }, 'seedream-4');

      const output = (result as { done: JsonObject }).done;
      expect(output.task_id).to.match(TASK_ID);
      expect(output.image_url).to.match(HOSTED_URL);
      expect(output).to.deep.equal({ task_id: output.task_id, asset_type: 'image', status: 'succeeded', image_url: output.image_url, provider: 'bytedance', model: 'seedream-4' });
      expect(harness().checkOutput('image.edit', output)).to.deep.equal([]);
      expect(await harness().hostedBytes(output.image_url as string)).to.deep.equal(green);
      expect(api.isDone()).to.equal(true);
    });

    it('renders an asked aspect ratio at the asked class (9:16 at 2K)', async () => {
      nock(INPUTS).get('/inputs/source.png').reply(200, red, { 'content-type': 'image/png' });
      arkApi()
        .post(IMAGES_PATH, (body: Record<string, unknown>) => body.size === '1536x2736' && body.image === `data:image/png;base64,${red.toString('base64')}`)
        .reply(200, imagesResponse([{ url: tosFile('/seedream-4-0/portrait_0.jpeg', blue), size: '1536x2736' }]));

      const result = (await harness().start('image.edit', { prompt: 'make it a poster', image_url: `${INPUTS}/inputs/source.png`, model: 'seedream-4', aspect_ratio: '9:16', resolution: '2K' }, 'seedream-4')) as { done: JsonObject };

      expect(await harness().hostedBytes(result.done.image_url as string)).to.deep.equal(blue);
    });

    it('reads a rotated JPEG upright (EXIF orientation 6 turns 6x4 into 4x6) and names its real format in the data URI', async () => {
      const rotated = await sharp(await pngBytes('#336699', 6, 4)).jpeg().withMetadata({ orientation: 6 }).toBuffer();
      nock(INPUTS).get('/inputs/phone.jpg').reply(200, rotated, { 'content-type': 'application/octet-stream' });
      arkApi()
        .post(IMAGES_PATH, (body: Record<string, unknown>) => body.size === '848x1264' && body.image === `data:image/jpeg;base64,${rotated.toString('base64')}`)
        .reply(200, imagesResponse([{ url: tosFile('/seedream-4-0/upright_0.jpeg', red), size: '848x1264' }]));

      const result = (await harness().start('image.edit', { prompt: 'warmer light', image_url: `${INPUTS}/inputs/phone.jpg`, model: 'seedream-4' }, 'seedream-4')) as { done: JsonObject };

      expect(result.done.image_url).to.match(HOSTED_URL);
    });

    it('refuses a source that is not an image before calling ModelArk', async () => {
      nock(INPUTS).get('/inputs/notes.txt').reply(200, 'just some words', { 'content-type': 'text/plain' });
      const anyCall = arkApi().post(IMAGES_PATH).reply(200, imagesResponse([]));

      await expectRefusedBeforeSending(harness().start('image.edit', { prompt: 'p', image_url: `${INPUTS}/inputs/notes.txt`, model: 'seedream-4' }, 'seedream-4'), 'bytedance: image_url is not an image Seedream can edit (JPEG, PNG, WebP, BMP, TIFF or GIF)', anyCall);
    });
  });
});

describe('bytedance plugin: Seedream sizes', () => {
  const ratios = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9'];

  it('stays within Seedream 4.0\'s limits for every shape and class: area in [1024x1024, 4096x4096] (the stricter of the documented floors), sides multiples of 16, the asked shape within 2 %', () => {
    for (const resolution of ['1K', '2K', '4K']) {
      for (const ratio of ratios) {
        const [w, h] = ratio.split(':').map(Number);
        const [width, height] = seedreamSize(w / h, resolution).split('x').map(Number);
        const where = `${ratio} at ${resolution}: ${width}x${height}`;
        expect(width * height, where).to.be.within(1024 * 1024, 4096 * 4096);
        expect([width % 16, height % 16], where).to.deep.equal([0, 0]);
        expect(Math.abs(width / height / (w / h) - 1), where).to.be.below(0.02);
      }
    }
  });

  it('keeps about the class\'s pixel count: 1:1 is the class\'s square, 16:9 at 2K is 2736x1536', () => {
    expect(['1K', '2K', '4K'].map((resolution) => seedreamSize(1, resolution))).to.deep.equal(['1024x1024', '2048x2048', '4096x4096']);
    expect(seedreamSize(16 / 9, '2K')).to.equal('2736x1536');
  });

  it('clamps a source shape beyond Seedream\'s [1/16, 16] range', () => {
    expect(seedreamSize(40, '1K')).to.equal(seedreamSize(16, '1K'));
    expect(seedreamSize(16, '1K')).to.equal('4096x256');
  });
});
