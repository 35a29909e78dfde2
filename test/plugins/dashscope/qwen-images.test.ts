/**
 * Qwen-Image (image.generate) and Qwen-Image-Edit (image.edit) on DashScope's synchronous multimodal-generation
 * endpoint: the exact request each sends, the output built from the hosted copy, and the inputs refused before
 * anything is sent.
 */
import { expect } from 'chai';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { expectImageOutput, expectRefusedBeforeSending, pngBytes } from '../../support/vendor-conformance.js';
import { failure, HOSTED_URL, useDashScopeHarness } from './dashscope-test-kit.js';
import { generationApi, GENERATION_PATH, IMAGE_URL, REQUEST_ID, rendered, serveImage } from './qwen-test-kit.js';

const SOURCE = 'https://example.com/inputs/source.png';

describe('dashscope plugin: Qwen image models (multimodal-generation)', () => {
  const harness = useDashScopeHarness();
  let png: Buffer;
  before(async () => void (png = await pngBytes('#3366ff', 8, 5)));

  describe('image.generate (qwen-image)', () => {
    it("sends the prompt as the only content with the 16:9 size and no watermark, hosts the PNG and keeps DashScope's link as the provider URL", async () => {
      const api = generationApi()
        .post(GENERATION_PATH, {
          model: 'qwen-image',
          input: { messages: [{ role: 'user', content: [{ text: 'a bookstore window with a sign that reads "New Arrivals"' }] }] },
          parameters: { watermark: false, size: '1664*928' },
        })
        .reply(200, rendered(1664, 928));
      const oss = serveImage(png);

      const result = await harness().start('image.generate', { prompt: 'a bookstore window with a sign that reads "New Arrivals"', model: 'qwen-image', aspect_ratio: '16:9', resolution: '1K', quality: 'high' }, 'qwen-image');

      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      await expectImageOutput(harness(), 'image.generate', result.done, { provider: 'dashscope', model: 'qwen-image', taskId: REQUEST_ID, aspectRatio: '16:9', providerUrls: [IMAGE_URL] }, [png]);
      expect(result.done.image_url).to.match(/\.png$/);
      expect(api.isDone() && oss.isDone()).to.equal(true);
    });

    const sizes: Array<[string, string]> = [
      ['4:3', '1472*1140'],
      ['1:1', '1328*1328'],
      ['3:4', '1140*1472'],
      ['9:16', '928*1664'],
    ];
    for (const [ratio, size] of sizes) {
      it(`renders ${ratio} as ${size}`, async () => {
        const api = generationApi()
          .post(GENERATION_PATH, (body: JsonObject) => (body.parameters as JsonObject).size === size)
          .reply(200, rendered());
        serveImage(png);

        const result = await harness().start('image.generate', { prompt: 'p', model: 'qwen-image', aspect_ratio: ratio }, 'qwen-image');

        expect(result).to.have.nested.property('done.aspect_ratio', ratio);
        expect(api.isDone()).to.equal(true);
      });
    }

    it("sends the vendor's default 1:1 size when no aspect ratio is asked, and a style hint joins the prompt", async () => {
      const api = generationApi()
        .post(GENERATION_PATH, {
          model: 'qwen-image',
          input: { messages: [{ role: 'user', content: [{ text: 'isometric city block\nStyle: pastel colours' }] }] },
          parameters: { watermark: false, size: '1328*1328' },
        })
        .reply(200, rendered(1328, 1328));
      serveImage(png);

      const result = await harness().start('image.generate', { prompt: 'isometric city block', model: 'qwen-image', style: ' pastel colours ' }, 'qwen-image');

      expect(result).to.have.nested.property('done.aspect_ratio', '1:1');
      expect(api.isDone()).to.equal(true);
    });

    const refusals: Array<{ name: string; input: JsonObject; message: string }> = [
      {
        name: 'reference images (qwen-image renders from the prompt alone)',
        input: { reference_image_urls: ['https://example.com/inputs/style.png'], reference_prompt_balance: 0.5 },
        message: 'dashscope: qwen-image renders from the prompt alone and takes no reference_image_urls',
      },
      { name: 'a shape qwen-image has no size for', input: { aspect_ratio: '21:9' }, message: 'dashscope: qwen-image renders 16:9, 4:3, 1:1, 3:4, 9:16 only, not 21:9' },
    ];
    for (const { name, input, message } of refusals) {
      it(`refuses ${name} before anything is sent`, async () => {
        const anyCall = generationApi().post(/.*/).reply(200, rendered());

        await expectRefusedBeforeSending(harness().start('image.generate', { prompt: 'p', model: 'qwen-image', ...input }, 'qwen-image'), message, anyCall);
      });
    }
  });

  describe('image.edit (qwen-image-edit)', () => {
    it('sends the source image, then the instruction, with no watermark and no size (the edit keeps the source shape); hosts the PNG', async () => {
      const api = generationApi()
        .post(GENERATION_PATH, {
          model: 'qwen-image-edit',
          input: { messages: [{ role: 'user', content: [{ image: SOURCE }, { text: 'replace the dotted shirt with a light blue shirt' }] }] },
          parameters: { watermark: false },
        })
        .reply(200, rendered(1024, 1024));
      const oss = serveImage(png);

      const result = await harness().start('image.edit', { prompt: 'replace the dotted shirt with a light blue shirt', image_url: SOURCE, model: 'qwen-image-edit', resolution: '1K' }, 'qwen-image-edit');

      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      const output = result.done;
      expect(output.image_url).to.match(HOSTED_URL).and.match(/\.png$/);
      expect(output).to.deep.equal({ task_id: REQUEST_ID, asset_type: 'image', status: 'succeeded', provider: 'dashscope', model: 'qwen-image-edit', image_url: output.image_url });
      expect(harness().checkOutput('image.edit', output)).to.deep.equal([]);
      expect(await harness().hostedBytes(output.image_url as string)).to.deep.equal(png);
      expect(api.isDone() && oss.isDone()).to.equal(true);
    });

    it("refuses an aspect ratio before anything is sent: the edit keeps the source's shape", async () => {
      const anyCall = generationApi().post(/.*/).reply(200, rendered());

      const error = await failure(harness().start('image.edit', { prompt: 'p', image_url: SOURCE, model: 'qwen-image-edit', aspect_ratio: '16:9' }, 'qwen-image-edit'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal("dashscope: qwen-image-edit keeps the source image's shape and cannot render aspect_ratio 16:9: drop aspect_ratio");
      expect(anyCall.isDone()).to.equal(false);
    });

    it("states our request id as the task when DashScope's answer has no request_id", async () => {
      const { request_id: _omitted, ...answer } = rendered();
      generationApi().post(GENERATION_PATH).reply(200, answer);
      serveImage(png);

      const result = await harness().start('image.edit', { prompt: 'p', image_url: SOURCE, model: 'qwen-image-edit' }, 'qwen-image-edit');

      expect(result).to.have.nested.property('done.task_id').that.matches(/^req_/);
    });
  });
});
