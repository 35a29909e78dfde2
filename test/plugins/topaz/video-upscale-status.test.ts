import { expect } from 'chai';
import nock from 'nock';
import topazPlugin from '../../../plugins/topaz/index.js';
import type { TopazConfig } from '../../../plugins/topaz/index.js';
import { createVendorHttp, type PluginContext, type ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { settledPrice } from '../../support/settled-price.js';
import { failure, HOSTED_URL, useNock } from '../../support/vendor-conformance.js';
import { completeAnswer, CONFIG, OPERATION, REQUEST_ID, SOURCE_URL, STORAGE, statusAnswer, topazApi, useTopazSuite } from './topaz-test-kit.js';

const STATUS = `/video/${REQUEST_ID}/status`;
const RESULT = Buffer.from('\x00\x00\x00\x18ftypmp42 enhanced video bytes');

/** The finished video as signed storage serves it (octet-stream, as S3 often does). */
function serveResult(): nock.Scope {
  return nock(STORAGE).get(`/${REQUEST_ID}/output.mp4`).query(true).reply(200, RESULT, { 'content-type': 'application/octet-stream' });
}

describe('topaz plugin: video.upscale status', () => {
  const { harness } = useTopazSuite();

  // As start leaves it: the probed length of the 2 s source clip.
  const task: ProviderTask = { taskId: REQUEST_ID, state: { source_seconds: 2 } };

  it('reports every pending stage with its progress over a long run, then hosts the video with the source length as usage', async () => {
    const stages: [string, number][] = [
      ['requested', 0],
      ['accepted', 0],
      ['initializing', 2],
      ['preprocessing', 5],
      ['processing', 12.5],
      ['processing', 31],
      ['processing', 54],
      ['processing', 78],
      ['processing', 96],
      ['postprocessing', 99],
    ];
    const api = topazApi();
    for (const [status, progress] of stages) api.get(STATUS).reply(200, statusAnswer(status, { progress }));
    api.get(STATUS).reply(200, completeAnswer([3, 4]));
    const storage = serveResult();

    const progress: (number | undefined)[] = [];
    for (let poll = 0; poll < stages.length; poll += 1) {
      const result = await harness().status(OPERATION, task, 'topaz-proteus');
      if (!('pending' in result)) throw new Error(`poll ${poll}: expected pending, got ${JSON.stringify(result)}`);
      progress.push(result.pending.progress);
    }
    const result = await harness().status(OPERATION, task, 'topaz-proteus');

    expect(progress).to.deep.equal([0, 0, 2, 5, 12.5, 31, 54, 78, 96, 99]);
    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    const output = result.done;
    expect(output.video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(output).to.deep.equal({
      task_id: REQUEST_ID,
      asset_type: 'video',
      status: 'succeeded',
      video_url: output.video_url,
      provider: 'topaz',
      model: 'topaz-proteus',
      requested_model: 'topaz-proteus',
      // Topaz's own cost (3 Topaz credits here) is not a price of ours: the plugin reports only the length.
      usage: { output_seconds: 2 },
    });
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
    expect(await harness().hostedBytes(String(output.video_url))).to.deep.equal(RESULT);
    expect(api.isDone() && storage.isDone()).to.equal(true);
  });

  it('settles by the manifest: a client that declared 10 s of a 2 s clip pays for 2', async () => {
    topazApi().get(STATUS).reply(200, completeAnswer()).get(STATUS).reply(200, completeAnswer());
    serveResult();
    serveResult();

    const proteus = await harness().status(OPERATION, task, 'topaz-proteus');
    const starlight = await harness().status(OPERATION, task, 'topaz-starlight');

    if (!('done' in proteus) || !('done' in starlight)) throw new Error('expected both to be done');
    // Proteus 4x: 10 s × 2 (model) × 3 (factor) = 60 quoted, 2 s × 2 × 3 = 12 settled.
    const settledProteus = await settledPrice(OPERATION, { video_url: SOURCE_URL, duration_seconds: 10, model: 'topaz-proteus', upscale_factor: 4 }, proteus.done);
    expect({ quote: settledProteus.quote, exactCost: settledProteus.exactCost }).to.deep.equal({ quote: 60, exactCost: 12 });
    expect(settledProteus.output.exact_cost_credits).to.equal(12);
    // Starlight at 60 fps: 10 s × 8 × 2 = 160 quoted, 2 s × 8 × 2 = 32 settled.
    const settledStarlight = await settledPrice(OPERATION, { video_url: SOURCE_URL, duration_seconds: 10, model: 'topaz-starlight', target_fps: 60 }, starlight.done);
    expect({ quote: settledStarlight.quote, exactCost: settledStarlight.exactCost }).to.deep.equal({ quote: 160, exactCost: 32 });
  });

  it('reports no usage for a task started without the probed length, so the quote stands', async () => {
    topazApi().get(STATUS).reply(200, completeAnswer());
    serveResult();

    const result = await harness().status(OPERATION, { taskId: REQUEST_ID, state: { estimated_topaz_credits: 2 } }, 'topaz-proteus');

    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    expect(result.done).to.not.have.property('usage');
    const settled = await settledPrice(OPERATION, { video_url: SOURCE_URL, duration_seconds: 10, model: 'topaz-proteus' }, result.done);
    expect({ exactCost: settled.exactCost, exact_cost_credits: settled.output.exact_cost_credits }).to.deep.equal({ exactCost: undefined, exact_cost_credits: settled.quote });
  });

  it('fails permanently when the finished video is larger than max_output_bytes', async () => {
    const small = await createPluginHarness(topazPlugin, { ...CONFIG, max_output_bytes: 10 });
    try {
      topazApi().get(STATUS).reply(200, completeAnswer());
      nock(STORAGE).get(`/${REQUEST_ID}/output.mp4`).query(true).reply(200, RESULT, { 'content-type': 'video/mp4', 'content-length': String(RESULT.length) });

      const error = await failure(small.status(OPERATION, task, 'topaz-proteus'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.include('more than the 10 allowed');
    } finally {
      await small.close();
    }
  });

  it('finishes without Topaz\'s cost estimate: it prices nothing of ours', async () => {
    const finished = completeAnswer();
    delete finished.estimates;
    topazApi().get(STATUS).reply(200, finished);
    serveResult();

    const result = await harness().status(OPERATION, task, 'topaz-proteus');

    expect(result).to.have.deep.nested.property('done.usage', { output_seconds: 2 });
  });

  it('fails permanently when a complete request has no download URL', async () => {
    const finished = completeAnswer();
    delete finished.download;
    topazApi().get(STATUS).reply(200, finished);

    const error = await failure(harness().status(OPERATION, task, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: malformed response: download.url is missing or not a string');
  });

  it('reports a failed request with Topaz\'s message and code', async () => {
    topazApi().get(STATUS).reply(200, statusAnswer('failed', { progress: 40, message: 'Source video could not be decoded', errorCode: 'INVALID_INPUT' }));

    expect(await harness().status(OPERATION, task, 'topaz-proteus')).to.deep.equal({ failed: 'topaz: Source video could not be decoded (INVALID_INPUT)' });
  });

  it('reports a failed request without a message plainly, and a canceled one as cancelled', async () => {
    topazApi().get(STATUS).reply(200, statusAnswer('failed')).get(STATUS).reply(200, statusAnswer('canceled'));

    expect(await harness().status(OPERATION, task, 'topaz-proteus')).to.deep.equal({ failed: 'topaz: the enhancement failed without a reason' });
    expect(await harness().status(OPERATION, task, 'topaz-proteus')).to.deep.equal({ failed: 'topaz: the request was canceled' });
  });

  it('waits through canceling', async () => {
    topazApi().get(STATUS).reply(200, statusAnswer('canceling', { progress: 20 }));

    expect(await harness().status(OPERATION, task, 'topaz-proteus')).to.deep.equal({ pending: { progress: 20 } });
  });

  it('fails permanently on a status it does not know', async () => {
    topazApi().get(STATUS).reply(200, statusAnswer('teleporting'));

    const error = await failure(harness().status(OPERATION, task, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: malformed response: status is missing or not a known status (got "teleporting")');
  });

  it('fails permanently with Topaz\'s message when the request is unknown (404)', async () => {
    topazApi().get(STATUS).reply(404, { message: 'Enhancement request with the provided ID not found' });

    const error = await failure(harness().status(OPERATION, task, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`topaz: Enhancement request with the provided ID not found (HTTP 404 on GET /video/${REQUEST_ID}/status)`);
  });

  it('keeps a poll that hits maintenance retryable, whatever the status code', async () => {
    topazApi().get(STATUS).times(3).reply(400, { message: 'Scheduled maintenance', errorCode: 'SERVER_MAINTENANCE' });

    const error = await failure(harness().status(OPERATION, task, 'topaz-proteus'));

    expect(error.retryable).to.equal(true);
    expect(error.details.vendorCode).to.equal('SERVER_MAINTENANCE');
  });
});

describe('topaz plugin: video.upscale cancel', () => {
  useNock();
  // The harness does not drive cancel: a bare context with the real vendor HTTP client is enough.
  const context: Pick<PluginContext<TopazConfig>, 'config' | 'http'> = { config: CONFIG, http: (options) => createVendorHttp(options) };
  const ctx = context as PluginContext<TopazConfig>;
  const route = { model: 'topaz-proteus', vendorModel: 'prob-4', publicName: 'topaz-proteus' };
  const cancel = topazPlugin.operations[OPERATION].cancel!;

  it('deletes the Topaz request (a refund by progress is Topaz\'s to give)', async () => {
    const api = topazApi().delete(`/video/${REQUEST_ID}`).reply(200, { message: 'Cancellation in progress. Partial credits have been refunded.' });

    await cancel({ taskId: REQUEST_ID }, ctx, route);

    expect(api.isDone()).to.equal(true);
  });

  it('takes "already canceled" (204) and an unknown request (404) as cancelled', async () => {
    const api = topazApi().delete(`/video/${REQUEST_ID}`).reply(204).delete(`/video/${REQUEST_ID}`).reply(404, { message: 'Enhancement request with the provided ID not found' });

    await cancel({ taskId: REQUEST_ID }, ctx, route);
    await cancel({ taskId: REQUEST_ID }, ctx, route);

    expect(api.isDone()).to.equal(true);
  });

  it('passes any other refusal on', async () => {
    topazApi().delete(`/video/${REQUEST_ID}`).reply(403, { message: 'Forbidden', errorCode: 'FORBIDDEN' });

    const error = await failure(cancel({ taskId: REQUEST_ID }, ctx, route));

    expect(error.retryable).to.equal(false);
    expect(error.details.vendorCode).to.equal('FORBIDDEN');
  });
});
