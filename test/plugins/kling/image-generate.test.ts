import { expect } from 'chai';
import nock from 'nock';
import klingPlugin from '../../../plugins/kling/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { CDN, CONFIG, failure, HOSTED, klingApi, REQUEST_ID, submitted, taskAnswer, useKlingHarness } from './kling-test-kit.js';

const OPERATION = 'image.generate';
const MODEL = 'kling-image';
const TASK_ID = 'CjMT7WdSwWcAAAAAALvB3g';
const PNG_A = Buffer.from('\x89PNG\r\n\x1a\n first kling image');
const PNG_B = Buffer.from('\x89PNG\r\n\x1a\n second kling image');

describe('kling plugin: image.generate (kling-image)', () => {
  const harness = useKlingHarness();

  it('creates a task with the route model, the first reference image, a lower-case resolution and n = 1', async () => {
    const api = klingApi()
      .post('/v1/images/generations', {
        model_name: 'kling-v2-1',
        prompt: 'isometric city block, pastel colours',
        image: 'https://example.com/inputs/ref.png',
        image_fidelity: 0.7,
        resolution: '2k',
        aspect_ratio: '16:9',
        n: 1,
        external_task_id: REQUEST_ID,
      })
      .reply(200, submitted(TASK_ID));

    const result = await harness().start(
      OPERATION,
      {
        prompt: 'isometric city block, pastel colours',
        model: MODEL,
        aspect_ratio: '16:9',
        resolution: '2k',
        reference_image_urls: ['https://example.com/inputs/ref.png'],
        reference_prompt_balance: 0.7,
        style: 'photorealistic',
      },
      MODEL,
    );

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '16:9' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends 1:1 when no aspect ratio is given, and no image fidelity without a reference image', async () => {
    const api = klingApi()
      .post('/v1/images/generations', { model_name: 'kling-v2-1', prompt: 'a lighthouse', aspect_ratio: '1:1', n: 1, external_task_id: REQUEST_ID })
      .reply(200, submitted(TASK_ID));

    const result = await harness().start(OPERATION, { prompt: 'a lighthouse', model: MODEL, reference_prompt_balance: 0.2 }, MODEL);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '1:1' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('stays pending while Kling works, then hosts every image and keeps the vendor URLs for reference', async () => {
    const urlA = `${CDN}/kcdn/cdn-kcdn112452/kling-qa-test/a.png`;
    const urlB = `${CDN}/kcdn/cdn-kcdn112452/kling-qa-test/b.png`;
    const api = klingApi()
      .get(`/v1/images/generations/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'submitted'))
      .get(`/v1/images/generations/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'processing'))
      .get(`/v1/images/generations/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'succeed', { task_result: { images: [{ index: 0, url: urlA }, { index: 1, url: urlB }] } }));
    const cdn = nock(CDN)
      .get('/kcdn/cdn-kcdn112452/kling-qa-test/a.png')
      .reply(200, PNG_A, { 'content-type': 'image/png' })
      .get('/kcdn/cdn-kcdn112452/kling-qa-test/b.png')
      .reply(200, PNG_B, { 'content-type': 'image/png' });
    const handle = { taskId: TASK_ID, state: { aspect_ratio: '16:9' } };

    expect(await harness().status(OPERATION, handle, MODEL)).to.deep.equal({ pending: {} });
    expect(await harness().status(OPERATION, handle, MODEL)).to.deep.equal({ pending: {} });
    const result = await harness().status(OPERATION, handle, MODEL);

    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    const output = result.done;
    const imageUrls = output.image_urls as string[];
    expect(imageUrls).to.have.length(2);
    for (const url of imageUrls) expect(url).to.match(HOSTED);
    expect(output).to.deep.equal({
      task_id: TASK_ID,
      asset_type: 'image',
      status: 'succeeded',
      image_url: imageUrls[0],
      image_urls: imageUrls,
      provider_image_urls: [urlA, urlB],
      provider_image_count: 2,
      provider: 'kling',
      model: MODEL,
      aspect_ratio: '16:9',
    });
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
    expect(await harness().hostedBytes(imageUrls[0])).to.deep.equal(PNG_A);
    expect(await harness().hostedBytes(imageUrls[1])).to.deep.equal(PNG_B);
    expect(api.isDone() && cdn.isDone()).to.equal(true);
  });

  it('reports a failed task with Kling\'s reason', async () => {
    klingApi()
      .get(`/v1/images/generations/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'failed', { task_status_msg: 'Failure to pass the risk control system' }));

    const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { aspect_ratio: '1:1' } }, MODEL);

    expect(result).to.deep.equal({ failed: 'kling: Failure to pass the risk control system' });
  });

  it('fails permanently when a succeeded task has no images', async () => {
    klingApi().get(`/v1/images/generations/${TASK_ID}`).reply(200, taskAnswer(TASK_ID, 'succeed', { task_result: { images: [] } }));

    const error = await failure(harness().status(OPERATION, { taskId: TASK_ID, state: {} }, MODEL));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('kling: malformed response: data.task_result.images is missing or not a non-empty array');
  });

  it('uses base_url when one is configured (a proxy prefix is kept)', async () => {
    const proxied = await createPluginHarness(klingPlugin, { ...CONFIG, base_url: 'https://kling-proxy.example.com/kling' });
    const api = nock('https://kling-proxy.example.com').post('/kling/v1/images/generations').reply(200, submitted(TASK_ID));
    try {
      const result = await proxied.start(OPERATION, { prompt: 'a lighthouse', model: MODEL }, MODEL);

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '1:1' } } });
      expect(api.isDone()).to.equal(true);
    } finally {
      await proxied.close();
    }
  });
});
