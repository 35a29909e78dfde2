/**
 * The OpenTelemetry side of tracing, imported only when tracing is on (tracing-switch.ts) and before the service:
 * the instrumentations patch modules as they are loaded.
 *
 *  - koa (router spans; the route also names the HTTP server span), http (the API's server spans, the guarded
 *    fetch, webhooks), undici (the vendor HTTP client, which is `fetch`), amqplib (publish and process spans, and
 *    the `traceparent` header on every message) and mysql2; better-sqlite3 has no instrumentation.
 *  - The exporter, its endpoint, headers and protocol, the sampler, the propagators and the batching come from the
 *    standard OTEL_* variables, read by the SDK; only traces are exported (the metrics are Prometheus's).
 *  - No query string leaves the process in a span: ours carry OAuth parameters, clients' webhook URLs and vendors'
 *    signed URLs can carry credentials. No SQL value either: statements are recorded with their placeholders.
 */
import { createRequire, register, syncBuiltinESMExports } from 'node:module';
import {
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  diag,
  DiagLogLevel,
  INVALID_SPAN_CONTEXT,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
  type TracerOptions,
  type TracerProvider,
} from '@opentelemetry/api';
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KoaInstrumentation, KoaLayerType } from '@opentelemetry/instrumentation-koa';
import { MySQL2Instrumentation } from '@opentelemetry/instrumentation-mysql2';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { core, NodeSDK } from '@opentelemetry/sdk-node';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { pino } from 'pino';
import type { TracingHandle, TracingStart } from './tracing-switch.js';
import { installTracing, type SpanOptions, type TraceSpan, type Tracing } from './tracing.js';

/** Modules loaded by `import` whose instrumentation needs the ESM hook; the rest are patched through `require`. */
const importHooked = ['koa'];

/** Probes and scrapes: a span per poll of /healthz or /metrics would bury the requests. */
const unTracedPaths = new Set(['/healthz', '/metrics']);

const urlAttributes = ['url.full', 'url.query', 'http.url', 'http.target'];

export interface OpenTelemetryStart extends TracingStart {
  /** Replaces the exporters the environment configures (the tests' in-memory exporter). */
  spanProcessors?: SpanProcessor[];
}

export async function startOpenTelemetry(start: OpenTelemetryStart): Promise<TracingHandle> {
  // The SDK reports export failures (collector down, refused) through diag, which says nothing until given a logger.
  if (!process.env.OTEL_LOG_LEVEL) diag.setLogger(diagLogger(), DiagLogLevel.WARN);
  // koa's ESM entry loads its CommonJS code past `require`, so only a loader hook sees it (the OpenTelemetry hook,
  // import-in-the-middle, limited to the modules that need it).
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include: importHooked } });
  // Unmasked, mysql2's instrumentation records each statement formatted with its values (prompts, key hashes);
  // "masked" with the identity, it records the statement as written, with its placeholders.
  const mysql = new MySQL2Instrumentation({ maskStatement: true, maskStatementHook: (statement) => statement });
  const sdk = new NodeSDK({
    // Ours first, so that OTEL_RESOURCE_ATTRIBUTES (merged after) can override them.
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_VERSION]: start.version, 'mediagate.role': start.role })),
    serviceName: namesService(process.env) ? undefined : 'mediagate',
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: (request) => unTracedPaths.has((request.url ?? '').split('?')[0]!), requestHook: redactQueries }),
      new UndiciInstrumentation({ requestHook: redactQueries }),
      new KoaInstrumentation({ ignoreLayersType: [KoaLayerType.MIDDLEWARE] }),
      new AmqplibInstrumentation(),
      mysql,
    ],
    metricReaders: [],
    logRecordProcessors: [],
    ...(start.spanProcessors ? { spanProcessors: start.spanProcessors } : {}),
  });
  sdk.start();
  // The gateway's timers (sweeper, store gauges, outbox, retention) query on their own every few seconds; a trace
  // per such statement would drown the rest. Statements are traced inside an operation only.
  mysql.setTracerProvider(new ParentRequiredTracerProvider(trace.getTracerProvider()));
  // `import { request } from 'node:http'` (the guarded fetch) binds Node's ESM copy of http's exports, refreshed from
  // the CommonJS object only by syncBuiltinESMExports(); the instrumentation patches that object once, on the first
  // load it sees. So: load http and https through `require` now, then copy the patched functions over.
  const require = createRequire(import.meta.url);
  require('node:http');
  require('node:https');
  syncBuiltinESMExports();
  installTracing(new OpenTelemetryTracing(trace.getTracer('mediagate', start.version)));
  return { shutdown: () => sdk.shutdown() };
}

const w3c = new core.W3CTraceContextPropagator();

/** The W3C traceparent of `ctx`'s span, whatever OTEL_PROPAGATORS says: it is stored and parsed back by us. */
function traceparentOf(ctx: Context): string | undefined {
  const carrier: Record<string, string> = {};
  w3c.inject(ctx, carrier, defaultTextMapSetter);
  return carrier.traceparent;
}

function contextOf(traceparent: string): Context {
  return w3c.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter);
}

const kinds = { internal: SpanKind.INTERNAL, producer: SpanKind.PRODUCER, consumer: SpanKind.CONSUMER } as const;

class OpenTelemetryTracing implements Tracing {
  readonly enabled = true;

  constructor(private readonly tracer: Tracer) {}

  activeTraceparent(): string | undefined {
    return traceparentOf(context.active());
  }

  nearest(traceparent: string | undefined): string | undefined {
    const active = trace.getSpanContext(context.active());
    if (!active) return traceparent;
    if (traceparent && trace.getSpanContext(contextOf(traceparent))?.traceId !== active.traceId) return traceparent;
    return traceparentOf(context.active());
  }

  inSpan<T>(name: string, options: SpanOptions, work: (span: TraceSpan) => Promise<T>): Promise<T> {
    const active = context.active();
    const parent = options.parent === undefined ? active : options.parent === null ? ROOT_CONTEXT : contextOf(options.parent);
    const cause = options.linkActive ? trace.getSpanContext(active) : undefined;
    const links = cause && cause.spanId !== trace.getSpanContext(parent)?.spanId ? [{ context: cause }] : undefined;
    const span = this.tracer.startSpan(name, { kind: kinds[options.kind ?? 'internal'], attributes: options.attributes, links }, parent);
    const spanContext = trace.setSpan(parent, span);
    const handle: TraceSpan = {
      get traceparent() {
        return traceparentOf(spanContext);
      },
      setAttributes: (attributes) => void span.setAttributes(attributes),
    };
    return context.with(spanContext, async () => {
      try {
        return await work(handle);
      } catch (error) {
        span.recordException(error instanceof Error ? error : String(error));
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
  }
}

/** Tracers that start a span only under an active one, like the pg instrumentation's `requireParentSpan`. */
class ParentRequiredTracerProvider implements TracerProvider {
  constructor(private readonly provider: TracerProvider) {}

  getTracer(name: string, version?: string, options?: TracerOptions): Tracer {
    const tracer = this.provider.getTracer(name, version, options);
    const unrecorded = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);
    return {
      startSpan: (spanName, spanOptions, ctx = context.active()) => (trace.getSpan(ctx) ? tracer.startSpan(spanName, spanOptions, ctx) : unrecorded),
      startActiveSpan: tracer.startActiveSpan.bind(tracer) as Tracer['startActiveSpan'],
    };
  }
}

/** Rewrites the URL attributes the http and undici instrumentations set at the span's start, without the query. */
function redactQueries(span: Span): void {
  const attributes = (span as Partial<ReadableSpan>).attributes;
  if (!attributes) return;
  for (const key of urlAttributes) {
    const value = attributes[key];
    if (typeof value !== 'string' || value === '') continue;
    if (key === 'url.query') span.setAttribute(key, 'REDACTED');
    else if (value.includes('?')) span.setAttribute(key, value.replace(/\?.*$/s, '?REDACTED'));
  }
}

function namesService(env: NodeJS.ProcessEnv): boolean {
  return Boolean(env.OTEL_SERVICE_NAME?.trim()) || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '');
}

/** diag's messages as JSON log lines, like every other line the gateway writes. */
function diagLogger() {
  const log = pino({ level: 'warn', base: { component: 'opentelemetry' } });
  const line = (level: 'error' | 'warn' | 'info' | 'debug' | 'trace') => (message: string, ...args: unknown[]) => log[level]({ details: args.map(String) }, message);
  return { error: line('error'), warn: line('warn'), info: line('info'), debug: line('debug'), verbose: line('trace') };
}
