import { expect } from 'chai';
import nock from 'nock';
import google from '../../../plugins/google/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, failure, threePngs, useNock } from '../../support/vendor-conformance.js';
import { CONFIG, FLASH_PATH, geminiApi, generateContentResponse, inlineImage, INPUTS, PRO_PATH } from './google-test-kit.js';

describe('google plugin: Gemini image models (generateContent)', () => {
  useNock();
  let harness: PluginHarness;
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => {
    [red, blue, green] = await threePngs();
    harness = await createPluginHarness(google, CONFIG);
  });
  after(() => harness.close());

  describe('image.generate', () => {
    it('nano-banana-pro: sends the prompt with aspect ratio and image size, hosts the inline image, keeps the response id', async () => {
      geminiApi()
        .post(PRO_PATH, {
          contents: [{ parts: [{ text: 'a red bicycle leaning on a white wall, morning light' }] }],
          generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '16:9', imageSize: '2K' } },
        })
        .matchHeader('content-type', 'application/json')
        .reply(200, generateContentResponse([inlineImage(red)], 'resp-16x9'));

      const result = await harness.start('image.generate', { prompt: 'a red bicycle leaning on a white wall, morning light', model: 'nano-banana-pro', aspect_ratio: '16:9', resolution: '2K' }, 'nano-banana-pro');

      const output = (result as { done: JsonObject }).done;
      expect(output.image_url).to.match(/\.png$/);
      await expectImageOutput(harness, 'image.generate', output, { provider: 'google', model: 'nano-banana-pro', taskId: 'resp-16x9', aspectRatio: '16:9' }, [red]);
    });

    it('nano-banana: sends 1:1 when no aspect ratio is given and no image size (Gemini 2.5 Flash Image has none); a style hint joins the prompt', async () => {
      geminiApi()
        .post(FLASH_PATH, { contents: [{ parts: [{ text: 'isometric city block\nStyle: pastel colours' }] }], generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '1:1' } } })
        .reply(200, generateContentResponse([inlineImage(blue, 'image/jpeg')], 'resp-flash'));

      const result = (await harness.start('image.generate', { prompt: 'isometric city block', model: 'nano-banana', resolution: '1K', style: 'pastel colours' }, 'nano-banana')) as { done: JsonObject };

      expect(result.done.image_url).to.match(/\.jpeg$/);
      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'google', model: 'nano-banana', taskId: 'resp-flash', aspectRatio: '1:1' }, [blue]);
    });

    it('sends reference images as inline parts after the prompt', async () => {
      nock(INPUTS).get('/inputs/subject.png').reply(200, blue, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/style.jpg').reply(200, green, { 'content-type': 'image/jpeg' });
      geminiApi()
        .post(PRO_PATH, {
          contents: [{ parts: [{ text: 'the subject in the style' }, inlineImage(blue), inlineImage(green, 'image/jpeg')] }],
          generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '4:5' } },
        })
        .reply(200, generateContentResponse([inlineImage(red)]));

      const result = (await harness.start(
        'image.generate',
        { prompt: 'the subject in the style', model: 'nano-banana-pro', aspect_ratio: '4:5', reference_image_urls: [`${INPUTS}/inputs/subject.png`, `${INPUTS}/inputs/style.jpg`], reference_prompt_balance: 0.7 },
        'nano-banana-pro',
      )) as { done: JsonObject };

      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'google', model: 'nano-banana-pro', taskId: 'deO6aLeTE4fYvdIPuIm_kQQ', aspectRatio: '4:5' }, [red]);
    });

    it('skips interim thought images and text, and hosts every final image', async () => {
      geminiApi()
        .post(PRO_PATH)
        .reply(200, generateContentResponse([{ ...inlineImage(blue), thought: true }, { text: 'Here you go.' }, inlineImage(red), inlineImage(green)]));

      const result = (await harness.start('image.generate', { prompt: 'two variations of a logo', model: 'nano-banana-pro' }, 'nano-banana-pro')) as { done: JsonObject };

      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'google', model: 'nano-banana-pro', taskId: 'deO6aLeTE4fYvdIPuIm_kQQ', aspectRatio: '1:1' }, [red, green]);
    });

    it('fails permanently with the block reason when the prompt is blocked', async () => {
      // Live capture: a blocked prompt has no candidates (vercel/ai fixture issue-19758-image-prompt-block.json).
      geminiApi().post(PRO_PATH).reply(200, { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 }, modelVersion: 'gemini-3-pro-image-preview', responseId: 'FHGPatmJMfqI1MkP28uN-Qg' });
      const error = await failure(harness.start('image.generate', { prompt: 'something forbidden', model: 'nano-banana-pro' }, 'nano-banana-pro'));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('google: the prompt was blocked (PROHIBITED_CONTENT)');
      expect(error.details.vendorCode).to.equal('PROHIBITED_CONTENT');
    });

    it('fails permanently with the finish reason when no image was rendered', async () => {
      geminiApi()
        .post(PRO_PATH)
        .reply(200, { candidates: [{ content: { parts: [{ text: "I can't create images of real people in that setting." }], role: 'model' }, finishReason: 'IMAGE_SAFETY', index: 0 }], responseId: 'r1' });
      // Live capture: a candidate with empty content and NO_IMAGE (vercel/ai fixture google-image-no-image-live.json).
      geminiApi().post(PRO_PATH).reply(200, { candidates: [{ content: {}, finishReason: 'NO_IMAGE', index: 0 }], responseId: 'r2' });

      const safety = await failure(harness.start('image.generate', { prompt: 'a famous person', model: 'nano-banana-pro' }, 'nano-banana-pro'));
      const none = await failure(harness.start('image.generate', { prompt: 'hello', model: 'nano-banana-pro' }, 'nano-banana-pro'));

      expect([safety.retryable, none.retryable]).to.deep.equal([false, false]);
      expect(safety.message).to.equal("google: no image was rendered (finishReason IMAGE_SAFETY): I can't create images of real people in that setting.");
      expect(none.message).to.equal('google: no image was rendered (finishReason NO_IMAGE)');
    });

    it('keeps the path prefix of a configured base_url', async () => {
      const proxied = await createPluginHarness(google, { ...CONFIG, base_url: 'https://proxy.example/gemini' });
      nock('https://proxy.example', { reqheaders: { 'x-goog-api-key': CONFIG.api_key } }).post(`/gemini${PRO_PATH}`).reply(200, generateContentResponse([inlineImage(red)]));
      const result = (await proxied.start('image.generate', { prompt: 'a red bicycle', model: 'nano-banana-pro' }, 'nano-banana-pro').finally(() => proxied.close())) as { done: JsonObject };
      expect(result.done.provider_image_count).to.equal(1);
    });

    it('refuses imagen-4 at once, before fetching any input: the Gemini API no longer serves Imagen', async () => {
      const input = { prompt: 'a hamster in a hat', model: 'imagen-4', reference_image_urls: [`${INPUTS}/inputs/never-fetched.png`] };
      const error = await failure(harness.start('image.generate', input, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('google: cannot render with imagen-4.0-generate-001: Imagen models are no longer served by the Gemini API');
    });
  });

  describe('image.edit', () => {
    it('sends the instruction and the source inline, with the resolution but no aspect ratio when none is asked', async () => {
      nock(INPUTS).get('/inputs/source.png').reply(200, blue, { 'content-type': 'image/png' });
      geminiApi()
        .post(PRO_PATH, {
          contents: [{ parts: [{ text: 'replace the background with a beach at sunset' }, inlineImage(blue)] }],
          generationConfig: { responseModalities: ['IMAGE'], imageConfig: { imageSize: '2K' } },
        })
        .reply(200, generateContentResponse([inlineImage(green)], 'resp-edit'));

      const result = await harness.start('image.edit', { prompt: 'replace the background with a beach at sunset', image_url: `${INPUTS}/inputs/source.png`, model: 'nano-banana-pro', resolution: '2K' }, 'nano-banana-pro');

      await expectImageOutput(harness, 'image.edit', (result as { done: JsonObject }).done, { provider: 'google', model: 'nano-banana-pro', taskId: 'resp-edit' }, [green]);
    });

    it('nano-banana: passes a requested aspect ratio', async () => {
      nock(INPUTS).get('/inputs/source.png').reply(200, blue, { 'content-type': 'image/png' });
      geminiApi()
        .post(FLASH_PATH, { contents: [{ parts: [{ text: 'make it look like a watercolour painting' }, inlineImage(blue)] }], generationConfig: { responseModalities: ['IMAGE'], imageConfig: { aspectRatio: '1:1' } } })
        .reply(200, generateContentResponse([inlineImage(red)]));

      const result = (await harness.start('image.edit', { prompt: 'make it look like a watercolour painting', image_url: `${INPUTS}/inputs/source.png`, model: 'nano-banana', aspect_ratio: '1:1', resolution: '1K' }, 'nano-banana')) as { done: JsonObject };

      await expectImageOutput(harness, 'image.edit', result.done, { provider: 'google', model: 'nano-banana', taskId: 'deO6aLeTE4fYvdIPuIm_kQQ' }, [red]);
    });
  });
});
