/**
 * video.generate (models ltx-2-fast, ltx-2-pro) on the LTX async API: `start` submits a text-to-video or
 * image-to-video job, `status` polls it at the endpoint that made it (named in the task state) and copies the
 * finished MP4 into our storage (LTX keeps it 24 hours).
 *
 * No `reconcile`: the submit documents neither an idempotency key nor a client id a lookup accepts (jobs are
 * known only by the `id` LTX returns), so a submit whose answer was lost fails with a refund. No `cancel`: the
 * async API documents none.
 */
import { askedVideoShape, requireField, videoTaskStatus, type JsonObject, type ProviderTask, type RoutedModel, type StartResult, type StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { jobPath, readJob } from './get-job.js';
import { lightricksHttp, PROVIDER_ID, type LightricksContext, type LightricksHandler } from './lightricks-vendor.js';
import { DEFAULT_DURATION_SECONDS, endpointFor, IMAGE_TO_VIDEO, LTX2_ASPECT_RATIO, submitBody, TEXT_TO_VIDEO, type LtxEndpoint } from './submit-video.js';

export const videoGenerate: LightricksHandler = {
  async start(input: JsonObject, ctx: LightricksContext, route: RoutedModel): Promise<StartResult> {
    const endpoint = endpointFor(input);
    const json = submitBody(input, route);
    const { data } = await lightricksHttp(ctx).request({ method: 'POST', path: `v2/${endpoint}`, json });
    const taskId = requireField<string>(data, 'id', PROVIDER_ID);
    return { task: { taskId, state: { endpoint, duration: typeof json.duration === 'number' ? json.duration : DEFAULT_DURATION_SECONDS } } };
  },

  async status(task: ProviderTask, ctx: LightricksContext, route: RoutedModel): Promise<StatusResult> {
    const { data } = await lightricksHttp(ctx).request({ path: jobPath(endpointOf(task), task.taskId) });
    // LTX renders exactly the durations it accepts, landscape only; the job reports neither.
    const asked = askedVideoShape(task, { durationSeconds: DEFAULT_DURATION_SECONDS, aspectRatio: LTX2_ASPECT_RATIO });
    return videoTaskStatus(readJob(data), ctx, { taskId: task.taskId, provider: PROVIDER_ID, model: route.publicName }, asked);
  },
};

/** The endpoint `start` recorded; jobs are polled under the endpoint that created them. */
function endpointOf(task: ProviderTask): LtxEndpoint {
  return task.state?.endpoint === IMAGE_TO_VIDEO ? IMAGE_TO_VIDEO : TEXT_TO_VIDEO;
}
