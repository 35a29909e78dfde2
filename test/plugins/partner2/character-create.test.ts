/**
 * partner2.character.create on `POST /v1/videos/characters`: the source clip fetched (at most 100 MB) and
 * uploaded as multipart with the name; the synchronous answer becomes the finished output.
 */
import { expect } from 'chai';
import nock from 'nock';
import partner2 from '../../../plugins/partner2/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness, type PluginHarness } from '../../support/plugin-harness.js';
import { describeVendorFailures, failure, readMultipart, useNock } from '../../support/vendor-conformance.js';
import { CONFIG, INPUTS, MP4, videosApi } from './partner2-test-kit.js';

const OPERATION = 'partner2.character.create';
const SOURCE_URL = `${INPUTS}/inputs/otter.mp4`;
const CHARACTER = { id: 'char_68e7f2a0c1d48190a3b5c7d9e1f3a5b7', name: 'Mochi', created_at: 1761000000 };

/** Captures the multipart body and its content type of one characters call. */
function captureUpload(status: number, reply: Record<string, unknown>): () => Promise<FormData> {
  let body: unknown;
  let contentType = '';
  videosApi()
    .matchHeader('content-type', (value) => ((contentType = String(value)), /^multipart\/form-data; boundary=/.test(contentType)))
    .post('/v1/videos/characters', (sent) => ((body = sent), true))
    .reply(status, reply);
  return () => readMultipart(body, contentType);
}

function serveSource(headers: Record<string, string> = { 'content-type': 'video/mp4' }, bytes: Buffer = MP4): nock.Scope {
  return nock(INPUTS).get('/inputs/otter.mp4').reply(200, bytes, headers);
}

describe('partner2 plugin: partner2.character.create (POST /v1/videos/characters)', () => {
  useNock();
  let harness: PluginHarness;
  beforeEach(async () => {
    harness = await createPluginHarness(partner2, CONFIG);
  });
  afterEach(() => harness.close());

  it('uploads the source clip and the name as multipart and answers the character at once', async () => {
    serveSource();
    const sent = captureUpload(200, CHARACTER);

    const result = await harness.start(OPERATION, { name: 'Mochi', source_video_url: SOURCE_URL, source_video_name: 'otter.mp4' });

    const form = await sent();
    expect([...form.keys()].sort()).to.deep.equal(['name', 'video']);
    expect(form.get('name')).to.equal('Mochi');
    const video = form.get('video') as File;
    expect({ name: video.name, type: video.type, bytes: Buffer.from(await video.arrayBuffer()) }).to.deep.equal({ name: 'otter.mp4', type: 'video/mp4', bytes: MP4 });

    const output = (result as { done: JsonObject }).done;
    expect(output).to.deep.equal({
      status: 'completed',
      character: { id: CHARACTER.id, name: 'Mochi', sourceVideoUrl: SOURCE_URL },
      provider: 'partner2',
      // No model field in this operation: the public name is the vendor model.
      model: 'sora-2',
    });
    expect(harness.checkOutput(OPERATION, output)).to.deep.equal([]);
  });

  it('names and types the upload as MP4 when the source is served as octet-stream without a file name', async () => {
    serveSource({ 'content-type': 'application/octet-stream' });
    const sent = captureUpload(200, { id: CHARACTER.id, name: null, created_at: CHARACTER.created_at });

    const result = await harness.start(OPERATION, { name: 'Mochi', source_video_url: SOURCE_URL });

    const video = (await sent()).get('video') as File;
    expect([video.name, video.type]).to.deep.equal(['source.mp4', 'video/mp4']);
    // The answer's name may be null: ours is the one that was sent.
    expect((result as { done: JsonObject }).done.character).to.deep.equal({ id: CHARACTER.id, name: 'Mochi', sourceVideoUrl: SOURCE_URL });
  });

  it('refuses a source larger than 100 MB from its Content-Length, before reading or uploading it', async () => {
    serveSource({ 'content-type': 'video/mp4', 'content-length': String(100 * 1024 * 1024 + 1) }, Buffer.alloc(16));
    const untouched = videosApi().post('/v1/videos/characters').reply(200, CHARACTER);

    const error = await failure(harness.start(OPERATION, { name: 'Mochi', source_video_url: SOURCE_URL }));

    expect(error.retryable).to.equal(false);
    expect(error.details.vendorCode).to.equal('source_video_unavailable');
    expect(error.message).to.equal(
      `partner2: the source video cannot be used (at most 100 MB, fetchable by the service): ${SOURCE_URL} is 104857601 bytes, more than the 104857600 allowed`,
    );
    expect(untouched.isDone()).to.equal(false);
  });

  it('fails permanently, without counting against the breaker, when the source cannot be fetched', async () => {
    nock(INPUTS).get('/inputs/otter.mp4').times(3).reply(503, 'upstream down');
    const untouched = videosApi().post('/v1/videos/characters').reply(200, CHARACTER);

    for (let call = 0; call < 3; call += 1) {
      const error = await failure(harness.start(OPERATION, { name: 'Mochi', source_video_url: SOURCE_URL }));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal(`partner2: the source video cannot be used (at most 100 MB, fetchable by the service): could not fetch ${SOURCE_URL}: HTTP 503`);
    }
    expect(harness.breakerState()).to.equal('closed');
    expect(untouched.isDone()).to.equal(false);
  });

  it('has no status or cancel: the answer is final', () => {
    expect(partner2.operations[OPERATION].status).to.equal(undefined);
    expect(partner2.operations[OPERATION].cancel).to.equal(undefined);
  });
});

describe('partner2 plugin: partner2.character.create vendor failures', () => {
  const rejection = {
    error: { message: 'Character uploads that depict human likeness are not allowed.', type: 'invalid_request_error', param: 'video', code: 'moderation_blocked' },
  };
  describeVendorFailures(partner2, CONFIG, [
    {
      name: OPERATION,
      operation: OPERATION,
      input: { name: 'Mochi', source_video_url: SOURCE_URL },
      inputs: () => void nock(INPUTS).persist().get('/inputs/otter.mp4').reply(200, MP4, { 'content-type': 'video/mp4' }),
      endpoint: () => videosApi().post('/v1/videos/characters'),
      success: CHARACTER,
      malformed: { name: 'Mochi', created_at: CHARACTER.created_at },
      malformedMessage: 'partner2: malformed response: id is missing or not a string',
      rejection: { status: 400, body: rejection, message: rejection.error.message },
    },
  ]);
});
