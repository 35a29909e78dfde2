/**
 * One call into a plugin, through its circuit breaker, with the context the SDK promises: hosted blobs
 * scoped to the request, a child logger, an abort signal, a clock and a scratch folder that is removed
 * afterwards. Every failure comes back as a ProviderError so the caller has one thing to classify.
 *
 * A call that had a submission accepted (a POST the vendor answered 2xx) and then failed in a way that
 * would be retried (a later upload timed out, the call ran out of time) comes back "outcome unknown": the
 * vendor holds a job we lost track of, and starting again, here or at another provider, would make a second.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { BlobStore } from '../blobs/index.js';
import { createRequestBlobs } from '../blobs/index.js';
import type { PluginContext, RoutedModel } from '../plugin-sdk/index.js';
import { ProviderError, createVendorHttp } from '../plugin-sdk/index.js';
import type { GuardedFetch } from '../plugin-sdk/guarded-fetch.js';
import type { LoadedPlugin } from '../plugins/index.js';
import type { GatewayMetrics, ProviderCallKind, ProviderCallOutcome } from '../observability/metrics.js';
import { cancelledMessage, type ClientCancel } from './running-starts.js';
import { LazyAbort } from './lazy-abort.js';

export interface ProviderCallDeps {
  blobs: BlobStore;
  publicUrl: string;
  /** The folder that holds each plugin's state folder (`ctx.stateDir()`): `<data_dir>/plugins`. */
  pluginStateRoot: string;
  /** The gateway's guarded fetch for input and output URLs; without it, the strictest one (no allow-list). */
  outbound?: GuardedFetch;
  log: Logger;
  clock: { now(): number };
  metrics?: GatewayMetrics;
  /** How the vendor HTTP client waits between retries; tests replace it to assert the schedule. */
  retrySleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/**
 * The reason a finished call's signal is aborted with (stopping whatever the plugin left running): one instance for
 * every call, since it carries no call's details and an Error's stack costs microseconds to capture, on every call.
 */
const callFinished = new Error('provider call finished');

export async function callProvider<T>(
  deps: ProviderCallDeps,
  loaded: LoadedPlugin,
  call: {
    /** Which handler is called, for the metrics (default `start`; the plugin test harness leaves it out). */
    kind?: ProviderCallKind;
    requestId: string;
    operation: string;
    route: RoutedModel;
    timeoutMs: number;
    /** Awaited before the plugin sends a submission the vendor cannot dedupe (see SubmissionHooks). */
    beforeSubmission?: () => Promise<void>;
    /**
     * The client's cancel (running-starts.ts): aborts the call like a timeout does, but the call then fails for
     * good with the cancel's message instead of being retried or handed to the next provider.
     */
    cancel?: ClientCancel;
  },
  invoke: (context: PluginContext) => Promise<T>,
): Promise<T> {
  const abort = new LazyAbort();
  const startedAt = performance.now();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    abort.abort(new Error('provider call timed out'));
  }, call.timeoutMs);
  const stopListening = call.cancel?.listen((reason) => abort.abort(reason));
  const scratchDirs: string[] = [];
  const provider = loaded.plugin.id;
  let submissionAccepted = false;
  const hooks = {
    beforeSubmission: async () => call.beforeSubmission?.(),
    accepted: () => void (submissionAccepted = true),
  };
  let childLog: Logger | undefined;
  let blobs: PluginContext['blobs'] | undefined;
  const context: PluginContext = {
    requestId: call.requestId,
    operation: call.operation,
    config: loaded.config,
    // Made on first use, like the logger: a status poll or an instant job never stores a file, and the dozen
    // closures of a request's blob access are a measurable share of such a call.
    get blobs() {
      return (blobs ??= createRequestBlobs({ store: deps.blobs, publicUrl: deps.publicUrl, requestId: call.requestId, provider, signal: abort.signal, outbound: deps.outbound }));
    },
    // Made when the plugin first logs: most calls never do, and a child logger costs microseconds to make.
    get log() {
      return (childLog ??= deps.log.child({ requestId: call.requestId, provider }));
    },
    get signal() {
      return abort.signal;
    },
    http: (options) => createVendorHttp(options, abort.signal, deps.retrySleep, hooks),
    clock: deps.clock,
    async scratchDir() {
      const dir = await mkdtemp(join(tmpdir(), `mediagate-${provider}-`));
      scratchDirs.push(dir);
      return dir;
    },
    async stateDir() {
      const dir = join(deps.pluginStateRoot, provider);
      await mkdir(dir, { recursive: true });
      return dir;
    },
  };
  // A cancelled call fails inside the breaker as not retryable: the client's cancel says nothing of the
  // provider's health, and the breaker only counts retryable failures.
  const cancelled = () => new ProviderError(cancelledMessage, { provider, retryable: false });
  const invokeUnlessCancelled = async (): Promise<T> => {
    try {
      return await invoke(context);
    } catch (error) {
      throw call.cancel?.reason !== undefined ? cancelled() : error;
    }
  };
  const count = (outcome: ProviderCallOutcome) => deps.metrics?.providerCall(provider, call.kind ?? 'start', outcome, (performance.now() - startedAt) / 1000);
  try {
    const result = (await loaded.breaker.fire(invokeUnlessCancelled)) as T;
    count('ok');
    return result;
  } catch (error) {
    if (call.cancel?.reason !== undefined) {
      count('cancelled');
      throw cancelled();
    }
    let failure = asProviderError(error, provider, context.log);
    if (submissionAccepted && failure.retryable && !failure.details.refused && !ProviderError.isOutcomeUnknown(failure)) {
      failure = ProviderError.outcomeUnknown(`${failure.message} (after ${provider} had accepted a submission)`, { provider, vendorCode: failure.details.vendorCode });
    }
    count(callOutcome(failure, timedOut));
    throw failure;
  } finally {
    clearTimeout(timer);
    stopListening?.();
    abort.abort(callFinished);
    await Promise.all(scratchDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  }
}

/** The metrics' outcome of a failed call, the first that applies (see providerCallOutcomes). */
function callOutcome(failure: ProviderError, timedOut: boolean): ProviderCallOutcome {
  if (failure.details.vendorCode === 'EOPENBREAKER') return 'breaker_open';
  if (ProviderError.isOutcomeUnknown(failure)) return 'outcome_unknown';
  if (timedOut || failure.details.vendorCode === 'ETIMEDOUT') return 'timeout';
  return failure.retryable ? 'retryable_error' : 'permanent_error';
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
