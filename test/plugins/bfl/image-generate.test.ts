import { expect } from 'chai';
import nock from 'nock';
import bfl from '../../../plugins/bfl/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { expectImageOutput, failure, pngBytes, usePluginHarness } from '../../support/vendor-conformance.js';
import { bflApi, CLUSTER, CONFIG, INPUTS, JPEG, POLLING_URL, ready, result, SAMPLE_URL, serveSample, submitted, TASK_ID, withKey } from './bfl-test-kit.js';

const OPERATION = 'image.generate';
const POLL_PATH = `/v1/get_result?id=${TASK_ID}`;

/** Replies to one submission at `path` and keeps the body that was sent. */
function expectSubmission(path: string): { body: () => unknown; scope: nock.Scope } {
  let sent: unknown;
  const scope = bflApi()
    .post(path, (body) => {
      sent = body;
      return true;
    })
    .matchHeader('content-type', 'application/json')
    .reply(200, submitted());
  return { body: () => sent, scope };
}

function referenceUrls(count: number): string[] {
  return Array.from({ length: count }, (_, index) => `${INPUTS}/inputs/ref-${index + 1}.png`);
}

describe('bfl plugin: image.generate', () => {
  let harness: PluginHarness;
  usePluginHarness(bfl, CONFIG, (created) => (harness = created));

  describe('FLUX1.1 [pro] (POST /v1/flux-pro-1.1)', () => {
    it('asks for the aspect ratio as width and height on its 32-pixel grid, with the style as a prompt hint, and nothing for quality', async () => {
      const submission = expectSubmission('/v1/flux-pro-1.1');

      const started = await harness.start(OPERATION, { prompt: 'a red bicycle', model: 'flux-1.1-pro', aspect_ratio: '16:9', resolution: '1K', style: 'photorealistic', quality: 'high' }, 'flux-1.1-pro');

      expect(submission.body()).to.deep.equal({ prompt: 'a red bicycle\nStyle: photorealistic', width: 1376, height: 768 });
      expect(started).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '16:9', polling_url: POLLING_URL } } });
    });

    it('renders 1:1 when no aspect ratio is given, and sends one reference image as a base64 image prompt (no weight: the endpoint has none)', async () => {
      const reference = await pngBytes('#336699');
      const input = nock(INPUTS).get('/inputs/ref-1.png').reply(200, reference, { 'content-type': 'image/png' });
      const submission = expectSubmission('/v1/flux-pro-1.1');

      const started = await harness.start(OPERATION, { prompt: 'a lighthouse', model: 'flux-1.1-pro', reference_image_urls: referenceUrls(1), reference_prompt_balance: 0.8 }, 'flux-1.1-pro');

      expect(input.isDone()).to.equal(true);
      expect(submission.body()).to.deep.equal({ prompt: 'a lighthouse', width: 1024, height: 1024, image_prompt: reference.toString('base64') });
      expect(started).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '1:1', polling_url: POLLING_URL } } });
    });

    it('refuses a second reference image before fetching anything or calling BFL (it takes one image prompt)', async () => {
      const inputs = nock(INPUTS).get(/.*/).reply(200, JPEG);
      const untouched = bflApi().post('/v1/flux-pro-1.1').reply(200, submitted());

      const error = await failure(harness.start(OPERATION, { prompt: 'a lighthouse', model: 'flux-1.1-pro', reference_image_urls: referenceUrls(2) }, 'flux-1.1-pro'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('bfl: flux-pro-1.1 takes at most 1 reference image, got 2');
      expect(inputs.isDone() || untouched.isDone()).to.equal(false);
    });
  });

  describe('FLUX.1 Kontext [pro] (POST /v1/flux-kontext-pro)', () => {
    it('sends the aspect ratio as a ratio, 1:1 when none is given', async () => {
      const submission = expectSubmission('/v1/flux-kontext-pro');

      const started = await harness.start(OPERATION, { prompt: 'a lighthouse at dusk', model: 'flux-kontext-pro', resolution: '1K' }, 'flux-kontext-pro');

      expect(submission.body()).to.deep.equal({ prompt: 'a lighthouse at dusk', aspect_ratio: '1:1' });
      expect(started).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '1:1', polling_url: POLLING_URL } } });
    });

    it('passes reference images as URLs in input_image, input_image_2, ... for BFL to fetch', async () => {
      const submission = expectSubmission('/v1/flux-kontext-pro');

      await harness.start(OPERATION, { prompt: 'the cat from image 1 in the room from image 2', model: 'flux-kontext-pro', aspect_ratio: '3:2', reference_image_urls: referenceUrls(2), reference_prompt_balance: 0.3 }, 'flux-kontext-pro');

      expect(submission.body()).to.deep.equal({
        prompt: 'the cat from image 1 in the room from image 2',
        aspect_ratio: '3:2',
        input_image: `${INPUTS}/inputs/ref-1.png`,
        input_image_2: `${INPUTS}/inputs/ref-2.png`,
      });
    });

    it('refuses a fifth reference image (input_image to input_image_4)', async () => {
      const untouched = bflApi().post('/v1/flux-kontext-pro').reply(200, submitted());

      const error = await failure(harness.start(OPERATION, { prompt: 'five things', model: 'flux-kontext-pro', reference_image_urls: referenceUrls(5) }, 'flux-kontext-pro'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('bfl: flux-kontext-pro takes at most 4 reference images, got 5');
      expect(untouched.isDone()).to.equal(false);
    });
  });

  describe('FLUX.2 [pro] (POST /v1/flux-2-pro)', () => {
    it('asks for a 2K image as width and height within 4 MP and 2048 a side, with up to eight reference URLs', async () => {
      const submission = expectSubmission('/v1/flux-2-pro');
      const references = referenceUrls(8);

      const started = await harness.start(OPERATION, { prompt: 'a wide mountain panorama', model: 'flux-2-pro', aspect_ratio: '21:9', resolution: '2K', reference_image_urls: references }, 'flux-2-pro');

      expect(submission.body()).to.deep.equal({
        prompt: 'a wide mountain panorama',
        width: 2048,
        height: 880,
        input_image: references[0],
        input_image_2: references[1],
        input_image_3: references[2],
        input_image_4: references[3],
        input_image_5: references[4],
        input_image_6: references[5],
        input_image_7: references[6],
        input_image_8: references[7],
      });
      expect(started).to.deep.equal({ task: { taskId: TASK_ID, state: { aspect_ratio: '21:9', polling_url: POLLING_URL } } });
    });

    it('renders 1024 x 1024 by default', async () => {
      const submission = expectSubmission('/v1/flux-2-pro');

      await harness.start(OPERATION, { prompt: 'a red apple', model: 'flux-2-pro' }, 'flux-2-pro');

      expect(submission.body()).to.deep.equal({ prompt: 'a red apple', width: 1024, height: 1024 });
    });

    it('refuses a ninth reference image', async () => {
      const error = await failure(harness.start(OPERATION, { prompt: 'nine things', model: 'flux-2-pro', reference_image_urls: referenceUrls(9) }, 'flux-2-pro'));

      expect(error.retryable).to.equal(false);
      expect(error.message).to.equal('bfl: flux-2-pro takes at most 8 reference images, got 9');
    });
  });

  describe('status', () => {
    const task = { taskId: TASK_ID, state: { aspect_ratio: '16:9', polling_url: POLLING_URL } };

    it('polls the polling URL with the key while Pending, then hosts the image at once and keeps BFL\'s URL for reference', async () => {
      const poll = withKey(CLUSTER)
        .get(POLL_PATH).reply(200, result('Pending'))
        .get(POLL_PATH).reply(200, result('Pending', { progress: 0.4 }))
        .get(POLL_PATH).reply(200, ready());
      const delivery = serveSample();

      expect(await harness.status(OPERATION, task, 'flux-2-pro')).to.deep.equal({ pending: {} });
      expect(await harness.status(OPERATION, task, 'flux-2-pro')).to.deep.equal({ pending: {} });
      const finished = await harness.status(OPERATION, task, 'flux-2-pro');

      expect(poll.isDone() && delivery.isDone()).to.equal(true);
      if (!('done' in finished)) throw new Error(`expected done, got ${JSON.stringify(finished)}`);
      await expectImageOutput(harness, OPERATION, finished.done, { provider: 'bfl', model: 'flux-2-pro', taskId: TASK_ID, aspectRatio: '16:9', providerUrls: [SAMPLE_URL] }, [JPEG]);
      // The delivery store answers octet-stream; the sample URL's suffix names the file, as BFL's client does.
      expect(finished.done.image_url).to.match(/\.jpeg$/);
    });

    const failures: [string, Record<string, unknown>, string][] = [
      [
        'Request Moderated, with the reasons BFL gives in details',
        result('Request Moderated', { details: { 'Moderation Reasons': ['Derivative Works'] } }),
        "bfl: the prompt or an input image was refused by BFL's moderation (Request Moderated): Derivative Works",
      ],
      ['Content Moderated', result('Content Moderated'), "bfl: the generated image was withheld by BFL's moderation (Content Moderated)"],
      ['Error, with its error sentence', result('Error', { error: 'Internal error while generating the image' }), 'bfl: BFL reported an error while generating: Internal error while generating the image'],
      ['Task not found', result('Task not found'), 'bfl: BFL does not know the task (Task not found): it does not exist or has expired'],
    ];
    for (const [name, answer, message] of failures) {
      it(`fails the task on ${name}`, async () => {
        withKey(CLUSTER).get(POLL_PATH).reply(200, answer);

        expect(await harness.status(OPERATION, task, 'flux-2-pro')).to.deep.equal({ failed: message });
      });
    }

    it('fails permanently on a Ready answer without result.sample, or a status BFL does not document', async () => {
      withKey(CLUSTER).get(POLL_PATH).reply(200, result('Ready', { result: { seed: 1 } })).get(POLL_PATH).reply(200, result('Queued'));

      const noSample = await failure(harness.status(OPERATION, task, 'flux-2-pro'));
      const unknown = await failure(harness.status(OPERATION, task, 'flux-2-pro'));

      expect([noSample.retryable, unknown.retryable]).to.deep.equal([false, false]);
      expect(noSample.message).to.equal('bfl: malformed response: result.sample is missing or not a string');
      expect(unknown.message).to.equal('bfl: malformed response: unknown status "Queued"');
    });
  });
});
