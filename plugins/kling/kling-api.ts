/**
 * What every Kling endpoint shares: the signed HTTP client, the `{code, message, request_id, data}`
 * envelope, and the task life cycle (create, then poll `<path>/{task_id}` until `task_status` is `succeed`
 * or `failed`). Each endpoint file brings only its request map and its result transform.
 * Reference: https://app.klingai.com/global/dev/document-api/apiReference/commonInfo (error codes) and the
 * endpoint pages under https://app.klingai.com/global/dev/document-api/apiReference/model/.
 *
 * Every create carries our request id as Kling's `external_task_id`, the "customized task ID" each create
 * page documents: unique per account, echoed in `data.task_info`, and accepted in place of `task_id` by the
 * endpoint's query (`GET <path>/{id}`: "choose one of the two query methods"). A create whose answer was
 * lost is therefore looked up by that id (`reconcile`), never sent again blindly.
 */
import {
  pick,
  ProviderError,
  requireField,
  type JsonObject,
  type JsonValue,
  type ProviderTask,
  type RoutedModel,
  type VendorHttp,
} from '../../src/kernel/plugin-sdk/index.js';
import { DEFAULT_BASE_URL, PROVIDER_ID, type KlingContext, type KlingHandler } from './kling-config.js';
import { signKlingToken } from './kling-jwt.js';

/**
 * Envelope codes that mean "later" rather than "never": 1302 rate limit, 1303 concurrency of the resource
 * pack, 5000-5002 server error, maintenance, backlog. Every other non-zero code (authentication 1000-1004,
 * account 1100-1103, parameters 1200-1203, content policy 1300/1301, IP allow-list 1304) is permanent.
 */
const RETRYABLE_CODES = new Set([1302, 1303, 5000, 5001, 5002]);

/** Kling's video models render 5 or 10 seconds only (`duration` is a string enum on every video endpoint). */
const KLING_DURATIONS = [5, 10] as const;

/** One Kling endpoint that creates an asynchronous task. */
export interface KlingTaskEndpoint {
  /** Create path relative to `base_url` (no leading slash, so a proxy prefix in base_url is kept). */
  path: string;
  /** The create body, from the endpoint's declarative map; throws a permanent ProviderError for input Kling cannot take. */
  request(input: JsonObject, route: RoutedModel): JsonObject;
  /** What `finish` needs from the input later; stored with the request, so JSON only. */
  remember?(input: JsonObject): JsonObject;
  /** Our output from the body of a succeeded task; hosts every file. */
  finish(body: unknown, task: ProviderTask, ctx: KlingContext, route: RoutedModel): Promise<JsonObject>;
}

/** A handler for one task endpoint: every part is always there, so callers that dispatch need no checks. */
export type KlingTaskHandler = Required<Pick<KlingHandler, 'start' | 'status' | 'reconcile'>>;

/**
 * Kling's answer for an id it does not know: HTTP 404 with envelope code 1203, "the requested resource does
 * not exist" (commonInfo, error codes). Either one proves the lookup found no task.
 */
const NOT_FOUND_STATUS = 404;
const NOT_FOUND_CODE = '1203';

export function klingTaskHandler(endpoint: KlingTaskEndpoint): KlingTaskHandler {
  return {
    async start(input, ctx, route) {
      const body = { ...endpoint.request(input, route), external_task_id: ctx.requestId };
      const response = await klingHttp(ctx).request({ method: 'POST', path: endpoint.path, json: body });
      const taskId = requireField<string>(unwrap(response.data, `POST /${endpoint.path}`), 'data.task_id', PROVIDER_ID);
      return { task: { taskId, state: endpoint.remember?.(input) ?? {} } };
    },

    /** The task our request id names, by Kling's query on `external_task_id`; 'absent' when Kling has none. */
    async reconcile(input, ctx) {
      const path = `${endpoint.path}/${encodeURIComponent(ctx.requestId)}`;
      let body: unknown;
      try {
        body = unwrap((await klingHttp(ctx).request({ path })).data, `GET /${path}`);
      } catch (error) {
        if (isNotFound(error)) return 'absent';
        throw error;
      }
      const taskId = requireField<string>(body, 'data.task_id', PROVIDER_ID);
      return { task: { taskId, state: endpoint.remember?.(input) ?? {} } };
    },

    async status(task, ctx, route) {
      const path = `${endpoint.path}/${encodeURIComponent(task.taskId)}`;
      const response = await klingHttp(ctx).request({ path });
      const body = unwrap(response.data, `GET /${path}`);
      const status = requireField<string>(body, 'data.task_status', PROVIDER_ID);
      switch (status) {
        case 'submitted':
        case 'processing':
          return { pending: {} };
        case 'succeed':
          return { done: await endpoint.finish(body, task, ctx, route) };
        case 'failed': {
          const reason = pick(body, 'data.task_status_msg');
          return { failed: `kling: ${typeof reason === 'string' && reason !== '' ? reason : 'the task failed without a reason'}` };
        }
        default:
          throw new ProviderError(`kling: malformed response: unknown data.task_status "${status}"`, {
            provider: PROVIDER_ID,
            retryable: false,
            vendorCode: 'malformed_response',
          });
      }
    },
  };
}

/** Our 1-20 s to the nearer of Kling's 5 and 10; a tie (7.5) goes to the longer clip. */
export function nearestKlingDuration(value: JsonValue): string | undefined {
  if (typeof value !== 'number') return undefined;
  const nearest = KLING_DURATIONS.reduce((best, option) => (Math.abs(option - value) <= Math.abs(best - value) ? option : best));
  return String(nearest);
}

/** The fields every finished Kling asset carries; `fields` adds the operation's own. */
export function klingAsset(assetType: 'image' | 'video', task: ProviderTask, route: RoutedModel, fields: JsonObject): JsonObject {
  return { task_id: task.taskId, asset_type: assetType, status: 'succeeded', provider: PROVIDER_ID, model: route.publicName, ...fields };
}

function klingHttp(ctx: KlingContext): VendorHttp {
  const { access_key: accessKey, secret_key: secretKey, base_url: baseUrl, timeout_ms: timeoutMs } = ctx.config;
  if (!accessKey || !secretKey) {
    throw new ProviderError('kling: access_key and secret_key are not configured', { provider: PROVIDER_ID, retryable: false });
  }
  return ctx.http({
    provider: PROVIDER_ID,
    baseUrl: baseUrl ?? DEFAULT_BASE_URL,
    timeoutMs,
    // A fresh token per call: a task may be polled for longer than one token lives (30 minutes).
    headers: { authorization: `Bearer ${signKlingToken(accessKey, secretKey, ctx.clock.now())}` },
    describeError,
  });
}

function describeError(body: unknown): { message?: string; code?: string } {
  const message = pick(body, 'message');
  const code = pick(body, 'code');
  return {
    message: typeof message === 'string' && message !== '' ? message : undefined,
    code: typeof code === 'number' || typeof code === 'string' ? String(code) : undefined,
  };
}

function isNotFound(error: unknown): boolean {
  return ProviderError.is(error) && (error.details.vendorStatus === NOT_FOUND_STATUS || error.details.vendorCode === NOT_FOUND_CODE);
}

/** The body of a 2xx answer, checked: Kling also reports failures as HTTP 200 with a non-zero `code`. */
function unwrap(body: unknown, call: string): unknown {
  const code = requireField<number>(body, 'code', PROVIDER_ID, 'number');
  if (code === 0) return body;
  const message = describeError(body).message ?? 'request refused';
  throw new ProviderError(`kling: ${message} (code ${code} on ${call})`, {
    provider: PROVIDER_ID,
    retryable: RETRYABLE_CODES.has(code),
    vendorStatus: 200,
    vendorCode: String(code),
    refused: true,
  });
}
