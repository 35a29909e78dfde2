import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nock from 'nock';
import vertex from '../../../plugins/vertex/index.js';
import type { VertexConfig } from '../../../plugins/vertex/index.js';
import type { JsonObject, PluginContext } from '../../../src/kernel/plugin-sdk/index.js';
import { pino } from 'pino';
import { LocalFolderBlobs } from '../../../src/kernel/blobs/index.js';
import { callProvider } from '../../../src/kernel/lifecycle/call-provider.js';
import { PluginRegistry } from '../../../src/kernel/plugins/index.js';
import { createFakePluginContext } from '../../support/fake-plugin-context.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, failure, threePngs, usePluginHarness } from '../../support/vendor-conformance.js';
import {
  CLIENT_EMAIL, CONFIG, KEY_FILE, PREDICT_PATH, PROJECT, PROMPT_BLOCKED, ROUTE, TOKEN_NOT_ACCEPTED, predictResponse, tokenExchange, tokenResponse, vertexApi,
  type ReceivedAssertion,
} from './vertex-test-kit.js';

const TASK_ID = /^vertex_[0-9a-f]{24}$/;

describe('vertex plugin: Imagen 4 on Vertex AI (image.generate)', () => {
  let harness: PluginHarness;
  const harnesses = usePluginHarness(vertex, CONFIG, (fresh) => (harness = fresh));
  let red: Buffer, blue: Buffer, green: Buffer;
  before(async () => {
    [red, blue, green] = await threePngs();
  });

  describe('request and output', () => {
    it('buys an access token with a signed service-account assertion, sends the documented predict request, and hosts the image', async () => {
      const received: ReceivedAssertion[] = [];
      tokenExchange(received).reply(200, tokenResponse('ya29.first-token'));
      vertexApi('ya29.first-token')
        .post(PREDICT_PATH, {
          instances: [{ prompt: 'a red bicycle leaning on a white wall, morning light' }],
          parameters: { sampleCount: 1, includeRaiReason: true, aspectRatio: '16:9', sampleImageSize: '2K' },
        })
        .matchHeader('content-type', 'application/json')
        .reply(200, predictResponse([{ bytes: red }]));
      const before = Math.floor(Date.now() / 1000);

      const result = await harness.start('image.generate', { prompt: 'a red bicycle leaning on a white wall, morning light', model: 'imagen-4', aspect_ratio: '16:9', resolution: '2K', quality: 'high' }, 'imagen-4');

      const after = Math.floor(Date.now() / 1000);
      const output = (result as { done: JsonObject }).done;
      expect(output.image_url).to.match(/\.png$/);
      await expectImageOutput(harness, 'image.generate', output, { provider: 'vertex', model: 'imagen-4', taskId: TASK_ID, aspectRatio: '16:9' }, [red]);
      expect(received).to.have.length(1);
      const [{ grantType, header, claims, signedByTestKey }] = received;
      expect(grantType).to.equal('urn:ietf:params:oauth:grant-type:jwt-bearer');
      expect(header).to.deep.equal({ alg: 'RS256', typ: 'JWT' });
      expect(claims).to.deep.equal({ iss: CLIENT_EMAIL, scope: 'https://www.googleapis.com/auth/cloud-platform', aud: 'https://oauth2.googleapis.com/token', iat: claims.iat, exp: claims.iat + 3600 });
      expect(claims.iat).to.be.within(before, after);
      expect(signedByTestKey).to.equal(true);
    });

    it('sends 1:1 when no aspect ratio is given and no sampleImageSize without a resolution; a style hint joins the prompt; a JPEG keeps its type', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token')
        .post(PREDICT_PATH, { instances: [{ prompt: 'isometric city block\nStyle: pastel colours' }], parameters: { sampleCount: 1, includeRaiReason: true, aspectRatio: '1:1' } })
        .reply(200, predictResponse([{ bytes: blue, mimeType: 'image/jpeg' }]));

      const result = (await harness.start('image.generate', { prompt: 'isometric city block', model: 'imagen-4', style: ' pastel colours ' }, 'imagen-4')) as { done: JsonObject };

      expect(result.done.image_url).to.match(/\.jpg$/);
      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'vertex', model: 'imagen-4', taskId: TASK_ID, aspectRatio: '1:1' }, [blue]);
    });

    it('reaches the endpoint of the configured location, with the project number as given', async () => {
      await harnesses.replace({ ...CONFIG, project_id: 123456789012, location: 'europe-west4' });
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token', 'https://europe-west4-aiplatform.googleapis.com')
        .post('/v1/projects/123456789012/locations/europe-west4/publishers/google/models/imagen-4.0-generate-001:predict')
        .reply(200, predictResponse([{ bytes: green }]));

      const result = (await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4', aspect_ratio: '9:16' }, 'imagen-4')) as { done: JsonObject };

      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'vertex', model: 'imagen-4', taskId: TASK_ID, aspectRatio: '9:16' }, [green]);
    });

    it('reaches the global endpoint for location global', async () => {
      await harnesses.replace({ ...CONFIG, location: 'global' });
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token', 'https://aiplatform.googleapis.com').post(`/v1/projects/${PROJECT}/locations/global/publishers/google/models/imagen-4.0-generate-001:predict`).reply(200, predictResponse([{ bytes: red }]));

      const result = (await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4')) as { done: JsonObject };

      expect(result.done.provider_image_count).to.equal(1);
    });

    it('keeps the path prefix of a configured base_url', async () => {
      await harnesses.replace({ ...CONFIG, base_url: 'https://proxy.example/vertex' });
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token', 'https://proxy.example').post(`/vertex${PREDICT_PATH}`).reply(200, predictResponse([{ bytes: red }]));

      const result = (await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4')) as { done: JsonObject };

      expect(result.done.provider_image_count).to.equal(1);
    });
  });

  describe('access tokens', () => {
    it('reuses the access token for later calls instead of exchanging a new assertion each time', async () => {
      const received: ReceivedAssertion[] = [];
      tokenExchange(received).once().reply(200, tokenResponse('ya29.cached'));
      vertexApi('ya29.cached').post(PREDICT_PATH).times(2).reply(200, predictResponse([{ bytes: red }]));

      await harness.start('image.generate', { prompt: 'first', model: 'imagen-4' }, 'imagen-4');
      await harness.start('image.generate', { prompt: 'second', model: 'imagen-4' }, 'imagen-4');

      expect(received).to.have.length(1);
      expect(nock.isDone()).to.equal(true);
    });

    it('exchanges a new assertion once the cached token is within five minutes of expiring, signed at the clock it was made', async () => {
      const received: ReceivedAssertion[] = [];
      tokenExchange(received).reply(200, tokenResponse('ya29.morning', 3599));
      tokenExchange(received).reply(200, tokenResponse('ya29.later'));
      vertexApi('ya29.morning').post(PREDICT_PATH).times(2).reply(200, predictResponse([{ bytes: red }]));
      vertexApi('ya29.later').post(PREDICT_PATH).reply(200, predictResponse([{ bytes: red }]));
      // One settings object, as the plugin registry hands every call of one registration.
      const config: VertexConfig = { ...CONFIG };
      const t0 = Date.UTC(2026, 10, 23, 9, 0, 0);
      const refreshAt = t0 + (3599 - 300) * 1000;

      for (const now of [t0, refreshAt - 1, refreshAt]) {
        const ctx = await createFakePluginContext<VertexConfig>({ config, now });
        try {
          await vertex.operations['image.generate'].start({ prompt: 'a lighthouse', model: 'imagen-4' }, ctx, ROUTE);
        } finally {
          await ctx.cleanup();
        }
      }

      expect(received.map(({ claims }) => [claims.iat, claims.exp])).to.deep.equal([
        [t0 / 1000, t0 / 1000 + 3600],
        [refreshAt / 1000, refreshAt / 1000 + 3600],
      ]);
      expect(nock.isDone()).to.equal(true);
    });

    it('exchanges a fresh token and sends the predict call once more when Vertex answers 401', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.revoked'));
      tokenExchange().reply(200, tokenResponse('ya29.fresh'));
      vertexApi('ya29.revoked').post(PREDICT_PATH).reply(401, TOKEN_NOT_ACCEPTED);
      vertexApi('ya29.fresh').post(PREDICT_PATH).reply(200, predictResponse([{ bytes: green }]));

      const result = (await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4')) as { done: JsonObject };

      await expectImageOutput(harness, 'image.generate', result.done, { provider: 'vertex', model: 'imagen-4', taskId: TASK_ID, aspectRatio: '1:1' }, [green]);
      expect(nock.isDone()).to.equal(true);
    });

    it('fails permanently with Google\'s message when the fresh token is refused too, after exactly one resend', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.one'));
      tokenExchange().reply(200, tokenResponse('ya29.two'));
      vertexApi('ya29.one').post(PREDICT_PATH).reply(401, TOKEN_NOT_ACCEPTED);
      vertexApi('ya29.two').post(PREDICT_PATH).reply(401, TOKEN_NOT_ACCEPTED);

      const error = await failure(harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4'));

      expect(error.retryable).to.equal(false);
      expect(error.details.vendorStatus).to.equal(401);
      expect(error.details.vendorCode).to.equal('UNAUTHENTICATED');
      expect(error.message).to.equal(`vertex: ${TOKEN_NOT_ACCEPTED.error.message} (HTTP 401 on POST ${PREDICT_PATH})`);
      expect(nock.isDone()).to.equal(true);
    });

    it('records only the predict calls as submissions, never the token purchase (it makes no vendor job)', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.revoked'));
      tokenExchange().reply(200, tokenResponse('ya29.fresh'));
      vertexApi('ya29.revoked').post(PREDICT_PATH).reply(401, TOKEN_NOT_ACCEPTED);
      vertexApi('ya29.fresh').post(PREDICT_PATH).reply(200, predictResponse([{ bytes: green }]));
      const dir = await mkdtemp(join(tmpdir(), 'mediagate-vertex-calls-'));
      const plugins = new PluginRegistry({ timeout_ms: 30_000, error_threshold_percentage: 50, reset_timeout_ms: 60_000, volume_threshold: 3, rolling_count_timeout_ms: 10_000 });
      const submissions: string[] = [];
      try {
        plugins.register(vertex, CONFIG);
        const deps = { blobs: new LocalFolderBlobs(dir), publicUrl: 'http://gateway.test', pluginStateRoot: join(dir, 'plugin-state'), log: pino({ level: 'silent' }), clock: { now: () => Date.now() } };
        const call = { requestId: 'req_submissions', operation: 'image.generate', route: ROUTE, timeoutMs: 30_000, beforeSubmission: async () => void submissions.push('predict') };
        const input = { prompt: 'a lighthouse', model: 'imagen-4' };

        await callProvider(deps, plugins.get('vertex')!, call, (context) => vertex.operations['image.generate'].start(input, context as PluginContext<VertexConfig>, ROUTE));
      } finally {
        plugins.shutdown();
        await rm(dir, { recursive: true, force: true });
      }

      // Two predict POSTs (the first refused with 401), two token exchanges, two submissions recorded.
      expect(submissions).to.deep.equal(['predict', 'predict']);
      expect(nock.isDone()).to.equal(true);
    });

    it('fails permanently with the OAuth error, without calling Vertex, when Google refuses the assertion', async () => {
      tokenExchange().reply(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });

      const error = await failure(harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('vertex: access token refused: invalid_grant (Invalid JWT Signature.) (HTTP 400 on POST /token)');
      expect(error.details.vendorCode).to.equal('invalid_grant');
    });

    it('waits for Retry-After when the token endpoint is briefly unavailable, then goes on', async () => {
      tokenExchange().reply(503, 'Service Unavailable', { 'Retry-After': '2' });
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token').post(PREDICT_PATH).reply(200, predictResponse([{ bytes: red }]));

      await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4');

      expect(harness.sleeps).to.deep.equal([2000]);
      expect(nock.isDone()).to.equal(true);
    });

    it('fails permanently on a token answer without an access token', async () => {
      tokenExchange().reply(200, { token_type: 'Bearer', expires_in: 3599 });
      const error = await failure(harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('vertex: malformed response: access_token is missing or not a string');
    });
  });

  describe('service-account key', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'mediagate-vertex-key-'));
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('reads the key from credentials_file', async () => {
      const path = join(dir, 'key.json');
      await writeFile(path, JSON.stringify(KEY_FILE));
      await harnesses.replace({ project_id: PROJECT, credentials_file: path });
      const received: ReceivedAssertion[] = [];
      tokenExchange(received).reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token').post(PREDICT_PATH).reply(200, predictResponse([{ bytes: red }]));

      await harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4');

      expect(received.map(({ claims, signedByTestKey }) => [claims.iss, signedByTestKey])).to.deep.equal([[CLIENT_EMAIL, true]]);
    });

    const unusable: Array<[string, Record<string, unknown>, string]> = [
      ['a missing file', { credentials_file: '/nonexistent/mediagate/key.json' }, 'providers.vertex.credentials_file is not a usable service-account key: the file cannot be read (ENOENT)'],
      ['text that is not JSON', { credentials_json: 'private_key=secret-material' }, 'providers.vertex.credentials_json is not a usable service-account key: it is not JSON'],
      ['an OAuth client file', { credentials_json: JSON.stringify({ installed: { client_id: 'x', client_secret: 'secret-material' } }) }, 'providers.vertex.credentials_json is not a usable service-account key: it is not a service-account key ("type" is not "service_account")'],
      ['a key without its private key', { credentials_json: JSON.stringify({ ...KEY_FILE, private_key: undefined }) }, 'providers.vertex.credentials_json is not a usable service-account key: private_key is missing'],
      ['a private key that is not PEM', { credentials_json: JSON.stringify({ ...KEY_FILE, private_key: 'secret-material' }) }, 'providers.vertex.credentials_json is not a usable service-account key: private_key is not a PEM private key'],
    ];
    for (const [what, credentials, message] of unusable) {
      it(`fails permanently, before any vendor call and without quoting the key, on ${what}`, async () => {
        await harnesses.replace({ project_id: PROJECT, ...credentials });
        const error = await failure(harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4'));
        expect(error.retryable).to.equal(false);
        expect(error.message).to.equal(`vertex: ${message}`);
        expect(error.message).not.to.include('secret-material');
      });
    }
  });

  describe('inputs and answers Imagen cannot turn into an image', () => {
    it('refuses reference images before buying a token or calling Vertex', async () => {
      const error = await failure(harness.start('image.generate', { prompt: 'the subject in the style', model: 'imagen-4', reference_image_urls: ['https://images.example/inputs/subject.png'] }, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.details.vendorCode).to.equal('unsupported_input');
      expect(error.message).to.equal('vertex: imagen-4 (imagen-4.0-generate-001) takes no reference images; leave out reference_image_urls or choose a model that takes them');
    });

    it("fails permanently with Google's message when the prompt is refused (400)", async () => {
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token').post(PREDICT_PATH).reply(400, PROMPT_BLOCKED);
      const error = await failure(harness.start('image.generate', { prompt: 'something forbidden', model: 'imagen-4' }, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.details.vendorCode).to.equal('INVALID_ARGUMENT');
      expect(error.message).to.equal(`vertex: ${PROMPT_BLOCKED.error.message} (HTTP 400 on POST ${PREDICT_PATH})`);
    });

    it('fails permanently with the Responsible AI reason when the image was filtered out', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      // The shape of VisionGenerativeModelResult with includeRaiReason; the wording is illustrative.
      const reason = 'Unable to show generated images. All images were filtered out because they violated Vertex AI\'s usage guidelines. You will not be charged for blocked images. Try rephrasing the prompt. Support codes: 56562880';
      vertexApi('ya29.token').post(PREDICT_PATH).reply(200, { predictions: [{ raiFilteredReason: reason }] });
      const error = await failure(harness.start('image.generate', { prompt: 'a crowd', model: 'imagen-4' }, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.details.vendorCode).to.equal('rai_filtered');
      expect(error.message).to.equal(`vertex: no image was rendered: ${reason}`);
    });

    it('fails permanently on a prediction with neither image bytes nor a filter reason', async () => {
      tokenExchange().reply(200, tokenResponse('ya29.token'));
      vertexApi('ya29.token').post(PREDICT_PATH).reply(200, { predictions: [{ mimeType: 'image/png' }] });
      const error = await failure(harness.start('image.generate', { prompt: 'a lighthouse', model: 'imagen-4' }, 'imagen-4'));
      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('vertex: malformed response: predictions.0.bytesBase64Encoded is missing or not a string');
    });
  });
});
