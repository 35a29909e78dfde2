/**
 * video.generate on Wan (routes wan-2.6 -> wan2.6-t2v, wan-2.7 -> wan2.7-t2v): `start` picks the API for the
 * kind of run (wan-runs.ts) and submits it asynchronously; `status` polls the task and hosts the clip, whose
 * vendor URL expires after 24 hours; `cancel` cancels a task that is still queued.
 */
import { askedVideoShape, requireField, videoTaskStatus, type JsonObject, type OperationHandler } from '../../src/kernel/plugin-sdk/index.js';
import { readDashScopeTask, taskPath } from './dashscope-task.js';
import { ASYNC_SUBMIT_HEADERS, dashScopeHttp, PROVIDER_ID, type DashScopeConfig } from './dashscope-vendor.js';
import { wanRequestBody } from './wan-request.js';
import { planWanRun } from './wan-runs.js';

/** The vendor's defaults, stated in the output when the request left them out. */
const DEFAULT_DURATION_SECONDS = 5;
const DEFAULT_ASPECT_RATIO = '16:9';

export const videoGenerate: OperationHandler<DashScopeConfig> = {
  async start(input, ctx, route) {
    const run = planWanRun(input, route);
    const { data } = await dashScopeHttp(ctx).request({
      method: 'POST',
      path: run.endpoint.path,
      headers: ASYNC_SUBMIT_HEADERS,
      json: wanRequestBody(run.endpoint, input, run.model),
    });
    const taskId = requireField<string>(data, 'output.task_id', PROVIDER_ID);
    // status() no longer sees the input: what the output must state is kept with the task.
    const state: JsonObject = {
      model: run.model,
      duration: run.endpoint.fixedDurationSeconds ?? (typeof input.duration === 'number' ? input.duration : DEFAULT_DURATION_SECONDS),
      aspect_ratio: typeof input.aspect_ratio === 'string' ? input.aspect_ratio : DEFAULT_ASPECT_RATIO,
    };
    return { task: { taskId, state } };
  },

  async status(task, ctx, route) {
    const { data } = await dashScopeHttp(ctx).request({ path: taskPath(task) });
    // A finished task reports the rendered length (its usage) but not the shape: the shape stated is the one asked.
    const asked = askedVideoShape(task, { durationSeconds: DEFAULT_DURATION_SECONDS, aspectRatio: DEFAULT_ASPECT_RATIO });
    return videoTaskStatus(readDashScopeTask(data), ctx, { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, asked);
  },

  /**
   * POST api/v1/tasks/{task_id}/cancel: the DashScope SDKs' `cancel` ("Cancel PENDING task",
   * dashscope-sdk-python, dashscope/client/base_api.py). A task already RUNNING cannot be cancelled; the
   * vendor's refusal is passed on, and the kernel then only stops charging the client.
   */
  async cancel(task, ctx) {
    await dashScopeHttp(ctx).request({ method: 'POST', path: `${taskPath(task)}/cancel` });
  },
};
