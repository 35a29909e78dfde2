/**
 * Topaz's failure modes on the call that starts the work (POST video/), through the real breaker and client:
 * a documented 4xx is permanent with Topaz's message, a 429 waits for Retry-After, a 5xx burst opens the
 * breaker, a 2xx without the request id is a permanent "malformed response".
 */
import { expect } from 'chai';
import nock from 'nock';
import topazPlugin from '../../../plugins/topaz/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { failure } from '../../support/vendor-conformance.js';
import { CONFIG, created, expectUpload, OPERATION, REQUEST_ID, SOURCE_URL, serveSource, topazApi, useTopazSuite } from './topaz-test-kit.js';

const INPUT = { video_url: SOURCE_URL, model: 'topaz-proteus', upscale_factor: 2 };

describe('topaz plugin: vendor failures on POST /video/', () => {
  const { clips, harness } = useTopazSuite();
  beforeEach(() => {
    serveSource(clips().mp4).persist();
  });

  it('fails permanently with Topaz\'s message and the schema problems on a 400', async () => {
    topazApi()
      .post('/video/')
      .reply(400, {
        message: 'Request validation failed',
        errorCode: 'INVALID_INPUT',
        errors: [{ type: 'maximum', path: 'output.resolution.width', location: 'body', message: 'must be <= 8192' }],
      });

    const error = await failure(harness().start(OPERATION, INPUT, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: Request validation failed; output.resolution.width: must be <= 8192 (HTTP 400 on POST /video/)');
    expect(error.details).to.include({ vendorStatus: 400, vendorCode: 'INVALID_INPUT' });
    expect(harness().sleeps).to.deep.equal([]);
  });

  it('fails permanently on a bad key (401)', async () => {
    topazApi().post('/video/').reply(401, { message: 'Unauthorized', errorCode: 'UNAUTHORIZED' });

    const error = await failure(harness().start(OPERATION, INPUT, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: Unauthorized (HTTP 401 on POST /video/)');
  });

  it('waits for Retry-After on a 429, then goes on with the upload', async () => {
    const api = topazApi()
      .post('/video/')
      .reply(429, { message: 'Too many requests' }, { 'Retry-After': '7' })
      .post('/video/')
      .reply(200, created());
    const { storage } = expectUpload(clips().mp4);

    const result = await harness().start(OPERATION, INPUT, 'topaz-proteus');

    expect(result).to.deep.equal({ task: { taskId: REQUEST_ID, state: { source_seconds: 2 } } });
    expect(harness().sleeps).to.deep.equal([7000]);
    expect(api.isDone() && storage.isDone()).to.equal(true);
  });

  it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling Topaz', async () => {
    const fresh = await createPluginHarness(topazPlugin, CONFIG, { volume_threshold: 2 });
    try {
      // Three attempts per call (the vendor client's retries), two calls.
      const outage = topazApi().post('/video/').times(6).reply(503, { message: 'Service unavailable', errorCode: 'SERVER_ERROR' });
      for (let call = 0; call < 2; call += 1) {
        const error = await failure(fresh.start(OPERATION, INPUT, 'topaz-proteus'));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(outage.isDone()).to.equal(true);
      expect(fresh.breakerState()).to.equal('open');

      const untouched = topazApi().post('/video/').reply(200, created());
      const fast = await failure(fresh.start(OPERATION, INPUT, 'topaz-proteus'));

      expect(fast.retryable).to.equal(true);
      expect(fast.details.vendorCode).to.equal('EOPENBREAKER');
      expect(untouched.isDone()).to.equal(false);
    } finally {
      nock.cleanAll();
      await fresh.close();
    }
  });

  it('fails permanently on a 2xx without the request id', async () => {
    topazApi().post('/video/').reply(200, { estimates: { cost: [2, 3], time: [600, 700] } });

    const error = await failure(harness().start(OPERATION, INPUT, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: malformed response: requestId is missing or not a string');
  });
});
