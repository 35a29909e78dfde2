/**
 * The worker side of the lifecycle. A job names a request; the row says which phase is next:
 *   no task yet  -> claim (`queued -> processing`), start with the first provider that accepts, then
 *                   finish at once or store the task and schedule a poll; a submission whose outcome is
 *                   unknown is reconciled with that provider or failed with a refund, never sent again;
 *   task stored  -> claim the due poll, ask the provider for status, finish or schedule the next poll.
 * The worker never sleeps holding a request: waiting is a delayed job and a released lease.
 */
import { isDeepStrictEqual } from 'node:util';
import type { Logger } from 'pino';
import { pollingFor, type OperationDefinition, type OperationRegistry } from '../manifests/index.js';
import type { JsonObject, ProviderTask, RoutedModel, StartResult } from '../plugin-sdk/index.js';
import { ProviderError } from '../plugin-sdk/index.js';
import type { LoadedPlugin, PluginRegistry } from '../plugins/index.js';
import type { ProviderCallKind } from '../observability/metrics.js';
import { spanNames, traceAttributes, tracing, type TraceSpan } from '../observability/tracing.js';
import { withTraceparent, type ChangeNotices, type Job, type JobQueue } from '../queue/index.js';
import { recordedTaskRow, withTransientRetry, type RequestRecord, type RequestStore } from '../store/index.js';
import { nextCheckDelay } from './backoff.js';
import { callProvider, type ProviderCallDeps } from './call-provider.js';
import type { RequestFinisher } from './finish-request.js';
import type { LifecycleSettings } from './lifecycle-settings.js';
import { trackStart, type ClientCancel } from './running-starts.js';

/** The errorMessage of a request whose submission was neither confirmed nor found at the vendor. */
function unconfirmedMessage(provider: string, reason: string): string {
  return `${provider} did not confirm the submission (${reason}); it was not sent again, to avoid a duplicate job; the credits were refunded`;
}

/**
 * `output.provider` names the plugin that served the request, whatever the plugin wrote (or left out, as
 * prompt rewriting does): a client must always be able to tell a vendor's media from the offline provider's.
 */
function servedBy(output: JsonObject, provider: string): JsonObject {
  // Not `{ ...output, provider }`: a property added after a spread is slow on Node 20 (see toRequestRecord).
  return Object.assign({}, output, { provider });
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
  /** Told of each visible transition (claimed, task recorded, deferred), for the clients waiting on the request. */
  changes?: ChangeNotices;
}

export class RequestWorker {
  constructor(private readonly deps: WorkerDeps) {}

  /**
   * A poll job (it names its poll) claims that poll of the request's task; any other job claims the start. A job for
   * a request that is finished, held by a live worker, past that poll, or gone claims nothing and is dropped.
   */
  readonly handle = (job: Job): Promise<void> =>
    // Each run continues the trace its job carries: the create's (docs/tracing.md); without one, a trace of its own
    // rather than whatever context the queue's callback happens to run in.
    tracing.inSpan(spanNames.run, { kind: 'consumer', parent: job.traceparent ?? null, attributes: { [traceAttributes.requestId]: job.requestId } }, (span) => this.run(job, span));

  private async run(job: Job, span: TraceSpan): Promise<void> {
    const { requests, settings, clock, workerId } = this.deps;
    if (job.poll !== undefined) {
      // A poll this worker scheduled (it holds the job in its own timers) knows the row: no read after the claim.
      const takenAt = clock.now();
      const polled = job.known
        ? await requests.claimPollOf(job.known, workerId, takenAt, settings.lease_ms)
        : await requests.claim(job.requestId, workerId, takenAt, settings.lease_ms, 'poll', job.poll);
      if (!polled) return;
      if (job.dueAtMs !== undefined && polled.provider) this.deps.metrics?.vendorPollTaken(polled.provider, (takenAt - job.dueAtMs) / 1000);
      span.setAttributes(claimedAttributes('poll', polled));
      return this.poll(polled);
    }
    const claimedAt = clock.now();
    // A start job from the admission carries the row as written: its first claim needs no read.
    const started =
      (job.known && (await requests.claimStartOf(job.requestId, job.known, workerId, claimedAt, settings.lease_ms))) ||
      (await requests.claim(job.requestId, workerId, claimedAt, settings.lease_ms, 'start'));
    if (started) {
      span.setAttributes(claimedAttributes('start', started));
      this.deps.changes?.announce(started.id);
      // The claim keeps the first start's time: when it is this claim's, the request's queue wait ends here, once.
      if (started.startedAtMs === claimedAt) this.deps.metrics?.requestStarted(started.operation, (claimedAt - started.createdAtMs) / 1000);
      return this.start(started);
    }
  }

  private async start(request: RequestRecord): Promise<void> {
    const { settings, workerId, finisher } = this.deps;
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
      const attempt = startAttempt(request, candidate, route);
      const startRecord = this.recordStartAttemptSoon(attempt);
      // A client's cancel stops this start while it only renders or uploads (see running-starts.ts).
      const running = trackStart(request.id);
      try {
        const result = await this.call('start', attempt, candidate, route, (context) => candidate.plugin.operations[request.operation].start(request.input ?? {}, context, route), {
          beforeSubmission: () => {
            running.submitting();
            return this.recordSubmission(request, candidate.plugin.id, startRecord.takeUnwritten());
          },
          cancel: running,
        });
        if (candidate !== candidates[0]) this.deps.metrics?.providerFallback(request.operation, candidates[0].plugin.id, candidate.plugin.id);
        return this.settleStart(attempt, definition, candidate.plugin.id, route, result);
      } catch (error) {
        // The store's own failures (after its retries) are not the provider's: the job is redelivered, or the
        // sweeper takes the request over when its lease runs out; failing it would blame and refund the wrong thing.
        if (!ProviderError.is(error)) throw error;
        const failure = error;
        // Never the next provider: that would be a second job if this one took the submission.
        if (ProviderError.isOutcomeUnknown(failure)) return this.reconcile(attempt, definition, candidate, route, failure.message);
        if (!failure.retryable) return void (await finisher.fail(attempt, workerId, failure.message));
        this.deps.log.warn({ requestId: request.id, provider: candidate.plugin.id, err: failure.message }, 'provider deferred the start; trying the next one');
        lastTransient = failure;
      } finally {
        startRecord.takeUnwritten();
        running.end();
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
      const found = await this.call('reconcile', request, loaded, route, (context) => handler.reconcile!(request.input ?? {}, context, route));
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
    if (await withTransientRetry(() => this.deps.requests.release(request.id, this.deps.workerId, { status: 'queued', nextCheckAtMs: this.deps.clock.now() + delayMs, ...options }))) this.deps.changes?.announce(request.id);
    await this.deps.queue.publish(withTraceparent({ requestId: request.id }, request.traceContext ?? undefined), { delayMs });
  }

  /**
   * The spec's processing output (task_id, status, provider, model) while a start runs is written once the provider
   * call has lasted `start_record_after_ms`: a call that answers sooner (an instant provider, a cached or
   * synchronous result) finishes with one write instead of two, and a client could not have polled the difference.
   * A submission record written before that carries the output along (`takeUnwritten`). Not awaited: it runs beside
   * the plugin call, and the store only lets it land while this worker still holds the request without a task, so it
   * can never overwrite a later state. A failure then fails with this output (the attempt's record holds it).
   */
  private recordStartAttemptSoon(attempt: RequestRecord): { takeUnwritten(): JsonObject | undefined } {
    let unwritten: JsonObject | undefined = attempt.output ?? undefined;
    const timer = setTimeout(() => {
      const output = unwritten;
      unwritten = undefined;
      if (!output) return;
      this.deps.requests
        .recordStartAttempt(attempt.id, this.deps.workerId, output)
        .then((recorded) => recorded && this.deps.changes?.announce(attempt.id))
        .catch((error) => this.deps.log.warn({ err: error, requestId: attempt.id }, 'could not record the start attempt'));
    }, this.deps.settings.start_record_after_ms);
    return {
      takeUnwritten: () => {
        clearTimeout(timer);
        const output = unwritten;
        unwritten = undefined;
        return output;
      },
    };
  }

  /** `output`: the start attempt's, when it is not written yet (recordStartAttemptSoon): one write instead of two. */
  private async recordSubmission(request: RequestRecord, provider: string, output?: JsonObject): Promise<void> {
    if (!(await withTransientRetry(() => this.deps.requests.recordSubmission(request.id, this.deps.workerId, provider, output)))) {
      throw new ProviderError(`${provider}: the worker lost the request before submitting it`, { provider, retryable: false });
    }
    if (output) this.deps.changes?.announce(request.id);
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
    let result: Awaited<ReturnType<NonNullable<typeof handler.status>>>;
    try {
      result = await this.call('status', request, loaded, route, (context) => handler.status!(request.task!, context, route));
    } catch (error) {
      const failure = error as ProviderError;
      if (!failure.retryable) return void (await finisher.fail(request, workerId, failure.message));
      return this.schedulePoll(request, definition, loaded.plugin.id, request.task!, route, request.pollCount + 1, undefined, failure.details.retryAfterSeconds);
    }
    // Outside the try: a store failure while finishing or scheduling is not the provider's (see start()).
    if ('done' in result) return void (await finisher.succeed(request, workerId, definition, servedBy(result.done, loaded.plugin.id)));
    if ('failed' in result) return void (await finisher.fail(request, workerId, result.failed));
    await this.schedulePoll(request, definition, loaded.plugin.id, request.task!, route, request.pollCount + 1, result.pending.progress);
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
    const polling = pollingFor(definition.manifest.polling, provider);
    const delay = pollCount === 0 ? polling.first_after_ms : nextCheckDelay(polling, pollCount - 1, { retryAfterSeconds });
    const output: JsonObject = { task_id: task.taskId, status: 'processing', provider, model: route.publicName };
    if (progress !== undefined) output.progress = progress;
    const update = { provider, task, output, nextCheckAtMs: this.deps.clock.now() + delay, pollCount };
    // A conditional update of this worker's own row: retrying one that hit a deadlock is safe.
    if (!(await withTransientRetry(() => this.deps.requests.recordTask(request.id, this.deps.workerId, update)))) return;
    // After a poll, `request` is the row its claim read: the same output means nothing a client sees changed (its
    // state tag is the same), so no waiter is told; most polls of a vendor that reports no progress are such. After a
    // start it is the worker's own copy, whose output may not be written yet (start_record_after_ms): always told.
    if (pollCount === 0 || !isDeepStrictEqual(output, request.output)) this.deps.changes?.announce(request.id);
    const job: Job = { requestId: request.id, poll: pollCount, dueAtMs: update.nextCheckAtMs, known: recordedTaskRow(request, update) };
    await this.deps.queue.publish(withTraceparent(job, request.traceContext ?? undefined), { delayMs: delay });
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
  private async call<T>(
    kind: ProviderCallKind,
    request: RequestRecord,
    loaded: LoadedPlugin,
    route: RoutedModel,
    invoke: Parameters<typeof callProvider<T>>[3],
    start: { beforeSubmission?: () => Promise<void>; cancel?: ClientCancel } = {},
  ): Promise<T> {
    const { requests, settings, clock, workerId, log } = this.deps;
    const heartbeat = setInterval(() => {
      requests.extendLease(request.id, workerId, clock.now() + settings.lease_ms).catch((error) => log.warn({ err: error, requestId: request.id }, 'lease heartbeat failed'));
    }, Math.max(50, Math.floor(settings.lease_ms / 3)));
    try {
      const attributes = { [traceAttributes.provider]: loaded.plugin.id, [traceAttributes.providerCall]: kind, [traceAttributes.requestId]: request.id };
      return await tracing.inSpan(spanNames.providerCall, { attributes }, () =>
        callProvider(this.deps, loaded, { kind, requestId: request.id, operation: request.operation, route, timeoutMs: this.deps.callTimeoutMs, ...start }, invoke),
      );
    } finally {
      clearInterval(heartbeat);
    }
  }
}

/** What a job run claimed, on its span: the phase and the request's operation and model. */
function claimedAttributes(phase: 'start' | 'poll', request: RequestRecord) {
  return { [traceAttributes.jobPhase]: phase, [traceAttributes.operation]: request.operation, [traceAttributes.model]: request.model };
}

/**
 * The request as a start with this provider shows it: the spec's processing output. A synthetic provider (`local`)
 * does not make the routed vendor model: its finished output names what made it, and until then `model` is left out
 * rather than claim the vendor's.
 */
function startAttempt(request: RequestRecord, candidate: LoadedPlugin, route: RoutedModel): RequestRecord {
  const output: JsonObject = { task_id: request.id, status: 'processing', provider: candidate.plugin.id, ...(candidate.plugin.synthetic ? {} : { model: route.publicName }) };
  return { ...request, output };
}
