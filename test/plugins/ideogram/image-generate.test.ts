import { expect } from 'chai';
import nock from 'nock';
import ideogram from '../../../plugins/ideogram/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, expectRefusedBeforeSending, failure, threePngs, usePluginHarness } from '../../support/vendor-conformance.js';
import { captureGenerate, CONFIG, files, generateResponse, GENERATE_PATH, IMAGE_URL, ideogramApi, ideogramCdn, INPUTS, textFields } from './ideogram-test-kit.js';

const MODEL = 'ideogram-v3';

describe('ideogram plugin: image.generate (Ideogram 3.0)', () => {
  let harness: PluginHarness;
  usePluginHarness(ideogram, CONFIG, (fresh) => (harness = fresh));
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => {
    [red, blue, green] = await threePngs();
  });

  async function generate(input: JsonObject): Promise<JsonObject> {
    const result = await harness.start('image.generate', { model: MODEL, ...input }, MODEL);
    if (!('done' in result)) throw new Error(`expected a finished output, got ${JSON.stringify(result)}`);
    return result.done;
  }

  it('sends the prompt, the 16x9 shape, TURBO for low quality and one image as a form with the Api-Key header; hosts the image and keeps Ideogram\'s link', async () => {
    const sent = captureGenerate(generateResponse());
    const cdn = ideogramCdn(red);

    const output = await generate({ prompt: 'a vintage travel poster reading VISIT MARS', aspect_ratio: '16:9', quality: 'low', resolution: '1K' });

    expect(textFields(await sent())).to.deep.equal({ prompt: 'a vintage travel poster reading VISIT MARS', aspect_ratio: '16x9', rendering_speed: 'TURBO', num_images: '1' });
    await expectImageOutput(harness, 'image.generate', output, { provider: 'ideogram', model: MODEL, taskId: /^ideogram_[0-9a-f]{24}$/, aspectRatio: '16:9', providerUrls: [IMAGE_URL] }, [red]);
    expect(output.image_url).to.match(/\.png$/);
    expect(cdn.isDone()).to.equal(true);
  });

  it('renders 1:1 when no shape is given, leaves the rendering speed to Ideogram for auto and asks QUALITY for high', async () => {
    const square = captureGenerate(generateResponse());
    ideogramCdn(red);
    const quality = captureGenerate(generateResponse());
    ideogramCdn(blue);

    const first = await generate({ prompt: 'a cat', quality: 'auto' });
    const second = await generate({ prompt: 'a cat', aspect_ratio: '4:5', quality: 'high' });

    expect(textFields(await square())).to.deep.equal({ prompt: 'a cat', aspect_ratio: '1x1', num_images: '1' });
    expect(textFields(await quality())).to.deep.equal({ prompt: 'a cat', aspect_ratio: '4x5', rendering_speed: 'QUALITY', num_images: '1' });
    expect([first.aspect_ratio, second.aspect_ratio]).to.deep.equal(['1:1', '4:5']);
  });

  it('asks for 21:9 as the nearest Ideogram resolution, 1472x640, since it has no such aspect ratio', async () => {
    const sent = captureGenerate(generateResponse([{ resolution: '1472x640' }]));
    ideogramCdn(green);

    const output = await generate({ prompt: 'a panoramic mountain range', aspect_ratio: '21:9', quality: 'medium' });

    expect(textFields(await sent())).to.deep.equal({ prompt: 'a panoramic mountain range', resolution: '1472x640', rendering_speed: 'DEFAULT', num_images: '1' });
    expect(output.aspect_ratio).to.equal('21:9');
    expect(harness.checkOutput('image.generate', output)).to.deep.equal([]);
  });

  it('sends a style that names a style type or a preset as that field, and any other style as a hint in the prompt', async () => {
    const type = captureGenerate(generateResponse());
    ideogramCdn(red);
    const preset = captureGenerate(generateResponse());
    ideogramCdn(red);
    const hint = captureGenerate(generateResponse());
    ideogramCdn(red);

    await generate({ prompt: 'a lighthouse', style: 'realistic' });
    await generate({ prompt: 'a lighthouse', style: 'Oil painting' });
    await generate({ prompt: 'a lighthouse', style: 'ink and watercolour, muted palette' });

    expect(textFields(await type())).to.deep.equal({ prompt: 'a lighthouse', aspect_ratio: '1x1', style_type: 'REALISTIC', num_images: '1' });
    expect(textFields(await preset())).to.deep.equal({ prompt: 'a lighthouse', aspect_ratio: '1x1', style_preset: 'OIL_PAINTING', num_images: '1' });
    // multipart/form-data sends every line break of a text field as CRLF (https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#multipart/form-data-encoding-algorithm).
    expect(textFields(await hint())).to.deep.equal({ prompt: 'a lighthouse\r\nStyle: ink and watercolour, muted palette', aspect_ratio: '1x1', num_images: '1' });
  });

  it('uploads the reference images as style_reference_images files, in order; the prompt balance has no Ideogram field', async () => {
    const jpeg = Buffer.from('ffd8ffe000104a46494600', 'hex');
    nock(INPUTS).get('/inputs/subject.png').reply(200, blue, { 'content-type': 'image/png' });
    nock(INPUTS).get('/inputs/style.jpg').reply(200, jpeg, { 'content-type': 'image/jpeg' });
    const sent = captureGenerate(generateResponse());
    ideogramCdn(red);

    const output = await generate({ prompt: 'the subject in the style', reference_image_urls: [`${INPUTS}/inputs/subject.png`, `${INPUTS}/inputs/style.jpg`], reference_prompt_balance: 0.8 });

    const form = await sent();
    expect(textFields(form)).to.deep.equal({ prompt: 'the subject in the style', aspect_ratio: '1x1', num_images: '1' });
    expect(await files(form, 'style_reference_images')).to.deep.equal([
      { name: 'reference-1.png', type: 'image/png', bytes: blue },
      { name: 'reference-2.jpg', type: 'image/jpeg', bytes: jpeg },
    ]);
    expect(harness.checkOutput('image.generate', output)).to.deep.equal([]);
  });

  describe('refuses, without calling Ideogram, what it would turn away', () => {
    it('a reference image that is not JPEG, PNG or WebP', async () => {
      nock(INPUTS).get('/inputs/anim.gif').reply(200, Buffer.from('GIF89a'), { 'content-type': 'image/gif' });
      const api = ideogramApi().post(GENERATE_PATH).reply(200, generateResponse());

      await expectRefusedBeforeSending(generate({ prompt: 'x', reference_image_urls: [`${INPUTS}/inputs/anim.gif`] }), 'ideogram: reference_image_urls[0] is image/gif; Ideogram takes JPEG, PNG or WebP reference images', api);
    });

    it('reference images of more than 10 MB together', async () => {
      const sixMegabytes = Buffer.alloc(6 * 1024 * 1024);
      nock(INPUTS).get('/inputs/a.png').reply(200, sixMegabytes, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/b.png').reply(200, sixMegabytes, { 'content-type': 'image/png' });
      const api = ideogramApi().post(GENERATE_PATH).reply(200, generateResponse());

      const error = await failure(generate({ prompt: 'x', reference_image_urls: [`${INPUTS}/inputs/a.png`, `${INPUTS}/inputs/b.png`] }));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('ideogram: the reference images come to more than 10 MB; Ideogram takes at most 10 MB of them in all');
      expect(api.isDone()).to.equal(false);
    });
  });

  it('fails permanently, without fetching anything, when Ideogram withholds the image as unsafe', async () => {
    ideogramApi().post(GENERATE_PATH).reply(200, generateResponse([{ is_image_safe: false, url: null }]));
    const cdn = ideogramCdn(red);

    const error = await failure(generate({ prompt: 'a cat' }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal("ideogram: the image failed Ideogram's safety check and was withheld");
    expect(error.details.vendorCode).to.equal('image_unsafe');
    expect(cdn.isDone()).to.equal(false);
  });

  it('fails permanently when a safe image has no link', async () => {
    ideogramApi().post(GENERATE_PATH).reply(200, generateResponse([{ url: null }]));

    const error = await failure(generate({ prompt: 'a cat' }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('ideogram: malformed response: data.0.url is missing or not a string');
  });
});
