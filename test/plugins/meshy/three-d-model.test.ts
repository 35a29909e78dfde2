import { expect } from 'chai';
import nock from 'nock';
import meshyPlugin from '../../../plugins/meshy/index.js';
import type { MeshyConfig } from '../../../plugins/meshy/index.js';
import { createVendorHttp, ProviderError, type PluginContext, type ProviderTask } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { failure, usePluginHarness } from '../../support/vendor-conformance.js';

const OPERATION = 'three_d.model.generate';
const API = 'https://api.meshy.ai';
const ASSETS = 'https://assets.meshy.ai';
const KEY = 'msy_test_key_not_real';
const CONFIG = { api_key: KEY };
const TASK_ID = '0193bfc5-ee4f-73f8-8525-44b398884ce9';
const SIGNED = { Expires: '1735689600', Signature: 'abc' };
const HOSTED = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.[a-z0-9]+$/;

/** The finished task as Meshy's reference shows it (https://docs.meshy.ai/api/image-to-3d). */
function succeededTask(): Record<string, unknown> {
  const output = `${ASSETS}/tasks/${TASK_ID}/output`;
  const signed = '?Expires=1735689600&Signature=abc';
  return {
    id: TASK_ID,
    type: 'image-to-3d',
    model_urls: { glb: `${output}/model.glb${signed}`, fbx: `${output}/model.fbx${signed}`, usdz: `${output}/model.usdz${signed}` },
    thumbnail_url: `${output}/preview.png${signed}`,
    texture_prompt: '',
    progress: 100,
    started_at: 1692771667037,
    created_at: 1692771650657,
    expires_at: 1692771679911,
    finished_at: 1692771669037,
    status: 'SUCCEEDED',
    texture_urls: [{ base_color: `${output}/texture_0.png${signed}` }],
    preceding_tasks: 0,
    task_error: { message: '' },
  };
}

const FILES = {
  glb: Buffer.from('glTF\x02\x00\x00\x00 meshy model bytes'),
  fbx: Buffer.from('Kaydara FBX Binary  meshy'),
  usdz: Buffer.from('PK\x03\x04 usdz archive'),
  thumbnail: Buffer.from('\x89PNG\r\n\x1a\n thumbnail'),
  texture: Buffer.from('\x89PNG\r\n\x1a\n base colour'),
};

/** Serves the finished task's files the way a CDN does: GLB/FBX/USDZ as octet-stream. */
function serveAssets(): nock.Scope {
  const output = `/tasks/${TASK_ID}/output`;
  return nock(ASSETS)
    .get(`${output}/model.glb`).query(SIGNED).reply(200, FILES.glb, { 'content-type': 'application/octet-stream' })
    .get(`${output}/model.fbx`).query(SIGNED).reply(200, FILES.fbx, { 'content-type': 'application/octet-stream' })
    .get(`${output}/model.usdz`).query(SIGNED).reply(200, FILES.usdz, { 'content-type': 'application/octet-stream' })
    .get(`${output}/preview.png`).query(SIGNED).reply(200, FILES.thumbnail, { 'content-type': 'image/png' })
    .get(`${output}/texture_0.png`).query(SIGNED).reply(200, FILES.texture, { 'content-type': 'image/png' });
}

function meshyApi(): nock.Scope {
  return nock(API, { reqheaders: { authorization: `Bearer ${KEY}` } });
}

describe('meshy plugin: three_d.model.generate', () => {
  let harness: PluginHarness;

  const harnesses = usePluginHarness(meshyPlugin, CONFIG, (created) => (harness = created));

  describe('definition', () => {
    it('is enabled only with an API key, and defaults the base URL to Meshy', () => {
      expect(meshyPlugin.isEnabled({})).to.equal(false);
      expect(meshyPlugin.isEnabled({ api_key: '' })).to.equal(false);
      expect(meshyPlugin.isEnabled({ api_key: KEY })).to.equal(true);
      expect(Object.keys(meshyPlugin.operations)).to.deep.equal([OPERATION]);
      expect(meshyPlugin.configSchema).to.deep.include({ additionalProperties: false });
      expect((meshyPlugin.configSchema.properties as Record<string, { default?: string }>).base_url.default).to.equal(API);
    });
  });

  describe('start', () => {
    it('sends one source image to image-to-3d with the route model, texturing on, and the colour as a texture prompt', async () => {
      const api = meshyApi()
        .post('/openapi/v1/image-to-3d', {
          image_url: 'https://example.com/inputs/mug.png',
          ai_model: 'meshy-6',
          should_texture: true,
          target_formats: ['glb', 'fbx', 'usdz'],
          texture_prompt: 'Use #1E90FF as the base colour of the surface.',
        })
        .reply(202, { result: TASK_ID });

      const result = await harness.start(OPERATION, {
        source_image_urls: ['https://example.com/inputs/mug.png'],
        asset_kind: 'object',
        name: 'Coffee mug',
        texture_base_color: '#1e90ff',
        object_id: 'obj_1',
        workspace_id: 'ws_1',
      });

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'openapi/v1/image-to-3d', asset_kind: 'object' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('sends several views to multi-image-to-3d as image_urls, and keeps asset_kind for the output', async () => {
      const views = ['https://example.com/front.png', 'https://example.com/side.png', 'https://example.com/back.png'];
      const api = meshyApi()
        .post('/openapi/v1/multi-image-to-3d', { image_urls: views, ai_model: 'meshy-6', should_texture: true, target_formats: ['glb', 'fbx', 'usdz'] })
        .reply(202, { result: TASK_ID });

      const result = await harness.start(OPERATION, { source_image_urls: views, asset_kind: 'character', character_id: 'char_1' });

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'openapi/v1/multi-image-to-3d', asset_kind: 'character' } } });
      expect(api.isDone()).to.equal(true);
    });

    it('fails permanently with Meshy\'s own message on a 4xx', async () => {
      meshyApi().post('/openapi/v1/image-to-3d').reply(400, { message: 'Invalid image_url: the image could not be downloaded' });

      const error = await failure(harness.start(OPERATION, { source_image_urls: ['https://example.com/missing.png'] }));

      expect(error.retryable).to.equal(false);
      expect(error.details.vendorStatus).to.equal(400);
      expect(error.message).to.equal('meshy: Invalid image_url: the image could not be downloaded (HTTP 400 on POST /openapi/v1/image-to-3d)');
      expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(KEY);
      expect(harness.sleeps).to.deep.equal([]);
    });

    it('treats 402 (no credits) as permanent too', async () => {
      meshyApi().post('/openapi/v1/image-to-3d').reply(402, { message: 'Insufficient funds' });

      const error = await failure(harness.start(OPERATION, { source_image_urls: ['https://example.com/a.png'] }));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.contain('Insufficient funds');
    });

    it('waits out a 429 for its Retry-After, then succeeds', async () => {
      const api = meshyApi()
        .post('/openapi/v1/image-to-3d').reply(429, { message: 'Too many requests' }, { 'retry-after': '7' })
        .post('/openapi/v1/image-to-3d').reply(202, { result: TASK_ID });

      const result = await harness.start(OPERATION, { source_image_urls: ['https://example.com/a.png'] });

      expect(result).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'openapi/v1/image-to-3d', asset_kind: 'object' } } });
      expect(harness.sleeps).to.deep.equal([7000]);
      expect(api.isDone()).to.equal(true);
    });

    it('fails permanently when a 2xx carries no task id', async () => {
      meshyApi().post('/openapi/v1/image-to-3d').reply(202, { task: TASK_ID });

      const error = await failure(harness.start(OPERATION, { source_image_urls: ['https://example.com/a.png'] }));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('meshy: malformed response: result is missing or not a string');
    });
  });

  describe('status', () => {
    const task: ProviderTask = { taskId: TASK_ID, state: { path: 'openapi/v1/image-to-3d', asset_kind: 'object' } };

    it('reports PENDING and IN_PROGRESS with progress, then hosts the finished GLB, thumbnail and other artifacts', async () => {
      const api = meshyApi()
        .get(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(200, { id: TASK_ID, status: 'PENDING', progress: 0, preceding_tasks: 3 })
        .get(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(200, { id: TASK_ID, status: 'IN_PROGRESS', progress: 45 }, { 'retry-after': '5' })
        .get(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(200, succeededTask());
      const assets = serveAssets();

      expect(await harness.status(OPERATION, task)).to.deep.equal({ pending: { progress: 0 } });
      expect(await harness.status(OPERATION, task)).to.deep.equal({ pending: { progress: 45 } });
      const result = await harness.status(OPERATION, task);

      expect(api.isDone()).to.equal(true);
      expect(assets.isDone()).to.equal(true);
      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      const output = result.done;
      expect(output).to.deep.equal({
        task_id: TASK_ID,
        asset_type: '3d_model',
        status: 'succeeded',
        model_url: output.model_url,
        preview_image_urls: output.preview_image_urls,
        raw_artifact_urls: output.raw_artifact_urls,
        provider: 'meshy',
        model: 'meshy-6',
        asset_kind: 'object',
      });
      expect(harness.checkOutput(OPERATION, output)).to.deep.equal([]);

      const modelUrl = String(output.model_url);
      const previews = output.preview_image_urls as string[];
      const artifacts = output.raw_artifact_urls as string[];
      for (const url of [modelUrl, ...previews, ...artifacts]) expect(url).to.match(HOSTED);
      expect(modelUrl).to.match(/\.glb$/);
      expect(previews).to.have.length(1);
      expect(previews[0]).to.match(/\.png$/);
      expect(artifacts.map((url) => url.slice(url.lastIndexOf('.')))).to.deep.equal(['.fbx', '.usdz', '.png']);
      expect(await harness.hostedBytes(modelUrl)).to.deep.equal(FILES.glb);
      expect(await harness.hostedBytes(previews[0])).to.deep.equal(FILES.thumbnail);
      expect(await Promise.all(artifacts.map((url) => harness.hostedBytes(url)))).to.deep.equal([FILES.fbx, FILES.usdz, FILES.texture]);
    });

    it('polls a multi-image task at its own endpoint and reports the stored asset_kind', async () => {
      meshyApi().get(`/openapi/v1/multi-image-to-3d/${TASK_ID}`).reply(200, { ...succeededTask(), type: 'multi-image-to-3d' });
      serveAssets();

      const result = await harness.status(OPERATION, { taskId: TASK_ID, state: { path: 'openapi/v1/multi-image-to-3d', asset_kind: 'character' } });

      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      expect(result.done.asset_kind).to.equal('character');
      expect(harness.checkOutput(OPERATION, result.done)).to.deep.equal([]);
    });

    it('reports a FAILED task with Meshy\'s task_error message', async () => {
      meshyApi()
        .get(`/openapi/v1/image-to-3d/${TASK_ID}`)
        .reply(200, { id: TASK_ID, status: 'FAILED', progress: 0, task_error: { message: 'The image contains no recognisable object.' } });

      expect(await harness.status(OPERATION, task)).to.deep.equal({ failed: 'The image contains no recognisable object.' });
    });

    it('fails permanently when a SUCCEEDED task has no GLB', async () => {
      const finished = succeededTask();
      finished.model_urls = { fbx: 'https://assets.meshy.ai/x/model.fbx' };
      meshyApi().get(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(200, finished);

      const error = await failure(harness.status(OPERATION, task));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('meshy: malformed response: model_urls.glb is missing or not a string');
    });

    it('fails permanently with Meshy\'s message when the task is unknown (404)', async () => {
      meshyApi().get(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(404, { message: 'Task not found' });

      const error = await failure(harness.status(OPERATION, task));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.contain('Task not found');
    });
  });

  describe('cancel', () => {
    // cancel is not driven by the harness (the kernel does not call it yet): a bare context with the real
    // vendor HTTP client is enough, since cancel touches nothing else.
    const context: Pick<PluginContext<MeshyConfig>, 'config' | 'http'> = { config: CONFIG, http: (options) => createVendorHttp(options) };
    const ctx = context as PluginContext<MeshyConfig>;
    const route = { model: 'meshy-6', vendorModel: 'meshy-6', publicName: 'meshy-6' };

    it('deletes the task at the endpoint that created it', async () => {
      const api = meshyApi().delete(`/openapi/v1/multi-image-to-3d/${TASK_ID}`).reply(200, {});

      await meshyPlugin.operations[OPERATION].cancel!({ taskId: TASK_ID, state: { path: 'openapi/v1/multi-image-to-3d' } }, ctx, route);

      expect(api.isDone()).to.equal(true);
    });

    it('takes a task that is already gone as cancelled', async () => {
      meshyApi().delete(`/openapi/v1/image-to-3d/${TASK_ID}`).reply(404, { message: 'Task not found' });

      await meshyPlugin.operations[OPERATION].cancel!({ taskId: TASK_ID, state: { path: 'openapi/v1/image-to-3d' } }, ctx, route);
    });
  });

  describe('circuit breaker', () => {
    it('opens after a burst of 503s, then fails fast (retryable) without calling Meshy', async () => {
      await harnesses.replace(CONFIG, { volume_threshold: 2 });
      // Three attempts per call (the SDK's retries), two calls.
      const outage = meshyApi().post('/openapi/v1/image-to-3d').times(6).reply(503, { message: 'Service Unavailable' });
      const input = { source_image_urls: ['https://example.com/a.png'] };

      for (let call = 0; call < 2; call += 1) {
        const error = await failure(harness.start(OPERATION, input));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
      }
      expect(outage.isDone()).to.equal(true);
      expect(harness.breakerState()).to.equal('open');

      const untouched = meshyApi().post('/openapi/v1/image-to-3d').reply(202, { result: TASK_ID });
      const error = await failure(harness.start(OPERATION, input));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.equal('provider meshy is unavailable (circuit open)');
      expect(untouched.isDone()).to.equal(false);
    });
  });
});
