import { expect } from 'chai';
import nock from 'nock';
import worldLabsPlugin from '../../../plugins/worldlabs/index.js';
import { ProviderError, type JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { failure, usePluginHarness } from '../../support/vendor-conformance.js';

const OPERATION = 'three_d.location.generate';
const API = 'https://api.worldlabs.ai';
const CDN = 'https://cdn.marble.worldlabs.ai';
const KEY = 'wlt_test_key_not_real';
const CONFIG = { api_key: KEY };
const OPERATION_ID = '20bffbb1-4ba7-453f-a116-93ea01a6843e';
const WORLD_ID = 'd5b2c1a0-7f3e-4c8a-9b61-2e4f8a9c0d17';
const HOSTED = /^http:\/\/gateway\.test\/files\/req_[^/]+\/[0-9a-f]{16}\.[a-z0-9]+$/;

/** An Operation as POST worlds:generate and a running GET operations answer it (https://docs.worldlabs.ai/api). */
function runningOperation(metadata: JsonObject | null = null): JsonObject {
  return { operation_id: OPERATION_ID, created_at: '2025-01-15T10:30:00Z', updated_at: '2025-01-15T10:30:00Z', expires_at: null, done: false, error: null, metadata, response: null };
}

/** A generated world (the reference's World object, assets per WorldAssets). */
function world(): JsonObject {
  const files = `${CDN}/worlds/${WORLD_ID}`;
  return {
    world_id: WORLD_ID,
    display_name: 'Reading room',
    world_marble_url: `https://marble.worldlabs.ai/world/${WORLD_ID}`,
    model: 'marble-1.1',
    created_at: '2025-01-15T10:35:12Z',
    updated_at: '2025-01-15T10:35:12Z',
    tags: null,
    permission: { public: false, allowed_readers: [], allowed_writers: [] },
    world_prompt: { type: 'text', text_prompt: 'a quiet library reading room with tall windows and green desk lamps' },
    assets: {
      caption: 'A quiet reading room.',
      thumbnail_url: `${files}/thumbnail.webp?sig=t`,
      imagery: { pano_url: `${files}/pano.png?sig=p` },
      mesh: { collider_mesh_url: `${files}/collider.glb?sig=c` },
      splats: {
        spz_urls: { '100k': `${files}/splats_100k.spz?sig=s1`, '500k': `${files}/splats_500k.spz?sig=s5`, full_res: `${files}/splats_full.spz?sig=sf` },
        semantics_metadata: { ground_plane_offset: 1.6, metric_scale_factor: 1.2 },
      },
    },
  };
}

function doneOperation(response: JsonObject | null, metadata: JsonObject | null = null): JsonObject {
  return { ...runningOperation(metadata), done: true, response, cost: { total_credits: 1580 } };
}

const FILES = {
  spz: Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x53, 0x50, 0x5a, 0x21]),
  pano: Buffer.from('\x89PNG\r\n\x1a\n panorama'),
  collider: Buffer.from('glTF\x02\x00\x00\x00 collider'),
  thumbnail: Buffer.from('RIFF\x00\x00\x00\x00WEBP thumbnail'),
};

/** The world's files as a CDN serves them; only the full-resolution SPZ is expected to be fetched. */
function serveWorldFiles(): nock.Scope {
  const files = `/worlds/${WORLD_ID}`;
  return nock(CDN)
    .get(`${files}/splats_full.spz`).query({ sig: 'sf' }).reply(200, FILES.spz, { 'content-type': 'application/octet-stream' })
    .get(`${files}/pano.png`).query({ sig: 'p' }).reply(200, FILES.pano, { 'content-type': 'image/png' })
    .get(`${files}/collider.glb`).query({ sig: 'c' }).reply(200, FILES.collider, { 'content-type': 'application/octet-stream' })
    .get(`${files}/thumbnail.webp`).query({ sig: 't' }).reply(200, FILES.thumbnail, { 'content-type': 'image/webp' });
}

function worldApi(): nock.Scope {
  return nock(API, { reqheaders: { 'wlt-api-key': KEY } });
}

describe('worldlabs plugin: three_d.location.generate', () => {
  let harness: PluginHarness;

  const harnesses = usePluginHarness(worldLabsPlugin, CONFIG, (created) => (harness = created));

  describe('definition', () => {
    it('is enabled only with an API key, and defaults the base URL to the World API', () => {
      expect(worldLabsPlugin.isEnabled({})).to.equal(false);
      expect(worldLabsPlugin.isEnabled({ api_key: '' })).to.equal(false);
      expect(worldLabsPlugin.isEnabled({ api_key: KEY })).to.equal(true);
      expect(Object.keys(worldLabsPlugin.operations)).to.deep.equal([OPERATION]);
      expect((worldLabsPlugin.configSchema.properties as Record<string, { default?: string }>).base_url.default).to.equal(API);
      expect(worldLabsPlugin.operations[OPERATION].cancel).to.equal(undefined);
    });
  });

  describe('start', () => {
    it('sends a description alone as a text prompt, with the route model and the name as display_name', async () => {
      const api = worldApi()
        .post('/marble/v1/worlds:generate', {
          display_name: 'Reading room',
          model: 'marble-1.1',
          world_prompt: { type: 'text', text_prompt: 'a quiet library reading room with tall windows and green desk lamps' },
        })
        .reply(200, runningOperation());

      const result = await harness.start(OPERATION, {
        name: 'Reading room',
        description: 'a quiet library reading room with tall windows and green desk lamps',
        quality: 'standard',
        location_id: 'loc_1',
        project_id: 'proj_1',
      });

      expect(result).to.deep.equal({ task: { taskId: OPERATION_ID } });
      expect(api.isDone()).to.equal(true);
    });

    it('sends one photo as an image prompt by URI, the description as its text, and cuts the name to 64 characters', async () => {
      const name = 'A harbour at dawn, photographed from the end of the northern breakwater';
      const api = worldApi()
        .post('/marble/v1/worlds:generate', {
          display_name: name.slice(0, 64),
          model: 'marble-1.1',
          world_prompt: { type: 'image', image_prompt: { source: 'uri', uri: 'https://example.com/harbour.jpg' }, text_prompt: 'a small harbour at dawn' },
        })
        .reply(200, runningOperation());

      const result = await harness.start(OPERATION, { name, description: 'a small harbour at dawn', source_image_urls: ['https://example.com/harbour.jpg'] });

      expect(result).to.deep.equal({ task: { taskId: OPERATION_ID } });
      expect(api.isDone()).to.equal(true);
    });

    it('sends several photos as a multi-image prompt placed by angle_context, the first image at 0 degrees', async () => {
      const api = worldApi()
        .post('/marble/v1/worlds:generate', {
          model: 'marble-1.1',
          world_prompt: {
            type: 'multi-image',
            multi_image_prompt: [
              { azimuth: 0, content: { source: 'uri', uri: 'https://example.com/door.jpg' } },
              { azimuth: 90, content: { source: 'uri', uri: 'https://example.com/window.jpg' } },
              { content: { source: 'uri', uri: 'https://example.com/shelves.jpg' } },
            ],
          },
        })
        .reply(200, runningOperation());

      const result = await harness.start(OPERATION, {
        source_image_urls: ['https://example.com/door.jpg', 'https://example.com/window.jpg', 'https://example.com/shelves.jpg'],
        angle_context: [{ image_url: 'https://example.com/window.jpg', label: 'window', azimuth: 90 }, { image_url: 'https://example.com/shelves.jpg', label: 'shelves' }],
      });

      expect(result).to.deep.equal({ task: { taskId: OPERATION_ID } });
      expect(api.isDone()).to.equal(true);
    });

    it('switches to reconstruction mode for more than four photos', async () => {
      const photos = [1, 2, 3, 4, 5, 6].map((n) => `https://example.com/room-${n}.jpg`);
      const api = worldApi()
        .post('/marble/v1/worlds:generate', {
          model: 'marble-1.1',
          world_prompt: {
            type: 'multi-image',
            reconstruct_images: true,
            multi_image_prompt: photos.map((uri) => ({ content: { source: 'uri', uri } })),
            text_prompt: 'a small office',
          },
        })
        .reply(200, runningOperation());

      await harness.start(OPERATION, { description: 'a small office', source_image_urls: photos });

      expect(api.isDone()).to.equal(true);
    });

    it('fails permanently with the detail sentence of a 4xx', async () => {
      worldApi()
        .post('/marble/v1/worlds:generate')
        .reply(402, { detail: 'Insufficient API credits to start this request. Add credits or enable auto-refill at https://platform.worldlabs.ai/billing.' });

      const error = await failure(harness.start(OPERATION, { description: 'a harbour' }));

      expect(error.retryable).to.equal(false);
      expect(error.details.vendorStatus).to.equal(402);
      expect(error.message).to.equal(
        'worldlabs: Insufficient API credits to start this request. Add credits or enable auto-refill at https://platform.worldlabs.ai/billing. (HTTP 402 on POST /marble/v1/worlds:generate)',
      );
      expect(JSON.stringify({ message: error.message, details: error.details })).not.to.contain(KEY);
      expect(harness.sleeps).to.deep.equal([]);
    });

    it('turns a 422 validation list into one line naming the fields', async () => {
      worldApi()
        .post('/marble/v1/worlds:generate')
        .reply(422, { detail: [{ loc: ['body', 'display_name'], msg: 'String should have at most 64 characters', type: 'string_too_long' }, { loc: ['body', 'world_prompt', 'image'], msg: 'Field required', type: 'missing' }] });

      const error = await failure(harness.start(OPERATION, { description: 'a harbour' }));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('worldlabs: display_name: String should have at most 64 characters; world_prompt.image: Field required (HTTP 422 on POST /marble/v1/worlds:generate)');
    });

    it('waits out a 429 for its Retry-After, then succeeds', async () => {
      const api = worldApi()
        .post('/marble/v1/worlds:generate').reply(429, { detail: 'Rate limit exceeded' }, { 'retry-after': '7' })
        .post('/marble/v1/worlds:generate').reply(200, runningOperation());

      const result = await harness.start(OPERATION, { description: 'a harbour' });

      expect(result).to.deep.equal({ task: { taskId: OPERATION_ID } });
      expect(harness.sleeps).to.deep.equal([7000]);
      expect(api.isDone()).to.equal(true);
    });

    it('fails permanently when a 2xx carries no operation id', async () => {
      worldApi().post('/marble/v1/worlds:generate').reply(200, { done: false });

      const error = await failure(harness.start(OPERATION, { description: 'a harbour' }));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('worldlabs: malformed response: operation_id is missing or not a string');
    });
  });

  describe('status', () => {
    const task = { taskId: OPERATION_ID };

    it('reports a running operation, then hosts the finished world\'s splats, panorama, collider and thumbnail', async () => {
      const api = worldApi()
        .get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, runningOperation(null))
        .get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, runningOperation({ progress: 40, world_id: WORLD_ID }))
        .get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, runningOperation({ progress: { status: 'IN_PROGRESS', description: 'Generating world' }, world_id: WORLD_ID }))
        .get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, doneOperation(world(), { world_id: WORLD_ID }));
      const files = serveWorldFiles();

      expect(await harness.status(OPERATION, task)).to.deep.equal({ pending: { progress: undefined } });
      expect(await harness.status(OPERATION, task)).to.deep.equal({ pending: { progress: 40 } });
      expect(await harness.status(OPERATION, task)).to.deep.equal({ pending: { progress: undefined } });
      const result = await harness.status(OPERATION, task);

      expect(api.isDone()).to.equal(true);
      expect(files.isDone()).to.equal(true);
      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      const output = result.done;
      expect(output).to.deep.equal({
        task_id: OPERATION_ID,
        asset_type: '3d_location',
        status: 'succeeded',
        splat_url: output.spz_url,
        spz_url: output.spz_url,
        pano_url: output.pano_url,
        collider_glb_url: output.collider_glb_url,
        preview_image_urls: output.preview_image_urls,
        provider: 'worldlabs',
        model: 'marble-1.1',
      });
      expect(harness.checkOutput(OPERATION, output)).to.deep.equal([]);

      const previews = output.preview_image_urls as string[];
      for (const url of [output.spz_url, output.pano_url, output.collider_glb_url, ...previews]) expect(url).to.match(HOSTED);
      expect(output.spz_url).to.match(/\.spz$/);
      expect(output.pano_url).to.match(/\.png$/);
      expect(output.collider_glb_url).to.match(/\.glb$/);
      expect(previews).to.have.length(1);
      expect(previews[0]).to.match(/\.webp$/);
      expect(await harness.hostedBytes(String(output.spz_url))).to.deep.equal(FILES.spz);
      expect(await harness.hostedBytes(String(output.pano_url))).to.deep.equal(FILES.pano);
      expect(await harness.hostedBytes(String(output.collider_glb_url))).to.deep.equal(FILES.collider);
      expect(await harness.hostedBytes(previews[0])).to.deep.equal(FILES.thumbnail);
    });

    it('fetches the world by metadata.world_id when the finished operation carries no snapshot', async () => {
      const api = worldApi()
        .get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, doneOperation(null, { world_id: WORLD_ID }))
        .get(`/marble/v1/worlds/${WORLD_ID}`).reply(200, world());
      serveWorldFiles();

      const result = await harness.status(OPERATION, task);

      expect(api.isDone()).to.equal(true);
      if (!('done' in result)) throw new Error(`expected done, got ${JSON.stringify(result)}`);
      expect(harness.checkOutput(OPERATION, result.done)).to.deep.equal([]);
      expect(await harness.hostedBytes(String(result.done.splat_url))).to.deep.equal(FILES.spz);
    });

    it('reports a failed operation with its error message', async () => {
      worldApi()
        .get(`/marble/v1/operations/${OPERATION_ID}`)
        .reply(200, { ...runningOperation(), done: true, error: { code: 3, message: 'The prompt violates the content policy.' } });

      expect(await harness.status(OPERATION, task)).to.deep.equal({ failed: 'The prompt violates the content policy.' });
    });

    it('fails permanently when the finished world has no collider mesh', async () => {
      const incomplete = world();
      (incomplete.assets as JsonObject).mesh = { collider_mesh_url: null };
      worldApi().get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, doneOperation(incomplete));

      const error = await failure(harness.status(OPERATION, task));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('worldlabs: malformed response: assets.mesh.collider_mesh_url is missing or not a string');
    });

    it('fails permanently when an operation answer has no done flag', async () => {
      worldApi().get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, { operation_id: OPERATION_ID });

      const error = await failure(harness.status(OPERATION, task));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('worldlabs: malformed response: done is missing or not a boolean');
    });
  });

  describe('circuit breaker', () => {
    it('opens after a burst of 503s, then fails fast (retryable) without calling World Labs', async () => {
      await harnesses.replace(CONFIG, { volume_threshold: 2 });
      // Three attempts per call (the SDK's retries), two calls.
      const outage = worldApi().get(`/marble/v1/operations/${OPERATION_ID}`).times(6).reply(503, { detail: 'Service Unavailable' });

      for (let call = 0; call < 2; call += 1) {
        const error = await failure(harness.status(OPERATION, { taskId: OPERATION_ID }));
        expect(error.retryable).to.equal(true);
        expect(error.details.vendorStatus).to.equal(503);
        expect(error.message).to.contain('Service Unavailable');
      }
      expect(outage.isDone()).to.equal(true);
      expect(harness.breakerState()).to.equal('open');

      const untouched = worldApi().get(`/marble/v1/operations/${OPERATION_ID}`).reply(200, runningOperation());
      const error = await failure(harness.status(OPERATION, { taskId: OPERATION_ID }));
      expect(error.retryable).to.equal(true);
      expect(error.message).to.equal('provider worldlabs is unavailable (circuit open)');
      expect(untouched.isDone()).to.equal(false);
    });
  });
});
