import { expect } from 'chai';
import nock from 'nock';
import syncsoPlugin from '../../../plugins/syncso/index.js';
import type { ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { settledPrice } from '../../support/settled-price.js';
import { failure, HOSTED_URL, useNock } from '../../support/vendor-conformance.js';
import {
  AUDIO,
  completed,
  CONFIG,
  CREATE_BODY,
  GENERATION_ID,
  generation,
  INPUT,
  KEY,
  MEDIA,
  OPERATION,
  serveAudio,
  serveOutput,
  SYNCED,
  syncApi,
  VIDEO_URL,
} from './syncso-test-kit.js';

const GET = `/v2/generate/${GENERATION_ID}`;

/** No real network; a fresh harness per test, returned by the accessor. */
function useSyncsoHarness(): () => PluginHarness {
  useNock();
  let harness: PluginHarness | undefined;
  beforeEach(async () => {
    harness = await createPluginHarness(syncsoPlugin, CONFIG);
  });
  afterEach(() => harness?.close());
  return () => {
    if (!harness) throw new Error('the sync. harness exists only inside a test');
    return harness;
  };
}
const REQUEST_ID = /^req_[0-9a-z]+$/;

describe('syncso plugin: lipsync.generate start', () => {
  const harness = useSyncsoHarness();

  it('hosts the audio, then creates the generation with both URLs, cut_off, and our request id as Idempotency-Key', async () => {
    const audio = serveAudio();
    const api = syncApi()
      .matchHeader('idempotency-key', REQUEST_ID)
      .post('/v2/generate', CREATE_BODY)
      .reply(201, generation('PENDING'));

    const result = await harness().start(OPERATION, INPUT);

    if (!('task' in result)) throw new Error(`expected a task, got ${JSON.stringify(result)}`);
    const hostedAudio = String(result.task.state?.audio_url);
    expect(result).to.deep.equal({ task: { taskId: GENERATION_ID, state: { audio_url: hostedAudio } } });
    expect(hostedAudio).to.match(HOSTED_URL).and.match(/\.wav$/);
    expect(await harness().hostedBytes(hostedAudio)).to.deep.equal(AUDIO);
    expect(audio.isDone() && api.isDone()).to.equal(true);
  });

  it('sends the same Idempotency-Key again when a 429 makes it retry, after waiting the Retry-After', async () => {
    serveAudio();
    const keys: string[] = [];
    const api = syncApi()
      .post('/v2/generate', CREATE_BODY)
      .reply(function () {
        keys.push(String(this.req.headers['idempotency-key']));
        return [429, { statusCode: 429, error: 'Too Many Requests', message: 'Rate limit exceeded' }, { 'Retry-After': '7' }];
      })
      .post('/v2/generate', CREATE_BODY)
      .reply(function () {
        keys.push(String(this.req.headers['idempotency-key']));
        return [201, generation('PENDING')];
      });

    const result = await harness().start(OPERATION, INPUT);

    expect(result).to.have.nested.property('task.taskId', GENERATION_ID);
    expect(harness().sleeps).to.deep.equal([7000]);
    expect(keys).to.have.length(2);
    expect(keys[0]).to.match(REQUEST_ID).and.equal(keys[1]);
    expect(api.isDone()).to.equal(true);
  });

  it('refuses a media field that is not an http(s) URL, without fetching or calling sync.', async () => {
    const untouched = syncApi().post('/v2/generate').reply(201, generation('PENDING'));

    for (const input of [{ ...INPUT, video_url: 'ftp://media.example/face.mp4' }, { ...INPUT, audio_url: 'speech.wav' }]) {
      const error = await failure(harness().start(OPERATION, input));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.match(/^syncso: (video|audio)_url must be a hosted http\(s\) URL$/);
    }
    expect(untouched.isDone()).to.equal(false);
  });

  it('fails permanently, before paying sync., when the audio cannot be fetched', async () => {
    nock(MEDIA).get('/inputs/speech.wav').reply(404, 'Not Found');
    const untouched = syncApi().post('/v2/generate').reply(201, generation('PENDING'));

    const error = await failure(harness().start(OPERATION, INPUT));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`could not fetch ${INPUT.audio_url}: HTTP 404`);
    expect(untouched.isDone()).to.equal(false);
  });
});

describe('syncso plugin: lipsync.generate status', () => {
  const harness = useSyncsoHarness();

  const hostedAudio = 'http://gateway.test/files/req_0000000000000000000000000/0123456789abcdef.wav';
  const task: ProviderTask = { taskId: GENERATION_ID, state: { audio_url: hostedAudio } };

  it('waits through a long PENDING/PROCESSING run (sync. reports no progress), then hosts the synced video', async () => {
    const statuses = ['PENDING', 'PENDING', 'PENDING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'PROCESSING'];
    const api = syncApi();
    for (const status of statuses) api.get(GET).reply(200, generation(status));
    api.get(GET).reply(200, completed(9.98));
    const output = serveOutput();

    const polls = [];
    for (let poll = 0; poll < statuses.length; poll += 1) polls.push(await harness().status(OPERATION, task));
    const result = await harness().status(OPERATION, task);

    expect(polls).to.deep.equal(statuses.map(() => ({ pending: {} })));
    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    const videoUrl = String(result.done.video_url);
    expect(videoUrl).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(result.done).to.deep.equal({
      task_id: GENERATION_ID,
      asset_type: 'video',
      status: 'succeeded',
      video_url: videoUrl,
      audio_url: hostedAudio,
      provider: 'syncso',
      model: 'lipsync-2',
      // sync.'s billed output length, for the manifest to price.
      usage: { output_seconds: 9.98 },
    });
    expect(harness().checkOutput(OPERATION, result.done)).to.deep.equal([]);
    expect(await harness().hostedBytes(videoUrl)).to.deep.equal(SYNCED);
    expect(api.isDone() && output.isDone()).to.equal(true);
  });

  it('settles by the manifest on the billed output length, 1.5 credits a second, never below the minimum of 3', async () => {
    syncApi().get(GET).reply(200, completed(9.98)).get(GET).reply(200, completed(20.25)).get(GET).reply(200, completed(0.8));
    serveOutput();
    serveOutput();
    serveOutput();
    // The client declared 10 s of video and 10 s of audio: 0.75 × 10 + 0.75 × 10 = 15 quoted.
    const declared = { ...INPUT, video_duration: 10, audio_duration: 10 };

    const prices = [];
    for (let poll = 0; poll < 3; poll += 1) {
      const result = await harness().status(OPERATION, task);
      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      const settled = await settledPrice(OPERATION, declared, result.done);
      prices.push({ quote: settled.quote, exactCost: settled.exactCost, exact_cost_credits: settled.output.exact_cost_credits });
    }

    expect(prices).to.deep.equal([
      // 9.98 × 1.5 = 14.97, rounded up: the quote was right.
      { quote: 15, exactCost: 15, exact_cost_credits: 15 },
      // 20.25 × 1.5 = 30.375, rounded up: more than quoted (charged if the balance allows).
      { quote: 15, exactCost: 31, exact_cost_credits: 31 },
      // 0.8 × 1.5 = 1.2, held at the manifest's minimum.
      { quote: 15, exactCost: 3, exact_cost_credits: 3 },
    ]);
  });

  it('reports FAILED with sync.\'s error and code, and the other unsuccessful ends plainly', async () => {
    syncApi()
      .get(GET)
      .reply(200, generation('FAILED', { error: 'No face detected in the video', error_code: 'generation_face_not_detected' }))
      .get(GET)
      .reply(200, generation('REJECTED'))
      .get(GET)
      .reply(200, generation('TIMED_OUT'))
      .get(GET)
      .reply(200, generation('CANCELED'));

    expect(await harness().status(OPERATION, task)).to.deep.equal({ failed: 'syncso: No face detected in the video (generation_face_not_detected)' });
    expect(await harness().status(OPERATION, task)).to.deep.equal({ failed: 'syncso: the generation was rejected' });
    expect(await harness().status(OPERATION, task)).to.deep.equal({ failed: 'syncso: the generation timed out' });
    expect(await harness().status(OPERATION, task)).to.deep.equal({ failed: 'syncso: the generation was canceled' });
  });

  it('fails permanently when a COMPLETED generation lacks its video or its duration', async () => {
    syncApi().get(GET).reply(200, generation('COMPLETED', { outputDuration: 9.98 })).get(GET).reply(200, generation('COMPLETED', { outputUrl: 'https://api.sync.so/x' }));

    const noVideo = await failure(harness().status(OPERATION, task));
    const noDuration = await failure(harness().status(OPERATION, task));

    expect(noVideo.retryable).to.equal(false);
    expect(noVideo.message).to.equal('syncso: malformed response: outputUrl is missing or not a string');
    expect(noDuration.message).to.equal('syncso: malformed response: outputDuration is missing or not a number');
  });

  it('fails permanently on a status it does not know', async () => {
    syncApi().get(GET).reply(200, generation('DREAMING'));

    const error = await failure(harness().status(OPERATION, task));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('syncso: malformed response: status is missing or not a known status (got "DREAMING")');
  });

  it('fails permanently with sync.\'s message when the generation is unknown (404)', async () => {
    syncApi().get(GET).reply(404, { statusCode: 404, error: 'Not Found', message: 'Generation not found' });

    const error = await failure(harness().status(OPERATION, task));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`syncso: Generation not found (HTTP 404 on GET /v2/generate/${GENERATION_ID})`);
    expect(error.details.vendorCode).to.equal('Not Found');
  });
});

describe('syncso plugin: vendor failures on POST /v2/generate', () => {
  const harness = useSyncsoHarness();
  beforeEach(() => serveAudio().persist());

  it('fails permanently with sync.\'s validation messages on a 400', async () => {
    syncApi()
      .post('/v2/generate')
      .reply(400, { statusCode: 400, error: 'Bad Request', message: ['input.0.url must be a URL address', 'model must be one of the following values'] });

    const error = await failure(harness().start(OPERATION, { ...INPUT, video_url: `${VIDEO_URL}?broken` }));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('syncso: input.0.url must be a URL address; model must be one of the following values (HTTP 400 on POST /v2/generate)');
    expect(error.details).to.include({ vendorStatus: 400, vendorCode: 'Bad Request' });
    expect(harness().sleeps).to.deep.equal([]);
  });

  it('fails permanently when the plan is exhausted (402), carrying the machine code, and never leaks the key', async () => {
    syncApi().post('/v2/generate').reply(402, { statusCode: 402, error_code: 'payment_required', message: 'Your plan does not allow more generations this month' });

    const error = await failure(harness().start(OPERATION, INPUT));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('syncso: Your plan does not allow more generations this month (HTTP 402 on POST /v2/generate)');
    expect(error.details.vendorCode).to.equal('payment_required');
    expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(KEY);
  });

  it('keeps 5xx retryable, opens the breaker after a burst, then fails fast without calling sync.', async () => {
    const fresh = await createPluginHarness(syncsoPlugin, CONFIG, { volume_threshold: 2 });
    try {
      // Three attempts per call (the vendor client's retries), two calls.
      const outage = syncApi().post('/v2/generate').times(6).reply(503, { statusCode: 503, error: 'Service Unavailable', message: 'Service temporarily unavailable' });
      for (let call = 0; call < 2; call += 1) {
        const error = await failure(fresh.start(OPERATION, INPUT));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(outage.isDone()).to.equal(true);
      expect(fresh.breakerState()).to.equal('open');

      const untouched = syncApi().post('/v2/generate').reply(201, generation('PENDING'));
      const fast = await failure(fresh.start(OPERATION, INPUT));

      expect(fast.retryable).to.equal(true);
      expect(fast.details.vendorCode).to.equal('EOPENBREAKER');
      expect(untouched.isDone()).to.equal(false);
    } finally {
      nock.cleanAll();
      await fresh.close();
    }
  });

  it('fails permanently on a 2xx without the generation id', async () => {
    syncApi().post('/v2/generate').reply(201, { status: 'PENDING', model: 'lipsync-2' });

    const error = await failure(harness().start(OPERATION, INPUT));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('syncso: malformed response: id is missing or not a string');
  });
});

describe('syncso plugin: definition', () => {
  it('serves lipsync.generate as a polled task without cancel (sync. documents none)', () => {
    expect(Object.keys(syncsoPlugin.operations)).to.deep.equal(['lipsync.generate']);
    const handler = syncsoPlugin.operations['lipsync.generate'];
    expect([typeof handler.start, typeof handler.status, handler.cancel]).to.deep.equal(['function', 'function', undefined]);
  });

  it('is enabled only with an API key', () => {
    expect(syncsoPlugin.isEnabled({})).to.equal(false);
    expect(syncsoPlugin.isEnabled({ api_key: '' })).to.equal(false);
    expect(syncsoPlugin.isEnabled({ api_key: KEY })).to.equal(true);
  });

  it('has snake_case settings with sync.\'s base URL, and no prices', () => {
    const properties = syncsoPlugin.configSchema.properties as Record<string, { default?: unknown }>;
    expect(properties).to.have.all.keys('api_key', 'base_url', 'timeout_ms');
    expect(properties.base_url.default).to.equal('https://api.sync.so');
  });
});
