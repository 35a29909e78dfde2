/**
 * BFL's failure modes for each operation's submission, and for the poll they share: a documented 4xx is
 * permanent with BFL's own words, a 429 waits for Retry-After, a 5xx burst opens the breaker (after which calls
 * fail fast without reaching BFL), a 500 on a submission is never resent (its outcome is unknown), and a 2xx
 * without what we need is a permanent "malformed response". Status codes and bodies:
 * https://docs.bfl.ai/api_integration/errors and the `HTTPValidationError` of https://api.bfl.ai/openapi.json.
 */
import { expect } from 'chai';
import bfl from '../../../plugins/bfl/index.js';
import type { JsonObject } from '../../../src/kernel/plugin-sdk/index.js';
import type { PluginHarness } from '../../support/plugin-harness.js';
import { describeVendorCallFailures, usePluginHarness, type VendorCallCase } from '../../support/vendor-conformance.js';
import { bflApi, CLUSTER, CONFIG, POLLING_URL, result, submitted, TASK_ID, withKey } from './bfl-test-kit.js';

const SUBMISSIONS: { operation: string; model: string; path: string; input: JsonObject }[] = [
  { operation: 'image.generate', model: 'flux-1.1-pro', path: '/v1/flux-pro-1.1', input: { prompt: 'a lighthouse', model: 'flux-1.1-pro' } },
  { operation: 'image.generate', model: 'flux-2-pro', path: '/v1/flux-2-pro', input: { prompt: 'a lighthouse', model: 'flux-2-pro', resolution: '2K' } },
  { operation: 'image.edit', model: 'flux-kontext-pro', path: '/v1/flux-kontext-pro', input: { prompt: 'make it night', image_url: 'https://images.example/inputs/source.png', model: 'flux-kontext-pro' } },
];

const TASK = { taskId: TASK_ID, state: { aspect_ratio: '1:1', polling_url: POLLING_URL } };
/** The task is polled at the cluster that took it, with the key. */
const poll = () => withKey(CLUSTER).get('/v1/get_result').query({ id: TASK_ID });

/** A 422 as FastAPI writes it. */
const VALIDATION_ERROR = { detail: [{ loc: ['body', 'prompt'], msg: 'String should have at most 32768 characters', type: 'string_too_long' }] };

describeVendorCallFailures(bfl, CONFIG, [
  ...SUBMISSIONS.map(({ operation, model, path, input }): VendorCallCase => ({
    name: `bfl plugin: ${operation} ${model} (POST ${path})`,
    operation,
    call: (harness) => harness.start(operation, input, model),
    method: 'POST',
    path,
    endpoint: () => bflApi().post(path),
    answer: { body: submitted(), gives: 'task', taskId: TASK_ID },
    rejections: [
      { status: 422, body: VALIDATION_ERROR, message: 'prompt: String should have at most 32768 characters', code: 'string_too_long' },
      // BFL documents the status (https://docs.bfl.ai/api_integration/errors), not its sentence: the words are ours.
      { status: 402, body: { detail: 'Insufficient credits. Add credits to your account to continue.' }, message: 'Insufficient credits. Add credits to your account to continue.' },
    ],
    rateLimited: { body: { detail: 'You have exceeded the number of active tasks.' } },
    unavailable: { body: { detail: 'Service Unavailable' }, message: 'Service Unavailable' },
    internalError: { body: { detail: 'Internal Server Error' }, message: 'Internal Server Error' },
    malformed: { body: { polling_url: POLLING_URL }, message: 'bfl: malformed response: id is missing or not a string' },
  })),
  {
    name: 'bfl plugin: poll (GET polling_url)',
    operation: 'image.generate',
    call: (harness) => harness.status('image.generate', TASK, 'flux-2-pro'),
    method: 'GET',
    path: '/v1/get_result',
    endpoint: poll,
    answer: { body: result('Pending'), gives: 'pending' },
    rejections: [{ status: 403, body: { detail: 'Not authorized to access this task' }, message: 'Not authorized to access this task' }],
    unavailable: { body: { detail: 'Service Unavailable' }, message: 'Service Unavailable' },
    malformed: { body: { id: TASK_ID, result: null }, message: 'bfl: malformed response: status is missing or not a string' },
  },
]);

describe('bfl plugin: a poll answered 202', () => {
  let harness: PluginHarness;
  usePluginHarness(bfl, CONFIG, (created) => (harness = created));

  it('takes a 202 without a status as not ready yet, as BFL\'s own ComfyUI node does', async () => {
    poll().reply(202);

    expect(await harness.status('image.generate', TASK, 'flux-2-pro')).to.deep.equal({ pending: {} });
  });
});
