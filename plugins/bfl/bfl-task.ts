/**
 * The life of a BFL task, the same for every model and operation: submit `POST v1/<model>` -> `{id,
 * polling_url}`; poll until the status is final; copy the finished image into our storage at once (its signed
 * URL expires after 10 minutes: https://docs.bfl.ai/api_integration/integration_guidelines, "Delivery URLs").
 * Each operation brings only its request body and its output.
 *
 * The submission is sent once (a POST). BFL documents neither an idempotency key nor a lookup by a client id
 * (tasks are known only by the `id` it returns), so there is no `reconcile`: a submission whose answer was lost
 * fails with a refund (docs/plugins.md, "At most one vendor job per request").
 */
import {
  contentTypeForKey,
  pick,
  requireField,
  type HostedFile,
  type JsonObject,
  type ProviderTask,
  type RoutedModel,
} from '../../src/kernel/plugin-sdk/index.js';
import { readBflResult } from './bfl-result.js';
import { BFL_BASE_URL, bflHttp, PROVIDER_ID, type BflContext, type BflHandler } from './bfl-vendor.js';
import { bflImageModel, type BflImageModel } from './image-models.js';
import { pollRequest } from './polling-url.js';

/** One operation on BFL's image models. */
export interface BflOperation {
  /** The submission body; refuses (permanent ProviderError) input the model cannot honour, before sending. */
  request(input: JsonObject, model: BflImageModel, ctx: BflContext): Promise<JsonObject>;
  /** What `finish` needs from the input later; stored with the task, so JSON only. */
  remember?(input: JsonObject): JsonObject;
  /** Our output from the hosted copy of the finished image and BFL's (expiring) URL of it. */
  finish(image: { hosted: HostedFile; vendorUrl: string }, task: ProviderTask, route: RoutedModel): JsonObject;
}

export function bflTaskHandler(operation: BflOperation): Required<Pick<BflHandler, 'start' | 'status'>> {
  return {
    async start(input, ctx, route) {
      const model = bflImageModel(route.vendorModel);
      const body = await operation.request(input, model, ctx);
      const { data } = await bflHttp(ctx).request({ method: 'POST', path: `v1/${model.name}`, json: body });
      const taskId = requireField<string>(data, 'id', PROVIDER_ID);
      // Without a polling URL the task is still found by its id (pollRequest falls back to get_result).
      const pollingUrl = pick(data, 'polling_url');
      const state: JsonObject = { ...operation.remember?.(input), ...(typeof pollingUrl === 'string' ? { polling_url: pollingUrl } : {}) };
      return { task: { taskId, state } };
    },

    async status(task, ctx, route) {
      const answer = await bflHttp(ctx).request(pollRequest(task, ctx.config.base_url ?? BFL_BASE_URL));
      // BFL's own ComfyUI node takes a 202 from get_result as "not yet" (black-forest-labs/bfl-comfy-nodes,
      // bfl_api.py); without a status in it there is nothing else to read.
      if (answer.status === 202 && pick(answer.data, 'status') === undefined) return { pending: {} };
      const view = readBflResult(answer.data);
      if (view.state === 'pending') return { pending: {} };
      if (view.state === 'failed') return { failed: view.message };
      const hosted = await ctx.blobs.rehost(view.sampleUrl, sampleFileType(view.sampleUrl));
      return { done: operation.finish({ hosted, vendorUrl: view.sampleUrl }, task, route) };
    },
  };
}

/**
 * The image's type by the suffix of the sample URL (`.../sample.jpeg?...`), as BFL's own client names the file
 * it saves (black-forest-labs/flux, src/flux/api.py `save`), rather than by what the delivery store declares; a
 * URL without an image suffix leaves it to the download's Content-Type.
 */
function sampleFileType(url: string): { contentType?: string; extension?: string } {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return {};
  }
  const contentType = contentTypeForKey(path);
  return contentType.startsWith('image/') ? { contentType, extension: path.slice(path.lastIndexOf('.') + 1).toLowerCase() } : {};
}
