/**
 * What every DashScope (Alibaba Cloud Model Studio) call shares: the settings (`providers.dashscope`), the
 * Singapore endpoint as default base URL, the bearer key, and how an error body reads.
 * Reference: https://www.alibabacloud.com/help/en/model-studio/text-to-video-api-reference (auth, regions),
 * https://help.aliyun.com/zh/dashscope/return-status-code-description (error codes).
 */
import { apiKeyVendor, pick, type ApiKeyVendorConfig, type PluginContext, type VendorHttp } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'dashscope';

/**
 * The international (Singapore) endpoint. Keys are regional: a Beijing key needs
 * https://dashscope.aliyuncs.com, a Virginia key https://dashscope-us.aliyuncs.com, and the workspace domains
 * (https://{WorkspaceId}.ap-southeast-1.maas.aliyuncs.com) serve the same paths. Paths below are relative, so
 * any of these, or a proxy with a path prefix, works as `base_url`.
 */
export const DASHSCOPE_BASE_URL = 'https://dashscope-intl.aliyuncs.com';

/** Video synthesis is asynchronous only: a submit without this header is refused ("does not support synchronous calls"). */
export const ASYNC_SUBMIT_HEADERS = { 'x-dashscope-async': 'enable' };

/** `api_key` is a Model Studio API key (`sk-...`) of the base URL's region. */
export type DashScopeConfig = ApiKeyVendorConfig;
export type DashScopeContext = PluginContext<DashScopeConfig>;

const vendor = apiKeyVendor<DashScopeConfig>({
  provider: PROVIDER_ID,
  baseUrl: DASHSCOPE_BASE_URL,
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: (body) => describeDashScopeError(body),
});

export const dashScopeConfigSchema = vendor.configSchema;
export const isDashScopeEnabled = vendor.isEnabled;
export const dashScopeHttp = (ctx: DashScopeContext): VendorHttp => vendor.http(ctx);

/**
 * A refused call answers `{ code, message, request_id }` (e.g. 400 InvalidParameter, 400 DataInspectionFailed,
 * 401 InvalidApiKey, 429 Throttling.RateQuota, 500 InternalError); the HTTP status already tells retryable
 * from permanent, so only the message and code are read.
 */
export function describeDashScopeError(body: unknown): { message?: string; code?: string } {
  const message = pick(body, 'message');
  const code = pick(body, 'code');
  return {
    message: typeof message === 'string' && message.trim() !== '' ? message.trim() : undefined,
    code: typeof code === 'string' && code !== '' ? code : undefined,
  };
}
