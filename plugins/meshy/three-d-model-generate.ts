/**
 * three_d.model.generate on Meshy: one source image goes to image-to-3d, several to multi-image-to-3d;
 * the task is polled at the endpoint that created it, and a finished task's files are copied into our
 * storage (Meshy's links expire: https://docs.meshy.ai/api/asset-retention).
 */
import {
  mapFields,
  ProviderError,
  requireField,
  type JsonObject,
  type OperationHandler,
  type ProviderTask,
  type RoutedModel,
  type StartResult,
  type StatusResult,
} from '../../src/kernel/plugin-sdk/index.js';
import { imageTo3d } from './image-to-3d.js';
import { meshyHttp, PROVIDER_ID, type MeshyConfig, type MeshyContext } from './meshy-vendor.js';
import { modelRequestDefaults, type MeshyModelEndpoint } from './model-request.js';
import { readMeshyTask, type VendorFile } from './model-task.js';
import { multiImageTo3d } from './multi-image-to-3d.js';

const ENDPOINTS = [imageTo3d, multiImageTo3d];
const DEFAULT_ASSET_KIND = 'object';

export const threeDModelGenerate: OperationHandler<MeshyConfig> = {
  async start(input: JsonObject, ctx: MeshyContext, route: RoutedModel): Promise<StartResult> {
    const endpoint = endpointFor(input);
    const { data } = await meshyHttp(ctx).request({ method: 'POST', path: endpoint.path, json: mapFields(input, endpoint.fields, modelRequestDefaults(route)) });
    const taskId = requireField<string>(data, 'result', PROVIDER_ID);
    // asset_kind is ours, not Meshy's: kept with the task because status() no longer sees the input.
    const assetKind = typeof input.asset_kind === 'string' ? input.asset_kind : DEFAULT_ASSET_KIND;
    return { task: { taskId, state: { path: endpoint.path, asset_kind: assetKind } } };
  },

  async status(task: ProviderTask, ctx: MeshyContext, route: RoutedModel): Promise<StatusResult> {
    const { data } = await meshyHttp(ctx).request({ path: taskPath(task) });
    const view = readMeshyTask(data);
    if (view.state === 'pending') return { pending: { progress: view.progress } };
    if (view.state === 'failed') return { failed: view.message };
    const [model, previews, artifacts] = await Promise.all([
      host(ctx, view.model),
      Promise.all(view.thumbnailUrl ? [host(ctx, { url: view.thumbnailUrl })] : []),
      Promise.all(view.artifacts.map((file) => host(ctx, file))),
    ]);
    return {
      done: {
        task_id: task.taskId,
        asset_type: '3d_model',
        status: 'succeeded',
        model_url: model,
        preview_image_urls: previews,
        raw_artifact_urls: artifacts,
        provider: PROVIDER_ID,
        model: route.publicName,
        asset_kind: typeof task.state?.asset_kind === 'string' ? task.state.asset_kind : DEFAULT_ASSET_KIND,
      },
    };
  },

  /**
   * Meshy's reference documents DELETE on a task as deleting it; Meshy's own client uses that same call
   * to cancel a PENDING or IN_PROGRESS task (meshy-dev/meshy-mcp-server, src/tools/tasks.ts,
   * `meshy_cancel_task`). Whether the credits come back is not documented. A task already gone (404)
   * is as cancelled as it gets.
   */
  async cancel(task: ProviderTask, ctx: MeshyContext): Promise<void> {
    try {
      await meshyHttp(ctx).request({ method: 'DELETE', path: taskPath(task) });
    } catch (error) {
      if (!(ProviderError.is(error) && error.details.vendorStatus === 404)) throw error;
    }
  },
};

function endpointFor(input: JsonObject): MeshyModelEndpoint {
  const images = Array.isArray(input.source_image_urls) ? input.source_image_urls.length : 0;
  return images > 1 ? multiImageTo3d : imageTo3d;
}

/** The task lives under the endpoint that created it; the stored path is checked against the known ones. */
function taskPath(task: ProviderTask): string {
  const endpoint = ENDPOINTS.find((candidate) => candidate.path === task.state?.path) ?? imageTo3d;
  return `${endpoint.path}/${encodeURIComponent(task.taskId)}`;
}

async function host(ctx: MeshyContext, file: VendorFile): Promise<string> {
  return (await ctx.blobs.rehost(file.url, { contentType: file.contentType, extension: file.extension })).url;
}
