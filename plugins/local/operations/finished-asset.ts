/**
 * The common head of every finished local asset output: a task id, the asset type, `succeeded`,
 * and who made it. Operation-specific fields (URLs, durations, costs) come in between. `model` is the
 * route's `publicName`, which the plugin sets to the local renderer's name (index.ts, renderers.ts).
 */
import type { JsonObject, RoutedModel } from '../../../src/kernel/plugin-sdk/index.js';
import { PROVIDER_ID, type LocalContext } from '../local-config.js';
import { newTaskId } from '../media/task-id.js';

export type AssetType = 'image' | 'video' | 'audio' | '3d_model' | '3d_location';

export function finishedAsset(
  assetType: AssetType,
  route: RoutedModel,
  fields: JsonObject,
  options: { taskIdPrefix?: string } = {},
): JsonObject {
  return {
    task_id: newTaskId(options.taskIdPrefix),
    asset_type: assetType,
    status: 'succeeded',
    ...fields,
    provider: PROVIDER_ID,
    model: route.publicName,
  };
}

/** Hosts a rendered MP4 and returns its public URL. */
export async function hostMp4(ctx: LocalContext, path: string): Promise<string> {
  return (await ctx.blobs.putFile(path, 'video/mp4', 'mp4')).url;
}
