/**
 * Tracing as the kernel uses it: a small port whose default does nothing, so the admission, the queues, the
 * worker and the sweeper call it unconditionally while, with tracing off, nothing of OpenTelemetry is imported
 * and no span, context or traceparent is ever made (docs/tracing.md). `startTracing` (tracing-switch.ts) installs
 * the OpenTelemetry implementation (tracing-sdk.ts) before the rest of the service is imported. There is one per
 * process, because what it stands on is per process too: OpenTelemetry's tracer provider and its module patches.
 */

export type TraceAttributes = Record<string, string | number | boolean>;

export interface SpanOptions {
  /** `producer` publishes a job, `consumer` runs one; everything else is `internal`. */
  kind?: 'internal' | 'producer' | 'consumer';
  /**
   * The W3C traceparent the span continues. `undefined`: the active span (none active: a new trace). `null`: a
   * new trace whatever is active, for work that must not hang under an unrelated span (a job whose request was
   * created with tracing off, run from a queue callback that carries some other job's context).
   */
  parent?: string | null;
  /**
   * Also link the active span: it caused this span although the parent is another one, as a job run that
   * schedules the next poll under the create's context.
   */
  linkActive?: boolean;
  attributes?: TraceAttributes;
}

export interface TraceSpan {
  /** This span's traceparent, to store or to send with a job; undefined when tracing is off. */
  readonly traceparent: string | undefined;
  setAttributes(attributes: TraceAttributes): void;
}

export interface Tracing {
  readonly enabled: boolean;
  /** The active span's traceparent (what an admission stores with its request); undefined without one. */
  activeTraceparent(): string | undefined;
  /**
   * For a consumer: the active span's traceparent when it belongs to the same trace as `traceparent` (a broker
   * instrumentation opened it for this very message, under the publish that `traceparent` names), else
   * `traceparent` itself.
   */
  nearest(traceparent: string | undefined): string | undefined;
  /** Runs `work` in a new span ended when `work` settles; a rejection marks the span failed and is passed on. */
  inSpan<T>(name: string, options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T>;
}

const noSpan: TraceSpan = { traceparent: undefined, setAttributes() {} };

export const noTracing: Tracing = {
  enabled: false,
  activeTraceparent: () => undefined,
  nearest: (traceparent) => traceparent,
  inSpan: (_name, _options, work) => work(noSpan),
};

/** The process's tracing (a live binding: `installTracing` replaces it for every importer). */
export let tracing: Tracing = noTracing;

export function installTracing(implementation: Tracing): void {
  tracing = implementation;
}

/** Span and attribute names of our own spans, in one place for the code, the tests and docs/tracing.md. */
export const spanNames = {
  publish: 'mediagate.job.publish',
  run: 'mediagate.job.run',
  providerCall: 'mediagate.provider.call',
  republish: 'mediagate.sweeper.republish',
  webhookDelivery: 'mediagate.webhook.delivery',
} as const;

export const traceAttributes = {
  requestId: 'mediagate.request.id',
  operation: 'mediagate.operation',
  model: 'mediagate.model',
  provider: 'mediagate.provider',
  providerCall: 'mediagate.provider.call',
  jobPhase: 'mediagate.job.phase',
  delayMs: 'mediagate.job.delay_ms',
  queue: 'messaging.system',
  deliveryId: 'mediagate.webhook.delivery_id',
  deliveryAttempt: 'mediagate.webhook.attempt',
  deliveryState: 'mediagate.webhook.state',
} as const;

/**
 * The producer span of a job publish (both queues). A job that names its traceparent continues it, linking the
 * span that published it: a job run scheduling its request's next poll under the create's context.
 */
export function jobPublishSpan(job: { requestId: string; traceparent?: string }, delayMs: number, queue: string): SpanOptions {
  return {
    kind: 'producer',
    parent: job.traceparent,
    linkActive: job.traceparent !== undefined,
    attributes: { [traceAttributes.requestId]: job.requestId, [traceAttributes.delayMs]: delayMs, [traceAttributes.queue]: queue },
  };
}
