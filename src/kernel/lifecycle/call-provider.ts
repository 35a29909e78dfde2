/**
 * One call into a plugin, through its circuit breaker, with the context the SDK promises: hosted blobs
 * scoped to the request, a child logger, an abort signal, a clock and a scratch folder that is removed
 * afterwards. Every failure comes back as a ProviderError so the caller has one thing to classify.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { BlobStore } from '../blobs/index.js';
import { createRequestBlobs } from '../blobs/index.js';
import type { PluginContext, RoutedModel } from '../plugin-sdk/index.js';
import { ProviderError, createVendorHttp } from '../plugin-sdk/index.js';
import type { LoadedPlugin } from '../plugins/index.js';
import type { GatewayMetrics } from '../observability/metrics.js';

export interface ProviderCallDeps {
  blobs: BlobStore;
  publicUrl: string;
  log: Logger;
  clock: { now(): number };
  metrics?: GatewayMetrics;
  /** How the vendor HTTP client waits between retries; tests replace it to assert the schedule. */
  retrySleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export async function callProvider<T>(
  deps: ProviderCallDeps,
  loaded: LoadedPlugin,
  call: { requestId: string; operation: string; route: RoutedModel; timeoutMs: number },
  invoke: (context: PluginContext) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('provider call timed out')), call.timeoutMs);
  const scratchDirs: string[] = [];
  const provider = loaded.plugin.id;
  const context: PluginContext = {
    requestId: call.requestId,
    operation: call.operation,
    config: loaded.config,
    blobs: createRequestBlobs({ store: deps.blobs, publicUrl: deps.publicUrl, requestId: call.requestId, provider, signal: abort.signal }),
    log: deps.log.child({ requestId: call.requestId, provider }),
    signal: abort.signal,
    http: (options) => createVendorHttp(options, abort.signal, deps.retrySleep),
    clock: deps.clock,
    async scratchDir() {
      const dir = await mkdtemp(join(tmpdir(), `mediagate-${provider}-`));
      scratchDirs.push(dir);
      return dir;
    },
  };
  try {
    const result = (await loaded.breaker.fire(() => invoke(context))) as T;
    deps.metrics?.providerCalls.inc({ provider, outcome: 'ok' });
    return result;
  } catch (error) {
    const failure = asProviderError(error, provider);
    deps.metrics?.providerCalls.inc({ provider, outcome: failure.retryable ? 'transient_error' : 'permanent_error' });
    throw failure;
  } finally {
    clearTimeout(timer);
    if (!abort.signal.aborted) abort.abort(new Error('provider call finished'));
    await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

function asProviderError(error: unknown, provider: string): ProviderError {
  if (ProviderError.is(error)) return error;
  const code = (error as { code?: string }).code;
  if (code === 'EOPENBREAKER') return new ProviderError(`provider ${provider} is unavailable (circuit open)`, { provider, retryable: true, vendorCode: code });
  if (code === 'ETIMEDOUT') return new ProviderError(`provider ${provider} did not answer in time`, { provider, retryable: true, vendorCode: code });
  // Errors of our own adapters say whether they are worth retrying (e.g. blob storage briefly unreachable).
  const retryable = (error as { retryable?: unknown } | undefined)?.retryable;
  if (typeof retryable === 'boolean') return new ProviderError(`provider ${provider} failed: ${(error as Error).message}`, { provider, retryable });
  // Anything else is a defect in the plugin: fail the request rather than retry a bug forever.
  return new ProviderError(`provider ${provider} failed: ${(error as Error)?.message ?? String(error)}`, { provider, retryable: false });
}
