/**
 * The worker side of the lifecycle. A job names a request; the row says which phase is next:
 *   no task yet  -> claim (`queued -> processing`), start with the first provider that accepts, then
 *                   finish at once or store the task and schedule a poll;
 *   task stored  -> claim the due poll, ask the provider for status, finish or schedule the next poll.
 * The worker never sleeps holding a request: waiting is a delayed job and a released lease.
 */
import type { Logger } from 'pino';
import type { OperationDefinition, OperationRegistry } from '../manifests/index.js';
import type { JsonObject, ProviderTask, RoutedModel } from '../plugin-sdk/index.js';
import { ProviderError } from '../plugin-sdk/index.js';
import type { LoadedPlugin, PluginRegistry } from '../plugins/index.js';
import type { Job, JobQueue } from '../queue/index.js';
import type { RequestRecord, RequestStore } from '../store/index.js';
import { nextCheckDelay } from './backoff.js';
import { callProvider, type ProviderCallDeps } from './call-provider.js';
import type { RequestFinisher } from './finish-request.js';
import type { LifecycleSettings } from './lifecycle-settings.js';

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
    const candidates = this.deps.plugins.candidates(request.operation, modelRoute);
    let lastTransient: ProviderError | undefined;
    for (const candidate of candidates) {
      try {
        const result = await this.call(candidate, request, route, (context) =>
          candidate.plugin.operations[request.operation].start(request.input ?? {}, context, route),
        );
        if ('done' in result) return void (await finisher.succeed(request, workerId, definition, result.done));
        await this.schedulePoll(request, definition, candidate.plugin.id, result.task, route, 0);
        return;
      } catch (error) {
        const failure = error as ProviderError;
        if (!failure.retryable) return void (await finisher.fail(request, workerId, failure.message));
        this.deps.log.warn({ requestId: request.id, provider: candidate.plugin.id, err: failure.message }, 'provider deferred the start; trying the next one');
        lastTransient = failure;
      }
    }
    // Every provider is down or none is configured: defer, spending nothing, until the give-up time.
    const delay = lastTransient?.details.retryAfterSeconds !== undefined ? lastTransient.details.retryAfterSeconds * 1000 : settings.retry_after_ms;
    await this.deps.requests.release(request.id, workerId, { status: 'queued', nextCheckAtMs: clock.now() + delay, refundAttempt: true });
    await this.deps.queue.publish({ requestId: request.id }, { delayMs: delay });
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
      const result = await this.call(loaded, request, route, (context) => handler.status!(request.task!, context, route));
      if ('done' in result) return void (await finisher.succeed(request, workerId, definition, result.done));
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
  private async call<T>(loaded: LoadedPlugin, request: RequestRecord, route: RoutedModel, invoke: Parameters<typeof callProvider<T>>[3]): Promise<T> {
    const { requests, settings, clock, workerId, log } = this.deps;
    const heartbeat = setInterval(() => {
      requests.extendLease(request.id, workerId, clock.now() + settings.lease_ms).catch((error) => log.warn({ err: error, requestId: request.id }, 'lease heartbeat failed'));
    }, Math.max(50, Math.floor(settings.lease_ms / 3)));
    try {
      return await callProvider(this.deps, loaded, { requestId: request.id, operation: request.operation, route, timeoutMs: this.deps.callTimeoutMs }, invoke);
    } finally {
      clearInterval(heartbeat);
    }
  }
}
