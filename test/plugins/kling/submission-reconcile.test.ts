/**
 * At most one Kling task per request: every create carries our request id as `external_task_id`, and a
 * create whose answer was lost is looked up by that id (Kling's query accepts it in place of `task_id`).
 * The plugin runs in a fake context with a fixed request id, so the id on the wire can be asserted exactly.
 */
import { expect } from 'chai';
import klingPlugin from '../../../plugins/kling/index.js';
import type { KlingConfig } from '../../../plugins/kling/index.js';
import type { JsonObject, RoutedModel } from '../../../src/kernel/plugin-sdk/index.js';
import { createFakePluginContext, type FakePluginContext } from '../../support/fake-plugin-context.js';
import { failure, useNock } from '../../support/vendor-conformance.js';
import { CONFIG, envelope, klingApi, submitted, taskAnswer } from './kling-test-kit.js';

const REQUEST_ID = 'req_0lz4x9k2a7h3m5q8w1e6r0t9y2u4i';
const TASK_ID = '866889456698785798';
const FIRST = 'https://example.com/inputs/first.png';

const VIDEO_ROUTE: RoutedModel = { model: 'kling-2.6', vendorModel: 'kling-v2-6', publicName: 'kling-2.6' };
const IMAGE_ROUTE: RoutedModel = { model: 'kling-image', vendorModel: 'kling-v2-1', publicName: 'kling-image' };
const SMARTMOTION_ROUTE: RoutedModel = { model: 'kling-v1-6', vendorModel: 'kling-v1-6', publicName: 'kling-v1-6' };

/** Each Kling create endpoint, with an input that reaches it. */
const ENDPOINTS: { operation: string; path: string; input: JsonObject; route: RoutedModel }[] = [
  { operation: 'video.generate', path: '/v1/videos/text2video', input: { prompt: 'clouds over a ridge' }, route: VIDEO_ROUTE },
  { operation: 'video.generate', path: '/v1/videos/image2video', input: { prompt: 'the door swings open', image_url: FIRST }, route: VIDEO_ROUTE },
  { operation: 'image.generate', path: '/v1/images/generations', input: { prompt: 'a lighthouse' }, route: IMAGE_ROUTE },
  { operation: 'smartmotion.generate', path: '/v1/videos/image2video', input: { file_url: FIRST, motion: 'forward_up' }, route: SMARTMOTION_ROUTE },
];

describe('kling plugin: one task per request (external_task_id)', () => {
  useNock();
  let ctx: FakePluginContext<KlingConfig>;
  beforeEach(async () => {
    ctx = await createFakePluginContext<KlingConfig>({ config: CONFIG, requestId: REQUEST_ID });
  });
  afterEach(() => ctx.cleanup());

  const handler = (operation: string) => klingPlugin.operations[operation];

  for (const { operation, path, input, route } of ENDPOINTS) {
    it(`${operation} on POST ${path} sends our request id as external_task_id`, async () => {
      let sent: JsonObject | undefined;
      const api = klingApi()
        .post(path, (body: JsonObject) => ((sent = body), true))
        .reply(200, submitted(TASK_ID));

      const result = await handler(operation).start(input, ctx, route);

      expect(result).to.have.nested.property('task.taskId', TASK_ID);
      expect(sent?.external_task_id).to.equal(REQUEST_ID);
      expect(api.isDone()).to.equal(true);
    });
  }

  it('reconcile finds the text-to-video task by our request id and goes on from it as start would', async () => {
    const api = klingApi().get(`/v1/videos/text2video/${REQUEST_ID}`).reply(200, taskAnswer(TASK_ID, 'processing', { task_info: { external_task_id: REQUEST_ID } }));

    const found = await handler('video.generate').reconcile!({ prompt: 'clouds over a ridge', duration: 10, aspect_ratio: '9:16' }, ctx, VIDEO_ROUTE);

    expect(found).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'v1/videos/text2video', duration: 10, aspect_ratio: '9:16' } } });
    expect(api.isDone()).to.equal(true);
  });

  it('reconcile looks a first-frame video up on the image-to-video endpoint, where it was created', async () => {
    const api = klingApi().get(`/v1/videos/image2video/${REQUEST_ID}`).reply(200, taskAnswer(TASK_ID, 'succeed'));

    const found = await handler('video.generate').reconcile!({ prompt: 'the door swings open', image_url: FIRST }, ctx, VIDEO_ROUTE);

    expect(found).to.deep.equal({ task: { taskId: TASK_ID, state: { path: 'v1/videos/image2video', duration: 5, aspect_ratio: '16:9' } } });
    expect(api.isDone()).to.equal(true);
  });

  it("reconcile answers 'absent' when Kling has no task with our id (HTTP 404, code 1203)", async () => {
    const api = klingApi()
      .get(`/v1/images/generations/${REQUEST_ID}`)
      .reply(404, { code: 1203, message: 'The requested resource does not exist', request_id: 'CjNTkGdSwxYAAAAAALud5A' });

    const found = await handler('image.generate').reconcile!({ prompt: 'a lighthouse' }, ctx, IMAGE_ROUTE);

    expect(found).to.equal('absent');
    expect(api.isDone()).to.equal(true);
  });

  it("reconcile answers 'absent' when Kling reports the unknown id as code 1203 inside a 200", async () => {
    const api = klingApi().get(`/v1/videos/image2video/${REQUEST_ID}`).reply(200, envelope({}, 1203, 'The requested resource does not exist'));

    expect(await handler('smartmotion.generate').reconcile!({ file_url: FIRST }, ctx, SMARTMOTION_ROUTE)).to.equal('absent');
    expect(api.isDone()).to.equal(true);
  });

  it('a lookup Kling cannot answer proves nothing: the error reaches the worker, never absent', async () => {
    klingApi().get(`/v1/videos/text2video/${REQUEST_ID}`).times(3).reply(500, { code: 5000, message: 'Server internal error', request_id: 'r' });

    const error = await failure(handler('video.generate').reconcile!({ prompt: 'clouds over a ridge' }, ctx, VIDEO_ROUTE));

    expect(error.retryable).to.equal(true);
    expect(error.message).to.equal('kling: Server internal error (HTTP 500 on GET /v1/videos/text2video/' + REQUEST_ID + ')');
  });
});
