/**
 * What every MiniMax call shares: the plugin's settings (`providers.minimax`, or MEDIAGATE_PROVIDER_MINIMAX_<KEY>),
 * the international base URL, the Bearer key, and the `base_resp` envelope every answer carries.
 * MiniMax reports most failures as HTTP 200 with a non-zero `base_resp.status_code`
 * (https://platform.minimax.io/docs/api-reference/errorcode, error code table).
 */
import { apiKeyVendor, describeOpenAIStyleError, pick, ProviderError, requireField } from '../../src/kernel/plugin-sdk/index.js';
import type { ApiKeyVendorConfig, OperationHandler, PluginContext, VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'minimax';

/**
 * The international platform (keys from platform.minimax.io). Keys of the mainland platform work only against
 * https://api.minimaxi.com: set `base_url` to it. Paths below are relative (`v1/...`), so a prefix is kept.
 */
export const MINIMAX_BASE_URL = 'https://api.minimax.io';

export type MinimaxConfig = ApiKeyVendorConfig;
export type MinimaxContext = PluginContext<MinimaxConfig>;
export type MinimaxHandler = OperationHandler<MinimaxConfig>;

/**
 * `base_resp.status_code` values the error table answers with "Please retry your requests later": 1000 unknown
 * error, 1001 request timeout, 1002 rate limit, 1024 internal error, 1033 system error. Every other code
 * (1004 authentication, 1008 insufficient balance, 1026 sensitive input, 2013 invalid parameters, 2049 invalid
 * API key, ...) needs someone to change the request or the account, so it is permanent.
 */
const RETRYABLE_CODES: ReadonlySet<number> = new Set([1000, 1001, 1002, 1024, 1033]);

const vendor = apiKeyVendor<MinimaxConfig>({
  provider: PROVIDER_ID,
  baseUrl: MINIMAX_BASE_URL,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: describeMinimaxError,
});

export const minimaxConfigSchema = vendor.configSchema;
export const isMinimaxEnabled = vendor.isEnabled;
export const minimaxHttp = (ctx: MinimaxContext): VendorHttp => vendor.http(ctx);

/**
 * A non-2xx answer: MiniMax's own `base_resp` when it sends one (its code then decides retrying, so a rate
 * limit stays retryable whatever the status), else an `{error: {message}}` body from a proxy in front of it.
 */
export function describeMinimaxError(body: unknown): { message?: string; code?: string; retryable?: boolean } {
  const code = pick(body, 'base_resp.status_code');
  const message = pick(body, 'base_resp.status_msg');
  if (typeof code !== 'number') return describeOpenAIStyleError(body);
  return { message: typeof message === 'string' && message !== '' ? message : undefined, code: String(code), retryable: RETRYABLE_CODES.has(code) };
}

/**
 * The body of a 2xx answer, checked: a non-zero `base_resp.status_code` is a refusal (the vendor took no job),
 * retryable or permanent by its code. `call` names the endpoint in the message.
 */
export function unwrapBaseResp(body: unknown, call: string): unknown {
  const code = requireField<number>(body, 'base_resp.status_code', PROVIDER_ID, 'number');
  if (code === 0) return body;
  const message = pick(body, 'base_resp.status_msg');
  throw new ProviderError(`minimax: ${typeof message === 'string' && message !== '' ? message : 'request refused'} (code ${code} on ${call})`, {
    provider: PROVIDER_ID,
    retryable: RETRYABLE_CODES.has(code),
    vendorStatus: 200,
    vendorCode: String(code),
    refused: true,
  });
}
