/**
 * One call into a plugin, through its circuit breaker, with the context the SDK promises: hosted blobs
 * scoped to the request, a child logger, an abort signal, a clock and a scratch folder that is removed
 * afterwards. Every failure comes back as a ProviderError so the caller has one thing to classify.
 *
 * A call that had a submission accepted (a POST the vendor answered 2xx) and then failed in a way that
 * would be retried (a later upload timed out, the call ran out of time) comes back "outcome unknown": the
 * vendor holds a job we lost track of, and starting again, here or at another provider, would make a second.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { BlobStore } from '../blobs/index.js';
import { createRequestBlobs } from '../blobs/index.js';
import type { PluginContext, RoutedModel } from '../plugin-sdk/index.js';
import { ProviderError, createVendorHttp } from '../plugin-sdk/index.js';
import type { GuardedFetch } from '../plugin-sdk/guarded-fetch.js';
import type { LoadedPlugin } from '../plugins/index.js';
import type { GatewayMetrics } from '../observability/metrics.js';

export interface ProviderCallDeps {
  blobs: BlobStore;
  publicUrl: string;
  /** The gateway's guarded fetch for input and output URLs; without it, the strictest one (no allow-list). */
  outbound?: GuardedFetch;
  log: Logger;
  clock: { now(): number };
  metrics?: GatewayMetrics;
  /** How the vendor HTTP client waits between retries; tests replace it to assert the schedule. */
  retrySleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export async function callProvider<T>(
  deps: ProviderCallDeps,
  loaded: LoadedPlugin,
  call: {
    requestId: string;
    operation: string;
    route: RoutedModel;
    timeoutMs: number;
    /** Awaited before the plugin sends a submission the vendor cannot dedupe (see SubmissionHooks). */
    beforeSubmission?: () => Promise<void>;
  },
  invoke: (context: PluginContext) => Promise<T>,
): Promise<T> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(new Error('provider call timed out')), call.timeoutMs);
  const scratchDirs: string[] = [];
  const provider = loaded.plugin.id;
  let submissionAccepted = false;
  const hooks = {
    beforeSubmission: async () => call.beforeSubmission?.(),
    accepted: () => void (submissionAccepted = true),
  };
  const context: PluginContext = {
    requestId: call.requestId,
    operation: call.operation,
    config: loaded.config,
    blobs: createRequestBlobs({ store: deps.blobs, publicUrl: deps.publicUrl, requestId: call.requestId, provider, signal: abort.signal, outbound: deps.outbound }),
    log: deps.log.child({ requestId: call.requestId, provider }),
    signal: abort.signal,
    http: (options) => createVendorHttp(options, abort.signal, deps.retrySleep, hooks),
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
    let failure = asProviderError(error, provider, context.log);
    if (submissionAccepted && failure.retryable && !failure.details.refused && !ProviderError.isOutcomeUnknown(failure)) {
      failure = ProviderError.outcomeUnknown(`${failure.message} (after ${provider} had accepted a submission)`, { provider, vendorCode: failure.details.vendorCode });
    }
    deps.metrics?.providerCalls.inc({ provider, outcome: failure.retryable ? 'transient_error' : 'permanent_error' });
    throw failure;
  } finally {
    clearTimeout(timer);
    if (!abort.signal.aborted) abort.abort(new Error('provider call finished'));
    await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

function asProviderError(error: unknown, provider: string, log: Logger): ProviderError {
  if (ProviderError.is(error)) return error;
  const code = (error as { code?: string }).code;
  if (code === 'EOPENBREAKER') return new ProviderError(`provider ${provider} is unavailable (circuit open)`, { provider, retryable: true, vendorCode: code });
  if (code === 'ETIMEDOUT') return new ProviderError(`provider ${provider} did not answer in time`, { provider, retryable: true, vendorCode: code });
  // Errors of our own adapters say whether they are worth retrying (e.g. blob storage briefly unreachable).
  const retryable = (error as { retryable?: unknown } | undefined)?.retryable;
  if (typeof retryable === 'boolean') return new ProviderError(`provider ${provider} failed: ${(error as Error).message}`, { provider, retryable });
  // Anything else is a defect in the plugin: fail the request rather than retry a bug forever. Its text (a path,
  // a stack, a library's words) is for the log; the client reads that the provider failed.
  log.error({ err: error }, 'provider call failed with an unexpected error');
  return new ProviderError(`provider ${provider} failed with an internal error`, { provider, retryable: false });
}
