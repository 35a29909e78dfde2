/**
 * The worker side of the lifecycle. A job names a request; the row says which phase is next:
 *   no task yet  -> claim (`queued -> processing`), start with the first provider that accepts, then
 *                   finish at once or store the task and schedule a poll; a submission whose outcome is
 *                   unknown is reconciled with that provider or failed with a refund, never sent again;
 *   task stored  -> claim the due poll, ask the provider for status, finish or schedule the next poll.
 * The worker never sleeps holding a request: waiting is a delayed job and a released lease.
 */
import type { Logger } from 'pino';
import type { OperationDefinition, OperationRegistry } from '../manifests/index.js';
import type { JsonObject, ProviderTask, RoutedModel, StartResult } from '../plugin-sdk/index.js';
import { ProviderError } from '../plugin-sdk/index.js';
import type { LoadedPlugin, PluginRegistry } from '../plugins/index.js';
import type { Job, JobQueue } from '../queue/index.js';
import type { RequestRecord, RequestStore } from '../store/index.js';
import { nextCheckDelay } from './backoff.js';
import { callProvider, type ProviderCallDeps } from './call-provider.js';
import type { RequestFinisher } from './finish-request.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

/** The errorMessage of a request whose submission was neither confirmed nor found at the vendor. */
function unconfirmedMessage(provider: string, reason: string): string {
  return `${provider} did not confirm the submission (${reason}); it was not sent again, to avoid a duplicate job; the credits were refunded`;
}

/**
 * `output.provider` names the plugin that served the request, whatever the plugin wrote (or left out, as
 * prompt rewriting does): a client must always be able to tell a vendor's media from the offline provider's.
 */
function servedBy(output: JsonObject, provider: string): JsonObject {
  return { ...output, provider };
}

export interface WorkerDeps extends ProviderCallDeps {
  registry: OperationRegistry;
  plugins: PluginRegistry;
  requests: RequestStore;
  queue: JobQueue;
  finisher: RequestFinisher;
  settings: LifecycleSettings;
  /** Upper bound of one plugin call; the lease must outlast it. */
  callTimeoutMs: number;
  workerId: string;
  log: Logger;
}

export class RequestWorker {
  constructor(private readonly deps: WorkerDeps) {}

  /**
   * Tries the start claim first (the common case: a fresh request), then the poll claim; a job for a request
   * that is finished, held by a live worker, or gone claims nothing and is dropped.
   */
  readonly handle = async (job: Job): Promise<void> => {
    const { requests, settings, clock, workerId } = this.deps;
    const started = await requests.claim(job.requestId, workerId, clock.now(), settings.lease_ms, 'start');
    if (started) return this.start(started);
    const polled = await requests.claim(job.requestId, workerId, clock.now(), settings.lease_ms, 'poll');
    if (polled) return this.poll(polled);
  };

  private async start(request: RequestRecord): Promise<void> {
    const { settings, clock, workerId, finisher } = this.deps;
    const definition = this.deps.registry.get(request.operation);
    if (!definition) return void (await finisher.fail(request, workerId, `operation ${request.operation} is no longer served`));
    if (request.attempts > settings.max_attempts) {
      return void (await finisher.fail(request, workerId, `the request was interrupted ${request.attempts - 1} times while running and was abandoned`));
    }
    if (await this.gaveUp(request, definition)) return;
    const modelRoute = definition.manifest.routing.models[request.model];
    if (!modelRoute) return void (await finisher.fail(request, workerId, `model ${request.model} is no longer served`));

    const route = this.routeOf(request, definition);
    // A submission was sent by a worker that lost the request before learning the answer: the vendor may
    // hold a job, so it is looked up, never submitted again (recordSubmission is written before the send).
    const interrupted = request.provider ? this.deps.plugins.get(request.provider) : undefined;
    if (request.provider) {
      if (!interrupted) return void (await finisher.fail(request, workerId, unconfirmedMessage(request.provider, 'its worker was lost while submitting')));
      return this.reconcile(request, definition, interrupted, route, 'its worker was lost while submitting');
    }

    const candidates = this.deps.plugins.candidates(request.operation, modelRoute);
    let lastTransient: ProviderError | undefined;
    for (const candidate of candidates) {
      const attempt = this.recordStartAttempt(request, candidate.plugin.id, route);
      try {
        const result = await this.call(attempt, candidate, route, (context) => candidate.plugin.operations[request.operation].start(request.input ?? {}, context, route), () =>
          this.recordSubmission(request, candidate.plugin.id),
        );
        return this.settleStart(attempt, definition, candidate.plugin.id, route, result);
      } catch (error) {
        const failure = error as ProviderError;
        // Never the next provider: that would be a second job if this one took the submission.
        if (ProviderError.isOutcomeUnknown(failure)) return this.reconcile(attempt, definition, candidate, route, failure.message);
        if (!failure.retryable) return void (await finisher.fail(attempt, workerId, failure.message));
        this.deps.log.warn({ requestId: request.id, provider: candidate.plugin.id, err: failure.message }, 'provider deferred the start; trying the next one');
        lastTransient = failure;
      }
    }
    // Every provider is down or none is configured: defer, spending nothing, until the give-up time.
    const delay = lastTransient?.details.retryAfterSeconds !== undefined ? lastTransient.details.retryAfterSeconds * 1000 : settings.retry_after_ms;
    await this.defer(request, delay, { refundAttempt: true, forgetStart: true });
  }

  /**
   * The start's outcome is unknown (see ProviderError.outcomeUnknown): the plugin looks the job up where it
   * can; otherwise, or when the lookup fails for good, the request fails with a refund. A lookup that fails
   * transiently is tried again by the next claim, which counts as an attempt (bounded by max_attempts).
   */
  private async reconcile(request: RequestRecord, definition: OperationDefinition, loaded: LoadedPlugin, route: RoutedModel, reason: string): Promise<void> {
    const { workerId, finisher, settings, log } = this.deps;
    const provider = loaded.plugin.id;
    const handler = loaded.plugin.operations[request.operation];
    log.warn({ requestId: request.id, provider, reason }, 'submission outcome unknown; not submitting again');
    if (!handler?.reconcile) return void (await finisher.fail(request, workerId, unconfirmedMessage(provider, reason)));
    try {
      const found = await this.call(request, loaded, route, (context) => handler.reconcile!(request.input ?? {}, context, route));
      if (found === 'absent') {
        log.info({ requestId: request.id, provider }, 'the vendor has no job for this request; starting again later');
        return this.defer(request, settings.retry_after_ms, { refundAttempt: true, forgetStart: true });
      }
      return this.settleStart(request, definition, provider, route, found);
    } catch (error) {
      const failure = error as ProviderError;
      if (failure.retryable && !ProviderError.isOutcomeUnknown(failure)) return this.defer(request, settings.retry_after_ms, { refundAttempt: false, forgetStart: false });
      return void (await finisher.fail(request, workerId, unconfirmedMessage(provider, failure.message)));
    }
  }

  private async settleStart(request: RequestRecord, definition: OperationDefinition, provider: string, route: RoutedModel, result: StartResult): Promise<void> {
    if ('done' in result) return void (await this.deps.finisher.succeed(request, this.deps.workerId, definition, servedBy(result.done, provider)));
    await this.schedulePoll(request, definition, provider, result.task, route, 0);
  }

  private async defer(request: RequestRecord, delayMs: number, options: { refundAttempt: boolean; forgetStart: boolean }): Promise<void> {
    await this.deps.requests.release(request.id, this.deps.workerId, { status: 'queued', nextCheckAtMs: this.deps.clock.now() + delayMs, ...options });
    await this.deps.queue.publish({ requestId: request.id }, { delayMs });
  }

  /**
   * The spec's processing output (task_id, status, provider, model) from the moment a provider is called;
   * the request id stands in for the vendor's task id until there is one. Not awaited: it runs beside the
   * plugin call instead of ahead of it, and the store only lets it land while this worker still holds the
   * request without a task, so it can never overwrite a later state. A failure then fails with this output.
   */
  private recordStartAttempt(request: RequestRecord, provider: string, route: RoutedModel): RequestRecord {
    const output: JsonObject = { task_id: request.id, status: 'processing', provider, model: route.publicName };
    this.deps.requests.recordStartAttempt(request.id, this.deps.workerId, output).catch((error) => this.deps.log.warn({ err: error, requestId: request.id }, 'could not record the start attempt'));
    return { ...request, output };
  }

  private async recordSubmission(request: RequestRecord, provider: string): Promise<void> {
    if (!(await this.deps.requests.recordSubmission(request.id, this.deps.workerId, provider))) {
      throw new ProviderError(`${provider}: the worker lost the request before submitting it`, { provider, retryable: false });
    }
  }

  private async poll(request: RequestRecord): Promise<void> {
    const { workerId, finisher } = this.deps;
    const definition = this.deps.registry.get(request.operation);
    const loaded = request.provider ? this.deps.plugins.get(request.provider) : undefined;
    const handler = loaded?.plugin.operations[request.operation];
    if (!definition || !loaded || !handler?.status) {
      return void (await finisher.fail(request, workerId, `provider ${request.provider} can no longer report on this task`));
    }
    if (await this.gaveUp(request, definition)) return;
    const route = this.routeOf(request, definition);
    try {
      const result = await this.call(request, loaded, route, (context) => handler.status!(request.task!, context, route));
      if ('done' in result) return void (await finisher.succeed(request, workerId, definition, servedBy(result.done, loaded.plugin.id)));
      if ('failed' in result) return void (await finisher.fail(request, workerId, result.failed));
      await this.schedulePoll(request, definition, loaded.plugin.id, request.task!, route, request.pollCount + 1, result.pending.progress);
    } catch (error) {
      const failure = error as ProviderError;
      if (!failure.retryable) return void (await finisher.fail(request, workerId, failure.message));
      await this.schedulePoll(request, definition, loaded.plugin.id, request.task!, route, request.pollCount + 1, undefined, failure.details.retryAfterSeconds);
    }
  }

  private async schedulePoll(
    request: RequestRecord,
    definition: OperationDefinition,
    provider: string,
    task: ProviderTask,
    route: RoutedModel,
    pollCount: number,
    progress?: number,
    retryAfterSeconds?: number,
  ): Promise<void> {
    const polling = definition.manifest.polling;
    const delay = pollCount === 0 ? polling.first_after_ms : nextCheckDelay(polling, pollCount - 1, { retryAfterSeconds });
    const output: JsonObject = { task_id: task.taskId, status: 'processing', provider, model: route.publicName };
    if (progress !== undefined) output.progress = progress;
    const now = this.deps.clock.now();
    if (!(await this.deps.requests.recordTask(request.id, this.deps.workerId, { provider, task, output, nextCheckAtMs: now + delay, pollCount }))) return;
    await this.deps.queue.publish({ requestId: request.id }, { delayMs: delay });
  }

  /** Past the manifest's give-up time the request fails (refunded), whatever the provider says. */
  private async gaveUp(request: RequestRecord, definition: OperationDefinition): Promise<boolean> {
    const limit = definition.manifest.polling.give_up_after_ms;
    const since = request.startedAtMs ?? request.createdAtMs;
    if (this.deps.clock.now() - since <= limit) return false;
    await this.deps.finisher.fail(request, this.deps.workerId, `the provider did not finish within ${Math.round(limit / 1000)} s`);
    return true;
  }

  private routeOf(request: RequestRecord, definition: OperationDefinition): RoutedModel {
    const route = definition.manifest.routing.models[request.model];
    return { model: request.model, vendorModel: route?.vendor_model ?? request.model, publicName: definition.publicModelName(request.model) };
  }

  /**
   * A plugin call with a lease heartbeat: the lease stays short (a dead worker's request is taken over
   * quickly) while a long render or upload keeps it alive.
   */
  private async call<T>(request: RequestRecord, loaded: LoadedPlugin, route: RoutedModel, invoke: Parameters<typeof callProvider<T>>[3], beforeSubmission?: () => Promise<void>): Promise<T> {
    const { requests, settings, clock, workerId, log } = this.deps;
    const heartbeat = setInterval(() => {
      requests.extendLease(request.id, workerId, clock.now() + settings.lease_ms).catch((error) => log.warn({ err: error, requestId: request.id }, 'lease heartbeat failed'));
    }, Math.max(50, Math.floor(settings.lease_ms / 3)));
    try {
      return await callProvider(this.deps, loaded, { requestId: request.id, operation: request.operation, route, timeoutMs: this.deps.callTimeoutMs, beforeSubmission }, invoke);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
