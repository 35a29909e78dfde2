/**
 * video.generate on Seedance 1.0 Pro (route seedance-1-pro -> seedance-1-0-pro-250528): `start` creates the task
 * (sent once: ModelArk takes no idempotency key and cannot look a task up by an id of ours), `status` reads it and
 * hosts the clip, whose ModelArk URL expires after 24 hours, and `cancel` cancels a task that is still queued.
 */
import { askedVideoShape, ProviderError, requireField, videoTaskStatus } from '../../src/kernel/plugin-sdk/index.js';
import { arkHttp, PROVIDER_ID, type ArkHandler } from './ark-vendor.js';
import { readSeedanceTask, SEEDANCE_DEFAULTS, seedanceCreateBody, seedanceTaskState, taskPath, TASKS_PATH } from './contents-generations-tasks.js';

export const videoGenerate: ArkHandler = {
  async start(input, ctx, route) {
    const body = seedanceCreateBody(input, route);
    const { data } = await arkHttp(ctx).request({ method: 'POST', path: TASKS_PATH, json: body });
    return { task: { taskId: requireField<string>(data, 'id', PROVIDER_ID), state: seedanceTaskState(input) } };
  },

  async status(task, ctx, route) {
    const { data } = await arkHttp(ctx).request({ path: taskPath(task) });
    return videoTaskStatus(readSeedanceTask(data), ctx, { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, askedVideoShape(task, SEEDANCE_DEFAULTS));
  },

  /**
   * DELETE on the task cancels it while it is queued; a running task cannot be cancelled and the refusal is
   * passed on (the kernel then only stops charging the client). On a finished task the same call deletes the
   * record, which the gateway no longer needs. A task already gone (404) is as cancelled as it gets.
   */
  async cancel(task, ctx) {
    try {
      await arkHttp(ctx).request({ method: 'DELETE', path: taskPath(task) });
    } catch (error) {
      if (!(ProviderError.is(error) && error.details.vendorStatus === 404)) throw error;
    }
  },
};
