/** soundfx.generate (video_context) on mirelo-ai/sfx-v1.5/video-to-video: the request map and the two hosted files. */
import { expect } from 'chai';
import nock from 'nock';
import type { JsonObject, ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import { probeMedia } from '../../support/media-probe.js';
import { failure, HOSTED_URL } from '../../support/vendor-conformance.js';
import { caseOf, CDN, completed, doneOutput, falQueue, queueUrls, REQUEST_ID, submitted, useFalHarness, videoWithSound } from './fal-test-kit.js';

const OPERATION = 'soundfx.generate';
const MODEL = 'video_context';
const CASE = caseOf(OPERATION);
const TASK: ProviderTask = { taskId: REQUEST_ID, state: { model_id: CASE.modelId, ...queueUrls(CASE.appId) } };

describe('fal plugin: soundfx.generate video_context request', () => {
  const harness = useFalHarness();

  const submits = async (input: JsonObject, body: JsonObject): Promise<void> => {
    const api = falQueue().post('/mirelo-ai/sfx-v1.5/video-to-video', body).reply(200, submitted(CASE.appId));
    await harness().start(OPERATION, { mode: MODEL, video_url: 'https://example.com/v.mp4', ...input }, MODEL);
    expect(api.isDone()).to.equal(true);
  };

  it('uses description_prompt as the prompt when prompt is absent', async () => {
    await submits({ description_prompt: 'rain on a tin roof' }, { video_url: 'https://example.com/v.mp4', text_prompt: 'rain on a tin roof' });
  });

  it('prefers prompt over description_prompt', async () => {
    await submits({ prompt: 'thunder', description_prompt: 'rain' }, { video_url: 'https://example.com/v.mp4', text_prompt: 'thunder' });
  });

  it('holds the length inside Mirelo\'s 1-10 s and sends seed 0 as Mirelo\'s lowest seed, 1', async () => {
    await submits({ duration_seconds: 30, seed: 0 }, { video_url: 'https://example.com/v.mp4', duration: 10, seed: 1 });
    await submits({ duration_seconds: 0.5 }, { video_url: 'https://example.com/v.mp4', duration: 1 });
  });
});

describe('fal plugin: soundfx.generate video_context result', () => {
  const harness = useFalHarness();

  const finish = async (): Promise<JsonObject> => doneOutput(await harness().status(OPERATION, TASK, MODEL));

  it('hosts the first sample\'s video and its sound track, extracted to MP3', async () => {
    falQueue()
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}/status`).reply(200, completed(CASE.appId))
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}`).reply(200, CASE.result());
    await CASE.serveFiles();

    const output = await finish();

    expect(output).to.deep.equal({
      task_id: REQUEST_ID,
      asset_type: 'audio',
      status: 'succeeded',
      audio_url: output.audio_url,
      sfx_video_url: output.sfx_video_url,
      provider: 'fal',
      model: 'mirelo-ai/sfx-v1.5/video-to-video',
      mode: 'video_context',
    });
    expect(output.audio_url).to.match(HOSTED_URL).and.match(/\.mp3$/);
    expect(output.sfx_video_url).to.match(HOSTED_URL).and.match(/\.mp4$/);
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
    expect(await harness().hostedBytes(String(output.sfx_video_url))).to.deep.equal(await videoWithSound());
    const audio = await probeMedia(await harness().hostedBytes(String(output.audio_url)));
    expect(audio).to.deep.include({ video: undefined, audio: { codec: 'mp3' } });
    expect(audio.durationSeconds).to.be.within(0.9, 1.2);
  });

  it('hosts an audio file that comes with the result as it is, without extracting', async () => {
    const sound = Buffer.from('ID3\x04\x00 mirelo sound');
    falQueue()
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}/status`).reply(200, completed(CASE.appId))
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}`).reply(200, { ...CASE.result(), audio: [{ url: `${CDN}/files/b/zebra/sample-1.mp3`, content_type: 'audio/mpeg' }] });
    await CASE.serveFiles();
    nock(CDN).get('/files/b/zebra/sample-1.mp3').reply(200, sound, { 'content-type': 'application/octet-stream' });

    const output = await finish();

    expect(output.audio_url).to.match(/\.mp3$/);
    expect(await harness().hostedBytes(String(output.audio_url))).to.deep.equal(sound);
    expect(harness().checkOutput(OPERATION, output)).to.deep.equal([]);
  });

  it('fails permanently when the returned video has no sound track', async () => {
    falQueue()
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}/status`).reply(200, completed(CASE.appId))
      .get(`/mirelo-ai/sfx-v1.5/requests/${REQUEST_ID}`).reply(200, CASE.result());
    nock(CDN).get('/files/b/zebra/sample-1.mp4').reply(200, Buffer.from('not a video at all'), { 'content-type': 'video/mp4' });

    const error = await failure(harness().status(OPERATION, TASK, MODEL));

    expect(error.retryable).to.equal(false);
    // What ffmpeg printed goes to the log, never into a message a client may read.
    expect(error.message).to.equal('fal: the audio track of the fal result could not be extracted');
  });
});
