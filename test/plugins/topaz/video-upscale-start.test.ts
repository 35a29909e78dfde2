import { expect } from 'chai';
import nock from 'nock';
import topazPlugin from '../../../plugins/topaz/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { createPluginHarness } from '../../support/plugin-harness.js';
import { failure } from '../../support/vendor-conformance.js';
import {
  CONFIG,
  created,
  expectUpload,
  INPUTS,
  KEY,
  OPERATION,
  REQUEST_ID,
  serveSource,
  SOURCE_URL,
  STORAGE,
  topazApi,
  accepted,
  useTopazSuite,
} from './topaz-test-kit.js';

describe('topaz plugin: video.upscale start (create, accept, upload, complete)', () => {
  const { clips, harness } = useTopazSuite();

  /** The create body for the 320x180, 2 s, 24 fps clip, as the walkthrough lays it out. */
  function createBody(output: JsonObject, filters: JsonObject[], source: JsonObject = {}): JsonObject {
    return {
      source: { container: 'mp4', size: clips().mp4.length, duration: 2, frameRate: 24, frameCount: 48, resolution: { width: 320, height: 180 }, ...source },
      output: { frameRate: 24, audioCodec: 'AAC', audioTransfer: 'Copy', container: 'mp4', ...output },
      filters,
    };
  }

  it('topaz-proteus: probes the source, asks Proteus (prob-4) for the factor\'s frame, uploads the bytes and completes', async () => {
    serveSource(clips().mp4);
    const create = topazApi()
      .post('/video/', createBody({ resolution: { width: 1280, height: 720 } }, [{ model: 'prob-4' }]))
      .reply(200, created([2, 3]));
    const { api, storage } = expectUpload(clips().mp4);

    const result = await harness().start(OPERATION, { video_url: SOURCE_URL, duration_seconds: 2, model: 'topaz-proteus', upscale_factor: 4, video_title: 'Clip' }, 'topaz-proteus');

    expect(result).to.deep.equal({ task: { taskId: REQUEST_ID, state: { source_seconds: 2 } } });
    expect(create.isDone() && api.isDone() && storage.isDone()).to.equal(true);
  });

  it('topaz-proteus: factor 1 enhances at the source frame, and an absent factor means 2', async () => {
    serveSource(clips().mp4);
    serveSource(clips().mp4);
    const create = topazApi()
      .post('/video/', createBody({ resolution: { width: 320, height: 180 } }, [{ model: 'prob-4' }]))
      .reply(200, created())
      .post('/video/', createBody({ resolution: { width: 640, height: 360 } }, [{ model: 'prob-4' }]))
      .reply(200, created());
    expectUpload(clips().mp4);
    expectUpload(clips().mp4);

    await harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus', upscale_factor: 1 }, 'topaz-proteus');
    await harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus');

    expect(create.isDone()).to.equal(true);
  });

  it('topaz-starlight: renders into the 1080p tier and adds Apollo frame interpolation for target_fps', async () => {
    serveSource(clips().mp4);
    const create = topazApi()
      .post(
        '/video/',
        createBody({ resolution: { width: 1920, height: 1080 }, frameRate: 60 }, [{ model: 'slp-2.5' }, { model: 'apo-8', slowmo: 1, fps: 60 }]),
      )
      .reply(200, created([9, 11]));
    expectUpload(clips().mp4);

    const result = await harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-starlight', target_fps: 60 }, 'topaz-starlight');

    expect(result).to.deep.equal({ task: { taskId: REQUEST_ID, state: { source_seconds: 2 } } });
    expect(create.isDone()).to.equal(true);
  });

  it('topaz-starlight without target_fps keeps the source rate and needs no interpolation', async () => {
    serveSource(clips().mp4);
    const create = topazApi().post('/video/', createBody({ resolution: { width: 1920, height: 1080 } }, [{ model: 'slp-2.5' }])).reply(200, created());
    expectUpload(clips().mp4);

    await harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-starlight' }, 'topaz-starlight');

    expect(create.isDone()).to.equal(true);
  });

  it('tells a QuickTime source from MP4 and uploads it with its own type', async () => {
    serveSource(clips().mov, '/inputs/clip.mov', 'video/quicktime');
    const create = topazApi()
      .post('/video/', createBody({ resolution: { width: 640, height: 360 } }, [{ model: 'prob-4' }], { container: 'mov', size: clips().mov.length }))
      .reply(200, created());
    const { storage } = expectUpload(clips().mov, 'video/quicktime');

    await harness().start(OPERATION, { video_url: `${INPUTS}/inputs/clip.mov`, model: 'topaz-proteus', upscale_factor: 2 }, 'topaz-proteus');

    expect(create.isDone() && storage.isDone()).to.equal(true);
  });

  it('refuses topaz-astra permanently, before fetching anything', async () => {
    const untouched = topazApi().post('/video/').reply(200, created());

    const error = await failure(harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-astra' }, 'topaz-astra'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: the model topaz-astra (ast-2) is not served by this gateway\'s Topaz plugin');
    expect(untouched.isDone()).to.equal(false);
  });

  it('fails permanently when video_url is not a video, without calling Topaz', async () => {
    nock(INPUTS).get('/inputs/notes.mp4').reply(200, 'this is not a video', { 'content-type': 'video/mp4' });
    const untouched = topazApi().post('/video/').reply(200, created());

    const error = await failure(harness().start(OPERATION, { video_url: `${INPUTS}/inputs/notes.mp4`, model: 'topaz-proteus' }, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    // ffprobe's own lines (with our scratch path) go to the log only.
    expect(error.message).to.equal('topaz: video_url could not be decoded as video');
    expect(untouched.isDone()).to.equal(false);
  });

  it('fails permanently when the source is larger than max_input_bytes, without calling Topaz', async () => {
    const small = await createPluginHarness(topazPlugin, { ...CONFIG, max_input_bytes: 1000 });
    try {
      serveSource(clips().mp4);
      const untouched = topazApi().post('/video/').reply(200, created());

      const error = await failure(small.start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.include('more than the 1000 allowed');
      expect(untouched.isDone()).to.equal(false);
    } finally {
      await small.close();
    }
  });

  it('cancels the Topaz request when storage refuses the upload, then fails with storage\'s message', async () => {
    serveSource(clips().mp4);
    const api = topazApi()
      .post('/video/')
      .reply(200, created())
      .patch(`/video/${REQUEST_ID}/accept`)
      .reply(200, accepted())
      .delete(`/video/${REQUEST_ID}`)
      .reply(200, { message: 'Cancellation in progress. All reserved credits have been refunded.' });
    nock(STORAGE)
      .put(`/${REQUEST_ID}/source.mp4`)
      .query(true)
      .reply(403, '<?xml version="1.0" encoding="UTF-8"?><Error><Code>AccessDenied</Code><Message>Request has expired</Message></Error>', { 'content-type': 'application/xml' });

    const error = await failure(harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`topaz: upload to storage refused: Request has expired (HTTP 403 on PUT /${REQUEST_ID}/source.mp4)`);
    expect(error.details.vendorCode).to.equal('AccessDenied');
    expect(api.isDone()).to.equal(true);
  });

  it('cancels the Topaz request when accept is refused for want of credits (402), and fails permanently', async () => {
    serveSource(clips().mp4);
    const api = topazApi()
      .post('/video/')
      .reply(200, created())
      .patch(`/video/${REQUEST_ID}/accept`)
      .reply(402, { message: 'Not enough credits to accept this request', errorCode: 'INSUFFICIENT_CREDITS' })
      .delete(`/video/${REQUEST_ID}`)
      .reply(204);

    const error = await failure(harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal(`topaz: Not enough credits to accept this request (HTTP 402 on PATCH /video/${REQUEST_ID}/accept)`);
    expect(error.details).to.include({ vendorStatus: 402, vendorCode: 'INSUFFICIENT_CREDITS' });
    expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(KEY);
    expect(api.isDone()).to.equal(true);
  });

  it('fails permanently when accept signs no upload URL', async () => {
    serveSource(clips().mp4);
    topazApi()
      .post('/video/')
      .reply(200, created())
      .patch(`/video/${REQUEST_ID}/accept`)
      .reply(200, { uploadId: 'x', message: 'Accepted' })
      .delete(`/video/${REQUEST_ID}`)
      .reply(204);

    const error = await failure(harness().start(OPERATION, { video_url: SOURCE_URL, model: 'topaz-proteus' }, 'topaz-proteus'));

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('topaz: malformed response: urls is missing or not a array');
  });
});
