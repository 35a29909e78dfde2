import { expect } from 'chai';
import nock from 'nock';
import { nearestKlingDuration } from '../../../plugins/kling/kling-api.js';
import { failure, HOSTED, klingApi, REQUEST_ID, submitted, taskAnswer, useKlingHarness } from './kling-test-kit.js';

const OPERATION = 'smartmotion.generate';
const TASK_ID = '790012391201';
const SOURCE = 'https://example.com/inputs/street.jpg';
const VIDEO_HOST = 'https://v1-kling.klingai.com';
const VIDEO_PATH = '/bs2/upload-ylab-stunt/special-effect/output/HB1_PROD_ai_web_46554461/-2878350957757294165/output.mp4';
const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42 kling clip bytes');

describe('kling plugin: smartmotion.generate (kling-v1-6)', () => {
  const harness = useKlingHarness();

  it('sends camera_control as a simple move with all six axes, and the duration as Kling\'s string', async () => {
    const api = klingApi()
      .post('/v1/videos/image2video', {
        model_name: 'kling-v1-6',
        image: SOURCE,
        prompt: 'a quiet street at dawn',
        negative_prompt: 'people',
        duration: '5',
        camera_control: { type: 'simple', config: { horizontal: 0, vertical: 0, pan: 0, tilt: 0, roll: 0, zoom: 5 } },
        external_task_id: REQUEST_ID,
      })
      .reply(200, submitted(TASK_ID));

    const result = await harness().start(OPERATION, {
      file_url: SOURCE,
      file_name: 'street.jpg',
      content_type: 'image/jpeg',
      duration: 3,
      control_mode: 'camera_control',
      camera_control: { zoom: 5 },
      prompt: 'a quiet street at dawn',
      negative_prompt: 'people',
      motion_scale: 0.5,
      motion_seed: 42,
    });

    expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: {} } });
    expect(api.isDone()).to.equal(true);
  });

  it('sends a preset motion as the camera_control type, without config', async () => {
    const api = klingApi()
      .post('/v1/videos/image2video', { model_name: 'kling-v1-6', image: SOURCE, duration: '10', camera_control: { type: 'forward_up' }, external_task_id: REQUEST_ID })
      .reply(200, submitted(TASK_ID));

    await harness().start(OPERATION, { file_url: SOURCE, content_type: 'image/jpeg', duration: 8, control_mode: 'preset', motion: 'forward_up' });

    expect(api.isDone()).to.equal(true);
  });

  it('maps our 1-10 s to the nearer of Kling\'s 5 and 10, a tie to 10', () => {
    expect([1, 5, 7, 7.5, 8, 10].map((seconds) => nearestKlingDuration(seconds))).to.deep.equal(['5', '5', '5', '10', '10', '10']);
  });

  it('refuses a video source permanently, without calling Kling', async () => {
    const api = klingApi().post('/v1/videos/image2video').reply(200, submitted(TASK_ID));

    const error = await failure(
      harness().start(OPERATION, { file_url: 'https://example.com/inputs/street.mp4', content_type: 'video/mp4', duration: 5, motion: 'down_back', control_mode: 'preset' }),
    );

    expect(error.retryable).to.equal(false);
    expect(error.message).to.equal('kling: kling-v1-6 animates a still image; a video source (video/mp4) is not supported');
    expect(api.isDone()).to.equal(false);
  });

  it('stays pending while Kling renders, then hosts the clip', async () => {
    const vendorUrl = `${VIDEO_HOST}${VIDEO_PATH}`;
    const api = klingApi()
      .get(`/v1/videos/image2video/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'processing'))
      .get(`/v1/videos/image2video/${TASK_ID}`)
      .reply(200, taskAnswer(TASK_ID, 'succeed', { task_result: { videos: [{ id: 'vid_1', url: vendorUrl, duration: '5.1' }] } }));
    // The CDN's declared type is not trusted: Kling documents MP4.
    const cdn = nock(VIDEO_HOST).get(VIDEO_PATH).reply(200, MP4, { 'content-type': 'application/octet-stream' });
    const handle = { taskId: TASK_ID, state: {} };

    expect(await harness().status(OPERATION, handle)).to.deep.equal({ pending: {} });
    const result = await harness().status(OPERATION, handle);

    if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
    const output = result.done;
    expect(output.video_url).to.match(HOSTED).and.match(/\.mp4$/);
    expect(output).to.deep.equal({ task_id: TASK_ID, asset_type: 'video', status: 'succeeded', video_url: output.video_url, provider: 'kling', model: 'kling-v1-6' });
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
    expect(await harness().hostedBytes(output.video_url as string)).to.deep.equal(MP4);
    expect(api.isDone() && cdn.isDone()).to.equal(true);
  });

  it('reports a failed render with Kling\'s reason', async () => {
    klingApi().get(`/v1/videos/image2video/${TASK_ID}`).reply(200, taskAnswer(TASK_ID, 'failed', { task_status_msg: 'Image quality too low' }));

    expect(await harness().status(OPERATION, { taskId: TASK_ID, state: {} })).to.deep.equal({ failed: 'kling: Image quality too low' });
  });
});
