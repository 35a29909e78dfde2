import { expect } from 'chai';
import nock from 'nock';
import bfl, { type BflConfig } from '../../../plugins/bfl/index.js';
import { createVendorHttp, type PluginContext } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { failure, HOSTED_URL, usePluginHarness } from '../../support/vendor-conformance.js';
import { bflApi, CLUSTER, CONFIG, INPUTS, JPEG, POLLING_URL, ready, result, serveSample, submitted, TASK_ID, withKey } from './bfl-test-kit.js';

const OPERATION = 'image.edit';
const MODEL = 'flux-kontext-pro';
const SOURCE = `${INPUTS}/inputs/source.png`;

describe('bfl plugin: image.edit (flux-kontext-pro)', () => {
  let harness: PluginHarness;
  usePluginHarness(bfl, CONFIG, (created) => (harness = created));

  it('sends the instruction and the source URL, and no aspect ratio when none is asked (the edit keeps the source shape)', async () => {
    let sent: unknown;
    bflApi()
      .post('/v1/flux-kontext-pro', (body) => ((sent = body), true))
      .reply(200, submitted());
    // BFL fetches the source itself; the gateway does not download it.
    const source = nock(INPUTS).get('/inputs/source.png').reply(200, JPEG);

    const started = await harness.start(OPERATION, { prompt: 'replace the background with a beach at sunset', image_url: SOURCE, model: MODEL, resolution: '1K' }, MODEL);

    expect(sent).to.deep.equal({ prompt: 'replace the background with a beach at sunset', input_image: SOURCE });
    expect(started).to.deep.equal({ task: { taskId: TASK_ID, state: { polling_url: POLLING_URL } } });
    expect(source.isDone()).to.equal(false);
  });

  it('passes a requested aspect ratio', async () => {
    let sent: unknown;
    bflApi()
      .post('/v1/flux-kontext-pro', (body) => ((sent = body), true))
      .reply(200, submitted());

    await harness.start(OPERATION, { prompt: 'make it a wide cinema still', image_url: SOURCE, model: MODEL, aspect_ratio: '16:9' }, MODEL);

    expect(sent).to.deep.equal({ prompt: 'make it a wide cinema still', input_image: SOURCE, aspect_ratio: '16:9' });
  });

  it('stays pending, then hosts the edited image as the image.edit output', async () => {
    const task = { taskId: TASK_ID, state: { polling_url: POLLING_URL } };
    withKey(CLUSTER).get(`/v1/get_result?id=${TASK_ID}`).reply(200, result('Pending')).get(`/v1/get_result?id=${TASK_ID}`).reply(200, ready());
    serveSample();

    expect(await harness.status(OPERATION, task, MODEL)).to.deep.equal({ pending: {} });
    const finished = await harness.status(OPERATION, task, MODEL);

    if (!('done' in finished)) throw new Error(`expected done, got ${JSON.stringify(finished)}`);
    const imageUrl = String(finished.done.image_url);
    expect(imageUrl).to.match(HOSTED_URL);
    expect(finished.done).to.deep.equal({ task_id: TASK_ID, asset_type: 'image', status: 'succeeded', provider: 'bfl', model: MODEL, image_url: imageUrl });
    expect(harness.checkOutput(OPERATION, finished.done)).to.deep.equal([]);
    expect(await harness.hostedBytes(imageUrl)).to.deep.equal(JPEG);
  });

  it('refuses to edit with a model that only generates (FLUX1.1 [pro]), before calling BFL', async () => {
    // Only a route to another vendor model reaches this; the manifest routes image.edit to Kontext, so the
    // handler is called directly with a bare context (it must fail before it needs anything else).
    const ctx = { config: CONFIG, http: (options) => createVendorHttp(options) } as Pick<PluginContext<BflConfig>, 'config' | 'http'> as PluginContext<BflConfig>;
    const untouched = bflApi().post('/v1/flux-pro-1.1').reply(200, submitted());

    const error = await failure(bfl.operations[OPERATION].start({ prompt: 'make it blue', image_url: SOURCE }, ctx, { model: 'flux-1.1-pro', vendorModel: 'flux-pro-1.1', publicName: 'flux-1.1-pro' }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('bfl: flux-pro-1.1 generates from a prompt and cannot edit an image');
    expect(untouched.isDone()).to.equal(false);
  });
});
