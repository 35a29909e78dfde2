import { expect } from 'chai';
import nock from 'nock';
import openai from '../../../plugins/openai/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { CONFIG, imagesResponse, INPUTS, openAIApi } from './openai-test-kit.js';
import { expectImageOutput, threePngs, readMultipart, useNock } from '../../support/vendor-conformance.js';

/** Captures the multipart body and its content type of one images/edits call. */
function captureEdit(reply: Record<string, unknown>): () => Promise<FormData> {
  let body: unknown;
  let contentType = '';
  openAIApi()
    .matchHeader('content-type', (value) => ((contentType = String(value)), /^multipart\/form-data; boundary=/.test(contentType)))
    .post('/v1/images/edits', (sent) => ((body = sent), true))
    .reply(200, reply);
  return () => readMultipart(body, contentType);
}

async function fileBytes(form: FormData, field: string): Promise<Array<{ name: string; type: string; bytes: Buffer }>> {
  return Promise.all(
    form.getAll(field).map(async (entry) => {
      const file = entry as File;
      return { name: file.name, type: file.type, bytes: Buffer.from(await file.arrayBuffer()) };
    }),
  );
}

describe('openai plugin: GPT image (images API)', () => {
  useNock();
  let harness: PluginHarness;
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => {
    [red, blue, green] = await threePngs();
    harness = await createPluginHarness(openai, CONFIG);
  });
  after(() => harness.close());

  describe('image.generate (POST /v1/images/generations)', () => {
    it('maps prompt, aspect ratio and quality, and hosts the base64 image', async () => {
      openAIApi()
        .post('/v1/images/generations', { prompt: 'a ceramic mug on a wooden table', model: 'gpt-image-1', n: 1, size: '1536x1024', quality: 'low' })
        .reply(200, imagesResponse([red]));

      const result = await harness.start('image.generate', { prompt: 'a ceramic mug on a wooden table', model: 'gpt-image-1', aspect_ratio: '3:2', quality: 'low', resolution: '1K' }, 'gpt-image-1');

      const output = (result as { done: JsonObject }).done;
      expect(output.image_url).to.match(/\.png$/);
      await expectImageOutput(harness, 'image.generate', output, { provider: 'openai', model: 'gpt-image-1', taskId: /^openai_[0-9a-f]{24}$/, aspectRatio: '3:2' }, [red]);
    });

    it('renders 1:1 when no aspect ratio is given, 1024x1536 for portrait, and folds a style hint into the prompt', async () => {
      openAIApi().post('/v1/images/generations', { prompt: 'a fox', model: 'gpt-image-1', n: 1, size: '1024x1024' }).reply(200, imagesResponse([red]));
      openAIApi()
        .post('/v1/images/generations', { prompt: 'a fox\nStyle: watercolour', model: 'gpt-image-1', n: 1, size: '1024x1536' })
        .reply(200, imagesResponse([blue, green], 'webp'));

      const square = (await harness.start('image.generate', { prompt: 'a fox', model: 'gpt-image-1' }, 'gpt-image-1')) as { done: JsonObject };
      const portrait = (await harness.start('image.generate', { prompt: 'a fox', model: 'gpt-image-1', aspect_ratio: '2:3', style: 'watercolour' }, 'gpt-image-1')) as { done: JsonObject };

      expect(square.done.aspect_ratio).to.equal('1:1');
      const urls = portrait.done.image_urls as string[];
      expect(urls.map((url) => url.slice(url.lastIndexOf('.')))).to.deep.equal(['.webp', '.webp']);
      await expectImageOutput(harness, 'image.generate', portrait.done, { provider: 'openai', model: 'gpt-image-1', taskId: /^openai_/, aspectRatio: '2:3' }, [blue, green]);
    });

    it('sends reference images to the edits endpoint as image[] files, with input_fidelity from the balance', async () => {
      nock(INPUTS).get('/inputs/subject.png').reply(200, blue, { 'content-type': 'image/png' });
      nock(INPUTS).get('/inputs/style.png').reply(200, green, { 'content-type': 'image/png' });
      const sent = captureEdit(imagesResponse([red]));

      const result = (await harness.start(
        'image.generate',
        { prompt: 'the subject in the style', model: 'gpt-image-1', aspect_ratio: '3:2', reference_image_urls: [`${INPUTS}/inputs/subject.png`, `${INPUTS}/inputs/style.png`], reference_prompt_balance: 0.8 },
        'gpt-image-1',
      )) as { done: JsonObject };

      const form = await sent();
      expect([...new Set(form.keys())].sort()).to.deep.equal(['image[]', 'input_fidelity', 'model', 'prompt', 'size']);
      expect(form.get('model')).to.equal('gpt-image-1');
      expect(form.get('prompt')).to.equal('the subject in the style');
      expect(form.get('size')).to.equal('1536x1024');
      expect(form.get('input_fidelity')).to.equal('high');
      expect(await fileBytes(form, 'image[]')).to.deep.equal([
        { name: 'image-1.png', type: 'image/png', bytes: blue },
        { name: 'image-2.png', type: 'image/png', bytes: green },
      ]);
      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'openai', model: 'gpt-image-1', taskId: /^openai_/, aspectRatio: '3:2' }, [red]);
    });
  });

  describe('image.edit (POST /v1/images/edits)', () => {
    it('uploads the source as the image file with prompt and model, keeping its shape when no aspect ratio is given', async () => {
      nock(INPUTS).get('/inputs/source.png').reply(200, blue, { 'content-type': 'image/png' });
      const sent = captureEdit(imagesResponse([green]));

      const result = await harness.start('image.edit', { prompt: 'make it look like a watercolour painting', image_url: `${INPUTS}/inputs/source.png`, model: 'gpt-image-1' }, 'gpt-image-1');

      const form = await sent();
      expect([...new Set(form.keys())].sort()).to.deep.equal(['image', 'model', 'prompt']);
      expect(form.get('model')).to.equal('gpt-image-1');
      expect(form.get('prompt')).to.equal('make it look like a watercolour painting');
      expect(await fileBytes(form, 'image')).to.deep.equal([{ name: 'image-1.png', type: 'image/png', bytes: blue }]);
      await expectImageOutput(harness, 'image.edit', (result as { done: JsonObject }).done, { provider: 'openai', model: 'gpt-image-1', taskId: /^openai_[0-9a-f]{24}$/ }, [green]);
    });

    it('sends the size of a requested aspect ratio and names a JPEG source by its type', async () => {
      const jpeg = Buffer.from('ffd8ffe000104a46494600', 'hex');
      nock(INPUTS).get('/inputs/photo.jpg').reply(200, jpeg, { 'content-type': 'image/jpeg' });
      const sent = captureEdit(imagesResponse([red]));

      await harness.start('image.edit', { prompt: 'replace the sky with a sunset', image_url: `${INPUTS}/inputs/photo.jpg`, model: 'gpt-image-1', aspect_ratio: '2:3' }, 'gpt-image-1');

      const form = await sent();
      expect(form.get('size')).to.equal('1024x1536');
      expect(await fileBytes(form, 'image')).to.deep.equal([{ name: 'image-1.jpeg', type: 'image/jpeg', bytes: jpeg }]);
    });

    it('fails permanently, without calling OpenAI, when the source cannot be fetched', async () => {
      nock(INPUTS).get('/inputs/missing.png').reply(404);
      const error = await harness.start('image.edit', { prompt: 'x', image_url: `${INPUTS}/inputs/missing.png`, model: 'gpt-image-1' }, 'gpt-image-1').then(
        () => undefined,
        (reason: { retryable?: boolean; message?: string }) => reason,
      );
      expect(error?.retryable).to.equal(false);
      expect(error?.message).to.include('HTTP 404');
    });
  });
});
