/**
 * fal's queue protocol, once for every model the plugin serves
 * (https://fal.ai/docs/documentation/model-apis/inference/queue, https://fal.ai/docs/api-reference/inference-api):
 *   submit  POST {queue}/{model_id} with the model's input           -> {request_id, status_url, response_url, cancel_url}
 *   status  GET  {queue}/{app_id}/requests/{id}/status                -> IN_QUEUE (queue_position) | IN_PROGRESS | COMPLETED (error?)
 *   result  GET  {queue}/{app_id}/requests/{id}                       -> the model's output, or the model's own error
 *   cancel  PUT  {queue}/{app_id}/requests/{id}/cancel
 * Each endpoint file brings only its request map and its result transform (`FalModelEndpoint`).
 */
import {
  pick,
  ProviderError,
  requireField,
  type JsonObject,
  type ProviderTask,
  type RoutedModel,
  type StatusResult,
} from '../../src/kernel/plugin-sdk/index.js';
import { FAL_QUEUE_URL, falHttp, PROVIDER_ID, type FalContext, type FalHandler } from './fal-vendor.js';

/** One fal model as an operation uses it. */
export interface FalModelEndpoint {
  /** The model's input, from the endpoint's declarative map. */
  request(input: JsonObject, route: RoutedModel): JsonObject;
  /** Our output from the model's result; hosts every file. */
  finish(result: unknown, task: ProviderTask, ctx: FalContext, route: RoutedModel): Promise<JsonObject>;
}

/**
 * The queue URLs the submit answer names, kept with the task. fal asks clients to use them rather than build
 * them ("Do not build these URLs yourself", https://fal.ai/docs/api-reference/inference-api).
 */
const QUEUE_URL_FIELDS = ['status_url', 'response_url', 'cancel_url'] as const;
type QueueUrlField = (typeof QUEUE_URL_FIELDS)[number];

/** Where each queue call lives under the app id when a URL has to be built (a task stored without one). */
const QUEUE_PATHS: Record<QueueUrlField, (requestId: string) => string> = {
  status_url: (id) => `requests/${encodeURIComponent(id)}/status`,
  response_url: (id) => `requests/${encodeURIComponent(id)}`,
  cancel_url: (id) => `requests/${encodeURIComponent(id)}/cancel`,
};

/**
 * How many segments of a model id name its app, by its first segment. "The status, result, and cancel URLs use
 * only the owner and the app" (https://fal.ai/docs/api-reference/inference-api): `fal-ai/bytedance-upscaler/
 * upscale/video` is polled under `fal-ai/bytedance-upscaler`. Apps under the `workflows` and `comfy` namespaces
 * have one segment more (fal's clients: fal-js libs/client/src/utils.ts `ENDPOINT_NAMESPACES`, fal_client
 * `APP_NAMESPACES`).
 */
const APP_ID_SEGMENTS: Record<string, number> = { workflows: 3, comfy: 3 };
const DEFAULT_APP_ID_SEGMENTS = 2;

export function queueAppId(modelId: string): string {
  const segments = modelId.split('/');
  return segments.slice(0, APP_ID_SEGMENTS[segments[0]] ?? DEFAULT_APP_ID_SEGMENTS).join('/');
}

/**
 * The three queue states of fal's documentation and of both official clients (fal_client raises on any other,
 * fal-js types know no other), so any other value is a broken answer rather than a state to wait out.
 */
type QueueState = 'pending' | 'completed';
const QUEUE_STATES: Record<string, QueueState> = { IN_QUEUE: 'pending', IN_PROGRESS: 'pending', COMPLETED: 'completed' };

/**
 * fal reports a queue position and runner logs, never a percentage, so the only figure it supports is "not
 * started yet" while the request waits in the queue; a running request reports none.
 */
const PROGRESS_BY_STATUS: Record<string, number | undefined> = { IN_QUEUE: 0 };

export function falQueueHandler(endpoint: FalModelEndpoint): FalHandler {
  return {
    async start(input, ctx, route) {
      const { data } = await falHttp(ctx).request({ method: 'POST', path: route.vendorModel, json: endpoint.request(input, route) });
      const state: JsonObject = { model_id: route.vendorModel };
      for (const field of QUEUE_URL_FIELDS) {
        const url = pick(data, field);
        if (typeof url === 'string') state[field] = url;
      }
      return { task: { taskId: requireField<string>(data, 'request_id', PROVIDER_ID), state } };
    },

    async status(task, ctx, route) {
      const http = falHttp(ctx);
      const { data } = await http.request({ path: queueUrl(task, ctx, route, 'status_url') });
      const status = requireField<string>(data, 'status', PROVIDER_ID);
      const state = QUEUE_STATES[status];
      if (!state) throw malformed(`unknown queue status "${status}"`);
      if (state === 'pending') return pending(status);
      // A request fal gave up on (after its own retries) is COMPLETED with an `error` (fal_client `Completed.error`).
      const error = pick(data, 'error');
      if (typeof error === 'string' && error !== '') return failed(error, pick(data, 'error_type'));
      // A model error comes back here with the model's own status code and body, so it fails like a submit error.
      const result = await http.request({ path: queueUrl(task, ctx, route, 'response_url') });
      return { done: await endpoint.finish(result.data, task, ctx, route) };
    },

    /**
     * A queued request is removed; a running one is sent a cancellation signal
     * (https://fal.ai/docs/inference-api/queue/cancel). A request that already finished or that fal does not
     * know has nothing left to cancel.
     */
    async cancel(task, ctx, route) {
      try {
        await falHttp(ctx).request({ method: 'PUT', path: queueUrl(task, ctx, route, 'cancel_url') });
      } catch (error) {
        if (!(ProviderError.is(error) && nothingToCancel(error))) throw error;
      }
    },
  };
}

/** The head every finished fal output shares; `fields` adds the operation's own (URLs, mode, usage). */
export function falAsset(assetType: 'video' | 'audio', task: ProviderTask, route: RoutedModel, fields: JsonObject): JsonObject {
  return { task_id: task.taskId, asset_type: assetType, status: 'succeeded', ...fields, provider: PROVIDER_ID, model: route.publicName };
}

/**
 * The URL fal named at submit, when it points at the queue we talk to; otherwise (an older task, or a base URL
 * that is a proxy in front of fal) the documented path under the app id. A URL on any other host is never used,
 * so the key never leaves for a host it was not configured for.
 */
function queueUrl(task: ProviderTask, ctx: FalContext, route: RoutedModel, field: QueueUrlField): string {
  const base = ctx.config.base_url ?? FAL_QUEUE_URL;
  const stored = task.state?.[field];
  if (typeof stored === 'string' && isUnder(stored, base)) return stored;
  const modelId = typeof task.state?.model_id === 'string' ? task.state.model_id : route.vendorModel;
  return `${queueAppId(modelId)}/${QUEUE_PATHS[field](task.taskId)}`;
}

function isUnder(url: string, base: string): boolean {
  try {
    const target = new URL(url);
    const root = new URL(base.endsWith('/') ? base : `${base}/`);
    return target.origin === root.origin && target.pathname.startsWith(root.pathname);
  } catch {
    return false;
  }
}

/**
 * The cancel answers fal names (OK, CANCELLATION_REQUESTED, ALREADY_COMPLETED, NOT_FOUND) that come as an error
 * status; which HTTP status carries each is not documented, so the word decides, and a bare 404 too.
 */
const NOTHING_TO_CANCEL = new Set(['ALREADY_COMPLETED', 'NOT_FOUND']);

function nothingToCancel(error: ProviderError): boolean {
  return error.details.vendorStatus === 404 || NOTHING_TO_CANCEL.has(error.details.vendorCode ?? '');
}

function pending(status: string): StatusResult {
  const progress = PROGRESS_BY_STATUS[status];
  return { pending: progress === undefined ? {} : { progress } };
}

function failed(error: string, errorType: unknown): StatusResult {
  return { failed: `fal: ${error}${typeof errorType === 'string' && errorType !== '' ? ` (${errorType})` : ''}` };
}

function malformed(what: string): ProviderError {
  return new ProviderError(`${PROVIDER_ID}: malformed response: ${what}`, { provider: PROVIDER_ID, retryable: false, vendorCode: 'malformed_response' });
}
