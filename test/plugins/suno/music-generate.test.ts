import { expect } from 'chai';
import nock from 'nock';
import sunoPlugin from '../../../plugins/suno/index.js';
import { sunoVocalGender } from '../../../plugins/suno/generate-music.js';
import { ProviderError, type JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { failure, usePluginHarness } from '../../support/vendor-conformance.js';

const OPERATION = 'music.generate';
const API = 'https://api.sunoapi.org';
const KEY = 'suno-test-key-not-real';
const CONFIG = { api_key: KEY };
const TASK_ID = '5c79a1b2c3d4be8e';
const DEFAULT_CALLBACK = 'https://example.com/mediagate/suno-callback';
const HOSTED_MP3 = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.mp3$/;
const CDN = 'https://musicfile.example-suno-cdn.com';
const MP3 = Buffer.from('ID3\x04\x00\x00\x00\x00\x00\x00 suno track bytes');
const DESCRIPTION_INPUT = { provider: 'suno', model: 'V5', prompt: 'a calm lo-fi beat for studying', instrumental: true };

function sunoApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

/** A record-info answer as https://docs.sunoapi.org/suno-api/get-music-generation-details shows it. */
function record(status: string, extra: JsonObject = {}): JsonObject {
  return {
    code: 200,
    msg: 'success',
    data: {
      taskId: TASK_ID,
      parentMusicId: '',
      param: '{"prompt":"a calm lo-fi beat","customMode":false,"instrumental":true,"model":"V5"}',
      response: { taskId: TASK_ID, sunoData: [] },
      status,
      type: 'GENERATE',
      errorCode: null,
      errorMessage: null,
      ...extra,
    },
  };
}

function track(id: string, title: string): JsonObject {
  return {
    id,
    audioUrl: `${CDN}/${id}.mp3`,
    streamAudioUrl: `${CDN}/stream/${id}`,
    imageUrl: `${CDN}/${id}.jpeg`,
    prompt: '[Instrumental]',
    modelName: 'chirp-crow',
    title,
    tags: 'lo-fi, calm',
    createTime: '2025-01-01 00:00:00',
    duration: 198.44,
  };
}

describe('suno plugin: music.generate', () => {
  let harness: PluginHarness;

  const harnesses = usePluginHarness(sunoPlugin, CONFIG, (created) => (harness = created), { volume_threshold: 2 });

  describe('definition', () => {
    it('is enabled only with an API key, and defaults the base URL and the (unused) callback URL', () => {
      expect(sunoPlugin.isEnabled({})).to.equal(false);
      expect(sunoPlugin.isEnabled({ api_key: '' })).to.equal(false);
      expect(sunoPlugin.isEnabled({ api_key: KEY })).to.equal(true);
      expect(Object.keys(sunoPlugin.operations)).to.deep.equal([OPERATION]);
      const properties = sunoPlugin.configSchema.properties as Record<string, { default?: string }>;
      expect([properties.base_url.default, properties.callback_url.default]).to.deep.equal([API, DEFAULT_CALLBACK]);
    });

    it('maps vocal genders to m or f and leaves anything else out', () => {
      expect(['m', 'f', 'Male', 'FEMALE', 'x', 3].map((value) => sunoVocalGender(value))).to.deep.equal(['m', 'f', 'm', 'f', undefined, undefined]);
    });
  });

  describe('start', () => {
    it('sends a custom-mode song with every Suno control in sunoapi.org\'s names, the route model and the callback URL', async () => {
      const api = sunoApi()
        .post('/api/v1/generate', {
          customMode: true,
          instrumental: false,
          model: 'V5',
          callBackUrl: DEFAULT_CALLBACK,
          prompt: '[Verse] Night city lights shining bright',
          style: 'synthwave, female vocals',
          title: 'Neon Night',
          personaId: 'persona_123',
          negativeTags: 'heavy metal, screaming',
          vocalGender: 'f',
          styleWeight: 0.65,
          weirdnessConstraint: 0.3,
          audioWeight: 0.5,
        })
        .reply(200, { code: 200, msg: 'success', data: { taskId: TASK_ID } });

      const result = await harness.start(
        OPERATION,
        {
          provider: 'suno',
          model: 'V5',
          mode: 'custom',
          custom_mode: true,
          instrumental: false,
          prompt: '[Verse] Night city lights shining bright',
          style: 'synthwave, female vocals',
          title: 'Neon Night',
          persona_id: 'persona_123',
          negative_tags: 'heavy metal, screaming',
          vocal_gender: 'f',
          style_weight: 0.65,
          weirdness_constraint: 0.3,
          audio_weight: 0.5,
        },
        'V5',
      );

      expect(result).to.deep.equal({ task: { taskId: TASK_ID } });
      expect(api.isDone()).to.equal(true);
    });

    it('sends a description in non-custom mode: description_prompt as the prompt, custom-only fields left out, callback_url from config', async () => {
      await harnesses.replace({ ...CONFIG, callback_url: 'https://hooks.example.org/suno' });
      const api = sunoApi()
        .post('/api/v1/generate', {
          customMode: false,
          instrumental: false,
          model: 'V4_5PLUS',
          callBackUrl: 'https://hooks.example.org/suno',
          prompt: 'an upbeat pop song about summer road trips',
        })
        .reply(200, { code: 200, msg: 'success', data: { taskId: TASK_ID } });

      await harness.start(OPERATION, { provider: 'suno', model: 'V4_5PLUS', description_prompt: 'an upbeat pop song about summer road trips', style: 'pop', title: 'Road' }, 'V4_5PLUS');

      expect(api.isDone()).to.equal(true);
    });
  });

  describe('status', () => {
    it('stays pending through PENDING, TEXT_SUCCESS and FIRST_SUCCESS, then hosts the first track of SUCCESS', async () => {
      const api = sunoApi()
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID }).reply(200, record('PENDING'))
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID }).reply(200, record('TEXT_SUCCESS'))
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID }).reply(200, record('FIRST_SUCCESS'))
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID })
        .reply(200, record('SUCCESS', { response: { taskId: TASK_ID, sunoData: [track('8551a662c', 'Quiet Hours'), track('9662b773d', 'Quiet Hours II')] } }));
      // The CDN's declared type is not trusted: sunoapi.org serves MP3.
      const cdn = nock(CDN).get('/8551a662c.mp3').reply(200, MP3, { 'content-type': 'application/octet-stream' });

      for (let poll = 0; poll < 3; poll += 1) expect(await harness.status(OPERATION, { taskId: TASK_ID })).to.deep.equal({ pending: {} });
      const result = await harness.status(OPERATION, { taskId: TASK_ID });

      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      const output = result.done;
      expect(output.audio_url).to.match(HOSTED_MP3);
      expect(output).to.deep.equal({
        task_id: TASK_ID,
        asset_type: 'audio',
        status: 'succeeded',
        audio_url: output.audio_url,
        requested_provider: 'suno',
        provider: 'suno',
        model: 'V5',
        title: 'Quiet Hours',
      });
      expect(harness.checkOutput(OPERATION, output)).to.deep.equal([]);
      expect(await harness.hostedBytes(output.audio_url as string)).to.deep.equal(MP3);
      expect(api.isDone() && cdn.isDone()).to.equal(true);
    });

    it('reports a failed generation with sunoapi.org\'s errorMessage, or the status when there is none', async () => {
      sunoApi()
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID })
        .reply(200, record('GENERATE_AUDIO_FAILED', { errorCode: 500, errorMessage: 'Internal Error, Please try again later.' }))
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID })
        .reply(200, record('SENSITIVE_WORD_ERROR'));

      expect(await harness.status(OPERATION, { taskId: TASK_ID })).to.deep.equal({ failed: 'suno: Internal Error, Please try again later.' });
      expect(await harness.status(OPERATION, { taskId: TASK_ID })).to.deep.equal({ failed: 'suno: generation ended with SENSITIVE_WORD_ERROR' });
    });
  });

  describe('vendor errors', () => {
    it('turns an HTTP 401 into a permanent error carrying sunoapi.org\'s message', async () => {
      sunoApi().post('/api/v1/generate').reply(401, { code: 401, msg: 'You do not have access permissions' });

      const error = await failure(harness.start(OPERATION, DESCRIPTION_INPUT));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('suno: You do not have access permissions (HTTP 401 on POST /api/v1/generate)');
      expect(error.details).to.include({ vendorStatus: 401, vendorCode: '401' });
      expect(harness.sleeps).to.deep.equal([]);
    });

    it('turns HTTP 200 with code 429 (no credits left) into a permanent error, and code 430 (too frequent) into a retryable one', async () => {
      sunoApi()
        .post('/api/v1/generate').reply(200, { code: 429, msg: 'The current credits are insufficient. Please top up.', data: null })
        .post('/api/v1/generate').reply(200, { code: 430, msg: 'Your call frequency is too high. Please try again later.', data: null });

      const credits = await failure(harness.start(OPERATION, DESCRIPTION_INPUT));
      const frequency = await failure(harness.start(OPERATION, DESCRIPTION_INPUT));

      expect(credits.retryable).to.equal(false);
      expect(credits.message).to.equal('suno: The current credits are insufficient. Please top up. (code 429 on POST /api/v1/generate)');
      expect(frequency.retryable).to.equal(true);
      expect(frequency.details).to.include({ vendorStatus: 200, vendorCode: '430' });
    });

    it('retries an HTTP 429 after its Retry-After (7 s), then succeeds', async () => {
      const api = sunoApi()
        .post('/api/v1/generate').reply(429, { code: 430, msg: 'Your call frequency is too high.' }, { 'Retry-After': '7' })
        .post('/api/v1/generate').reply(200, { code: 200, msg: 'success', data: { taskId: TASK_ID } });

      expect(await harness.start(OPERATION, DESCRIPTION_INPUT)).to.deep.equal({ task: { taskId: TASK_ID } });
      expect(harness.sleeps).to.deep.equal([7000]);
      expect(api.isDone()).to.equal(true);
    });

    it('opens the breaker after a burst of 503s, then fails fast (retryable) without calling sunoapi.org', async () => {
      sunoApi().get('/api/v1/generate/record-info').query(true).times(6).reply(503, 'Service Unavailable');

      for (let call = 0; call < 2; call += 1) {
        const error = await failure(harness.status(OPERATION, { taskId: TASK_ID }));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(harness.breakerState()).to.equal('open');
      nock.cleanAll();
      const untouched = sunoApi().post('/api/v1/generate').reply(200, { code: 200, msg: 'success', data: { taskId: TASK_ID } });

      const error = await failure(harness.start(OPERATION, DESCRIPTION_INPUT));

      expect(error.retryable).to.equal(true);
      expect(error.message).to.equal('provider suno is unavailable (circuit open)');
      expect(untouched.isDone()).to.equal(false);
    });

    it('fails permanently on malformed answers: no taskId, no envelope code, no audioUrl on SUCCESS, an undocumented status', async () => {
      sunoApi()
        .post('/api/v1/generate').reply(200, { code: 200, msg: 'success', data: {} })
        .post('/api/v1/generate').reply(200, { msg: 'success', data: { taskId: TASK_ID } })
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID }).reply(200, record('SUCCESS'))
        .get('/api/v1/generate/record-info').query({ taskId: TASK_ID }).reply(200, record('HALF_DONE'));

      const errors = [
        await failure(harness.start(OPERATION, DESCRIPTION_INPUT)),
        await failure(harness.start(OPERATION, DESCRIPTION_INPUT)),
        await failure(harness.status(OPERATION, { taskId: TASK_ID })),
        await failure(harness.status(OPERATION, { taskId: TASK_ID })),
      ];

      expect(errors.map((error) => error.retryable)).to.deep.equal([false, false, false, false]);
      expect(errors.map((error) => error.message)).to.deep.equal([
        'suno: malformed response: data.taskId is missing or not a string',
        'suno: malformed response: code is missing or not a number',
        'suno: malformed response: data.response.sunoData.0.audioUrl is missing or not a string',
        'suno: malformed response: unknown data.status "HALF_DONE"',
      ]);
    });
  });
});
