import { expect } from 'chai';
import recraft from '../../../plugins/recraft/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, expectRefusedBeforeSending, failure, threePngs, usePluginHarness } from '../../support/vendor-conformance.js';
import { CONFIG, generationsResponse, GENERATIONS_PATH, IMAGE_ID, IMAGE_URL, INPUTS, recraftApi, recraftCdn } from './recraft-test-kit.js';

const MODEL = 'recraft-v3';

describe('recraft plugin: image.generate (Recraft V3)', () => {
  let harness: PluginHarness;
  usePluginHarness(recraft, CONFIG, (fresh) => (harness = fresh));
  let red: Buffer, blue: Buffer;
  before(async () => {
    [red, blue] = await threePngs();
  });

  async function generate(input: JsonObject): Promise<JsonObject> {
    const result = await harness.start('image.generate', { model: MODEL, ...input }, MODEL);
    if (!('done' in result)) throw new Error(`expected a finished output, got ${JSON.stringify(result)}`);
    return result.done;
  }

  it('sends the prompt, recraftv3, the V3 size of 16:9, a style with its substyle, n = 1 and URL answers with the Bearer key; hosts the image under its image_id', async () => {
    const api = recraftApi()
      .post(GENERATIONS_PATH, {
        prompt: 'a friendly cartoon fox on a green hill',
        model: 'recraftv3',
        size: '1820x1024',
        style: 'digital_illustration',
        substyle: 'hand_drawn',
        n: 1,
        response_format: 'url',
      })
      .matchHeader('content-type', 'application/json')
      .reply(200, generationsResponse());
    const cdn = recraftCdn(red, 'image/webp');

    const output = await generate({ prompt: 'a friendly cartoon fox on a green hill', aspect_ratio: '16:9', style: 'digital_illustration/hand_drawn', resolution: '1K', quality: 'high' });

    await expectImageOutput(harness, 'image.generate', output, { provider: 'recraft', model: MODEL, taskId: IMAGE_ID, aspectRatio: '16:9', providerUrls: [IMAGE_URL] }, [red]);
    expect(output.image_url).to.match(/\.webp$/);
    expect(api.isDone() && cdn.isDone()).to.equal(true);
  });

  it('renders 1024x1024 when no shape is given, reads a style family by its display name, and folds any other style into the prompt', async () => {
    const family = recraftApi()
      .post(GENERATIONS_PATH, { prompt: 'a lighthouse', model: 'recraftv3', size: '1024x1024', style: 'realistic_image', n: 1, response_format: 'url' })
      .reply(200, generationsResponse());
    const hint = recraftApi()
      .post(GENERATIONS_PATH, { prompt: 'a lighthouse\nStyle: Photorealism', model: 'recraftv3', size: '1024x1365', n: 1, response_format: 'url' })
      .reply(200, generationsResponse());
    recraftCdn(red);
    recraftCdn(blue, 'image/png');

    const first = await generate({ prompt: 'a lighthouse', style: 'Realistic image' });
    const second = await generate({ prompt: 'a lighthouse', aspect_ratio: '3:4', style: 'Photorealism' });

    expect([first.aspect_ratio, second.aspect_ratio]).to.deep.equal(['1:1', '3:4']);
    expect(second.image_url).to.match(/\.png$/);
    expect(await harness.hostedBytes(second.image_url as string)).to.deep.equal(blue);
    expect(family.isDone() && hint.isDone()).to.equal(true);
  });

  describe('refuses, without calling Recraft, what Recraft V3 cannot honour', () => {
    const refusals: Array<[string, JsonObject, string]> = [
      ['21:9, which V3 has no size for', { aspect_ratio: '21:9' }, 'recraft: recraft-v3 does not render 21:9 (its aspect ratios are 1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9)'],
      ['a vector style, whose SVG answer is another product', { style: 'vector_illustration/line_art' }, 'recraft: the vector_illustration style renders vector (SVG) images, which recraft-v3 does not offer; use a raster style (any, realistic_image, digital_illustration, logo_raster)'],
      ['reference images', { reference_image_urls: [`${INPUTS}/inputs/style.png`] }, 'recraft: recraft-v3 takes no reference images'],
      ['a prompt of more than 1000 bytes', { prompt: 'é'.repeat(501) }, 'recraft: the prompt (with any style hint) is 1002 bytes; Recraft V3 takes at most 1000'],
    ];
    for (const [what, input, message] of refusals) {
      it(what, async () => {
        const api = recraftApi().post(GENERATIONS_PATH).reply(200, generationsResponse());

        await expectRefusedBeforeSending(generate({ prompt: 'a fox', ...input }), message, api);
      });
    }
  });

  it("passes Recraft's documented plain-text 401 on as the message, permanently", async () => {
    recraftApi().post(GENERATIONS_PATH).reply(401, 'request unauthorized', { 'content-type': 'text/plain' });

    const error = await failure(generate({ prompt: 'a fox' }));

    expect(error.retryable).to.equal(false);
    expect(error.details.vendorStatus).to.equal(401);
    expect(error.message).to.equal('recraft: request unauthorized (HTTP 401 on POST /v1/images/generations)');
  });

  it('fails permanently when an image has no image_id', async () => {
    recraftApi().post(GENERATIONS_PATH).reply(200, { created: 1698916476, credits: 40, data: [{ url: IMAGE_URL }] });

    const error = await failure(generate({ prompt: 'a fox' }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('recraft: malformed response: data.0.image_id is missing or not a string');
  });
});
