import { expect } from 'chai';
import nock from 'nock';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import { expectRefusedBeforeSending, expectVideoOutput } from '../../support/vendor-conformance.js';
import {
  baseResp,
  CDN,
  CDN_PATH,
  created,
  FILE_ID,
  FIRST,
  LAST,
  minimaxApi,
  MODEL,
  MP4,
  OPERATION,
  queried,
  retrieved,
  serveClip,
  succeeded,
  TASK_ID,
  useMinimaxHarness,
} from './minimax-test-kit.js';

const PROMPT = 'A mouse runs toward the camera, smiling and blinking';

describe('minimax plugin: video.generate start (hailuo-02)', () => {
  const harness = useMinimaxHarness();

  it('creates a text-to-video task with the route model, MiniMax\'s resolution spelling, the prompt optimizer and watermark, and nothing Hailuo has no control for', async () => {
    const api = minimaxApi()
      .post('/v1/video_generation', { model: 'MiniMax-Hailuo-02', prompt: PROMPT, duration: 6, resolution: '1080P', prompt_optimizer: false, aigc_watermark: true })
      .reply(200, created());

    const result = await harness().start(
      OPERATION,
      { prompt: PROMPT, model: MODEL, duration: 6, resolution: '1080p', aspect_ratio: '16:9', prompt_extend: false, watermark: true, negative_prompt: 'blur', seed: 7, nsfw_checker: true },
      MODEL,
    );

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { duration: 6, aspect_ratio: '16:9' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends the manifest\'s defaults (6 s at 768P) when the input carries none, leaving MiniMax\'s own defaults for the rest', async () => {
    const api = minimaxApi().post('/v1/video_generation', { model: 'MiniMax-Hailuo-02', prompt: PROMPT, duration: 6, resolution: '768P' }).reply(200, created());

    const result = await harness().start(OPERATION, { prompt: PROMPT, model: MODEL }, MODEL);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { duration: 6, aspect_ratio: '16:9' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends a first frame as first_frame_image (512P allowed there), and the client\'s ratio only as a fallback for the output', async () => {
    const api = minimaxApi()
      .post('/v1/video_generation', { model: 'MiniMax-Hailuo-02', prompt: PROMPT, first_frame_image: FIRST, duration: 10, resolution: '512P' })
      .reply(200, created());

    const result = await harness().start(OPERATION, { prompt: PROMPT, model: MODEL, image_url: FIRST, duration: 10, resolution: '512p', aspect_ratio: '9:16' }, MODEL);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { duration: 10, aspect_ratio: '9:16' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends first and last frames in either spelling (first_frame_url + end_image_url)', async () => {
    const api = minimaxApi()
      .post('/v1/video_generation', { model: 'MiniMax-Hailuo-02', prompt: PROMPT, first_frame_image: FIRST, last_frame_image: LAST, duration: 6, resolution: '768P' })
      .reply(200, created());

    const result = await harness().start(OPERATION, { prompt: PROMPT, model: MODEL, first_frame_url: FIRST, end_image_url: LAST, duration: 6, resolution: '768p' }, MODEL);

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { duration: 6, aspect_ratio: null } } });
    expect(api.isDone()).to.equal(true);
  });

  const refusals: { name: string; input: JsonObject; message: string }[] = [
    {
      name: 'reference images',
      input: { reference_image_urls: [FIRST] },
      message: 'minimax: hailuo-02 takes no reference images (reference_image_urls); send a first frame (image_url) instead',
    },
    {
      name: '512p from a prompt alone',
      input: { resolution: '512p' },
      message: 'minimax: hailuo-02 renders 512p only from a first frame alone; use 768p or 1080p without a first frame',
    },
    {
      name: '512p with a last frame',
      input: { resolution: '512p', image_url: FIRST, last_frame_url: LAST },
      message: 'minimax: hailuo-02 renders 512p only from a first frame alone; use 768p or 1080p with a last frame',
    },
    {
      name: 'a portrait clip from a prompt alone',
      input: { aspect_ratio: '9:16' },
      message: 'minimax: hailuo-02 renders 16:9 from a prompt alone, not 9:16; send a first frame of that shape (image_url) instead',
    },
    {
      name: 'a prompt over MiniMax\'s 2000 characters',
      input: { prompt: 'x'.repeat(2001) },
      message: 'minimax: hailuo-02 takes a prompt of at most 2000 characters (this one has 2001)',
    },
  ];
  for (const { name, input, message } of refusals) {
    it(`refuses ${name} permanently, without calling MiniMax`, async () => {
      const api = minimaxApi().post('/v1/video_generation').reply(200, created());

      await expectRefusedBeforeSending(harness().start(OPERATION, { prompt: PROMPT, model: MODEL, ...input }, MODEL), message, api);
    });
  }
});

describe('minimax plugin: video.generate status', () => {
  const harness = useMinimaxHarness();
  const textTask = { taskId: TASK_ID, state: { duration: 10, aspect_ratio: '16:9' } };

  it('stays pending through Preparing, Queueing and Processing, then resolves the file and hosts the clip', async () => {
    const statuses = ['Preparing', 'Queueing', 'Processing', 'Processing'];
    const api = minimaxApi();
    for (const status of statuses) api.get('/v1/query/video_generation').query({ task_id: TASK_ID }).reply(200, queried(status));
    api.get('/v1/query/video_generation').query({ task_id: TASK_ID }).reply(200, succeeded());
    api.get('/v1/files/retrieve').query({ file_id: FILE_ID }).reply(200, retrieved());
    const clip = serveClip();

    const pending = [];
    for (let poll = 0; poll < statuses.length; poll += 1) pending.push(await harness().status(OPERATION, textTask, MODEL));
    const result = await harness().status(OPERATION, textTask, MODEL);

    expect(pending).to.deep.equal(statuses.map(() => ({ pending: {} })));
    await expectVideoOutput(harness(), OPERATION, result, { taskId: TASK_ID, provider: 'minimax', model: MODEL, fields: { duration: 10, aspect_ratio: '16:9' } }, MP4);
    expect(api.isDone() && clip.isDone()).to.equal(true);
  });

  it('states the shape MiniMax rendered from a first frame (1080x1920 is 9:16), whatever was asked', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, succeeded(1080, 1920))
      .get('/v1/files/retrieve')
      .query({ file_id: FILE_ID })
      .reply(200, retrieved());
    serveClip();

    const result = await harness().status(OPERATION, { taskId: TASK_ID, state: { duration: 6, aspect_ratio: null } }, MODEL);

    expect(result).to.have.nested.property('done.aspect_ratio', '9:16');
  });

  it('names an unusual rendered shape by its reduced size, and without a reported size falls back to the ratio known at start', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, succeeded(1000, 800))
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Success', { file_id: FILE_ID }))
      .get('/v1/files/retrieve')
      .times(2)
      .query({ file_id: FILE_ID })
      .reply(200, retrieved());
    nock(CDN).get(CDN_PATH).query(true).times(2).reply(200, MP4);

    const measured = await harness().status(OPERATION, { taskId: TASK_ID, state: { duration: 6, aspect_ratio: null } }, MODEL);
    const unmeasured = await harness().status(OPERATION, { taskId: TASK_ID, state: { duration: 6, aspect_ratio: '4:3' } }, MODEL);

    expect(measured).to.have.nested.property('done.aspect_ratio', '5:4');
    expect(unmeasured).to.have.nested.property('done.aspect_ratio', '4:3');
  });

  it('takes a numeric file_id and a download link without a scheme, as MiniMax\'s examples show them', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Success', { file_id: Number(FILE_ID), video_width: 1920, video_height: 1080 }))
      .get('/v1/files/retrieve')
      .query({ file_id: FILE_ID })
      .reply(200, retrieved(`${CDN.replace('https://', '')}${CDN_PATH}?Expires=1756485366`));
    const clip = serveClip();

    const result = await harness().status(OPERATION, textTask, MODEL);

    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    expect(await harness().hostedBytes(result.done.video_url as string)).to.deep.equal(MP4);
    expect(clip.isDone()).to.equal(true);
  });

  it('reports a failed task with MiniMax\'s reason and code, or says it gave none', async () => {
    minimaxApi()
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Fail', baseResp(1026, 'input new_sensitive')))
      .get('/v1/query/video_generation')
      .query({ task_id: TASK_ID })
      .reply(200, queried('Fail'));

    const explained = await harness().status(OPERATION, textTask, MODEL);
    const unexplained = await harness().status(OPERATION, textTask, MODEL);

    expect(explained).to.deep.equal({ failed: 'minimax: input new_sensitive (code 1026)' });
    expect(unexplained).to.deep.equal({ failed: 'minimax: the generation failed without a reason' });
  });
});
