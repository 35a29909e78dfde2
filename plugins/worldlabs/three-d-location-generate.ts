/**
 * three_d.location.generate on World Labs Marble: start a world, poll its operation, then copy the world's
 * splats, panorama, collider and thumbnail into our storage (the vendor links are signed and expire).
 *
 * Marble returns splats as SPZ only, so `splat_url` and `spz_url` are the same hosted copy of the fullest
 * SPZ; no `.splat` is made up by conversion. World Labs documents no cancel for a running generation
 * (DELETE /worlds/{id} removes a finished world), so there is no `cancel`.
 */
import {
  MalformedVendorResponse,
  requireField,
  type JsonObject,
  type OperationHandler,
  type ProviderTask,
  type RoutedModel,
  type StartResult,
  type StatusResult,
} from '../../src/kernel/plugin-sdk/index.js';
import { GENERATE_WORLD_PATH, generateWorldBody } from './generate-world.js';
import { operationPath, readOperation } from './get-operation.js';
import { hasWorldAssets, readWorldFiles, worldPath } from './get-world.js';
import { PROVIDER_ID, worldLabsHttp, type WorldLabsConfig, type WorldLabsContext } from './worldlabs-vendor.js';

export const threeDLocationGenerate: OperationHandler<WorldLabsConfig> = {
  async start(input: JsonObject, ctx: WorldLabsContext, route: RoutedModel): Promise<StartResult> {
    const { data } = await worldLabsHttp(ctx).request({ method: 'POST', path: GENERATE_WORLD_PATH, json: generateWorldBody(input, route) });
    return { task: { taskId: requireField<string>(data, 'operation_id', PROVIDER_ID) } };
  },

  async status(task: ProviderTask, ctx: WorldLabsContext, route: RoutedModel): Promise<StatusResult> {
    const http = worldLabsHttp(ctx);
    const operation = readOperation((await http.request({ path: operationPath(task.taskId) })).data);
    if (operation.state === 'pending') return { pending: { progress: operation.progress } };
    if (operation.state === 'failed') return { failed: operation.message };

    let world = operation.world;
    if (!hasWorldAssets(world)) {
      if (!operation.worldId) throw new MalformedVendorResponse(PROVIDER_ID, 'metadata.world_id', 'string');
      world = (await http.request({ path: worldPath(operation.worldId) })).data;
    }
    const files = readWorldFiles(world);
    const [spz, pano, collider, previews] = await Promise.all([
      ctx.blobs.rehost(files.spzUrl, { contentType: 'application/octet-stream', extension: 'spz' }),
      ctx.blobs.rehost(files.panoUrl),
      ctx.blobs.rehost(files.colliderUrl, { contentType: 'model/gltf-binary', extension: 'glb' }),
      Promise.all(files.thumbnailUrl ? [ctx.blobs.rehost(files.thumbnailUrl)] : []),
    ]);
    return {
      done: {
        task_id: task.taskId,
        asset_type: '3d_location',
        status: 'succeeded',
        splat_url: spz.url,
        spz_url: spz.url,
        pano_url: pano.url,
        collider_glb_url: collider.url,
        preview_image_urls: previews.map((preview) => preview.url),
        provider: PROVIDER_ID,
        model: route.publicName,
      },
    };
  },
};
