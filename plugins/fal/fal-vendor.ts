/**
 * What every fal call shares: the plugin's settings (`providers.fal`), the queue's base URL, the
 * `Authorization: Key <FAL_KEY>` header and how an error body reads.
 * Reference: https://fal.ai/docs/api-reference/inference-api ("Send your API key in the Authorization header
 * with the Key prefix"), and fal's own client (fal-ai/fal-js, libs/client/src/request.ts: `Key ${credentials}`).
 */
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type OperationHandler, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'fal';

/**
 * The queue host. Model paths are relative (`fal-ai/auto-caption`), so a proxy with a path prefix works too
 * (https://fal.ai/docs/model-endpoints/queue: "standardized per-model paths under https://queue.fal.run").
 */
export const FAL_QUEUE_URL = 'https://queue.fal.run';

/** Only the common settings: prices live in the manifests, which settle on the usage the endpoints report. */
export type FalConfig = ApiKeyVendorConfig;

export type FalContext = PluginContext<FalConfig>;
export type FalHandler = OperationHandler<FalConfig>;

const vendor = apiKeyVendor<FalConfig>({
  provider: PROVIDER_ID,
  baseUrl: FAL_QUEUE_URL,
  authHeaders: (key) => ({ authorization: `Key ${key}` }),
  describeError: (body) => describeFalError(body),
});

export const falConfigSchema = vendor.configSchema;
export const isFalEnabled = vendor.isEnabled;
export const falHttp = (ctx: FalContext): VendorHttp => vendor.http(ctx);

/**
 * fal answers errors in three shapes, all read here:
 * - request errors (timeouts, runner failures): `{detail: "<sentence>", error_type}`
 *   (https://fal.ai/docs/documentation/model-apis/request-errors);
 * - model errors (validation, content policy): `{detail: [{loc, msg, type, ...}]}`
 *   (https://fal.ai/docs/documentation/model-apis/errors);
 * - a plain `{message}`, which fal's JS client also reads (fal-js, libs/client/src/response.ts).
 * The code is the `error_type`, or else the queue's own `status` word (a cancel answers e.g. ALREADY_COMPLETED,
 * https://fal.ai/docs/inference-api/queue/cancel).
 */
export function describeFalError(body: unknown): { message?: string; code?: string } {
  const detail = pick(body, 'detail');
  const code = stringAt(body, 'error_type') ?? stringAt(body, 'status');
  if (typeof detail === 'string' && detail.trim() !== '') return { message: detail.trim(), code };
  if (Array.isArray(detail)) {
    const problems = detail.map(modelProblem).filter((problem): problem is string => problem !== undefined);
    if (problems.length > 0) return { message: problems.join('; '), code: code ?? stringAt(detail[0], 'type') };
  }
  const message = stringAt(body, 'message');
  return message ? { message, code } : { code };
}

/** One model error as `field: message`; `loc` starts with where the value was ("body"). */
function modelProblem(item: unknown): string | undefined {
  const message = stringAt(item, 'msg');
  if (!message) return undefined;
  const location = pick(item, 'loc');
  const field = Array.isArray(location) ? location.filter((step) => step !== 'body').join('.') : '';
  return field ? `${field}: ${message}` : message;
}

function stringAt(data: unknown, path: string): string | undefined {
  const value = pick(data, path);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}
