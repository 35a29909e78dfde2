/**
 * The plugin of the bench's loopback mock vendor (bench/vendor-scale/mock-vendor.ts), loaded like any vendor
 * plugin through MEDIAGATE_PLUGIN_DIRS. The vendor takes our request id with each submission and can be asked for
 * the task by it, so a submission whose answer was lost (an injected timeout or 5xx, a worker killed mid-start) is
 * looked up, never sent twice (docs/plugins.md, "At most one vendor job per request").
 */
import {
  apiKeyVendor,
  definePlugin,
  describeOpenAIStyleError,
  ProviderError,
  requireField,
  textAt,
  type ApiKeyVendorConfig,
  type OperationHandler,
  type PluginContext,
} from '../../../../src/kernel/plugin-sdk/index.js';

const provider = 'benchvendor';

const vendor = apiKeyVendor({
  provider,
  baseUrl: 'http://127.0.0.1:9',
  authHeaders: (key) => ({ authorization: `Bearer ${key}` }),
  describeError: describeOpenAIStyleError,
  // The mock answers in about a millisecond; a short timeout keeps a worker slot held by an injected hang brief.
  timeoutMs: 2_000,
});

type Context = PluginContext<ApiKeyVendorConfig>;

const task: OperationHandler<ApiKeyVendorConfig> = {
  async start(input, ctx, route) {
    const response = await vendor.http(ctx).request({ method: 'POST', path: 'v1/tasks', json: { request_id: ctx.requestId, model: route.vendorModel, prompt: input.prompt } });
    return { task: { taskId: requireField<string>(response.data, 'id', provider) } };
  },

  async reconcile(_input, ctx) {
    try {
      const response = await vendor.http(ctx).request({ path: 'v1/tasks', query: { request_id: ctx.requestId } });
      return { task: { taskId: requireField<string>(response.data, 'id', provider) } };
    } catch (error) {
      if (ProviderError.is(error) && error.details.vendorStatus === 404) return 'absent';
      throw error;
    }
  },

  async status(polled, ctx: Context) {
    const { data } = await vendor.http(ctx).request({ path: `v1/tasks/${encodeURIComponent(polled.taskId)}` });
    const state = requireField<string>(data, 'status', provider);
    if (state === 'pending') return { pending: {} };
    if (state === 'failed') return { failed: textAt(data, 'error') ?? 'the vendor failed the task' };
    if (state === 'done') return { done: { status: 'succeeded', result: requireField<string>(data, 'result', provider), task_id: polled.taskId } };
    throw new ProviderError(`${provider}: unknown task status ${JSON.stringify(state)}`, { provider, retryable: false });
  },
};

export default definePlugin<ApiKeyVendorConfig>({
  id: provider,
  configSchema: vendor.configSchema,
  isEnabled: vendor.isEnabled,
  operations: { 'bench.vendor_task': task },
});
