/**
 * Whether `mediagate start` traces, decided from the standard OpenTelemetry variables alone, and the start-up
 * that loads OpenTelemetry only then (docs/tracing.md, "Switching it on").
 *
 * On when OTEL_SDK_DISABLED is not `true` and an exporter is asked for: OTEL_TRACES_EXPORTER names one, or it is
 * unset and an OTLP endpoint is (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). The
 * specification's default exporter is `otlp`, which read literally would switch tracing on in every deployment that
 * never heard of it, exporting to a localhost collector that is not there; an explicit exporter or endpoint keeps
 * it off by default. Values the SDK would only warn about and ignore stop the start instead, naming the variable.
 */
import { SettingsError } from '../config/index.js';

/** The values the SDK (sdk-node) understands; anything else it would drop with a warning nobody reads. */
const exporters = ['otlp', 'console', 'zipkin', 'none'] as const;
const protocols = ['http/protobuf', 'http/json', 'grpc'] as const;
const samplers = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;

export type TracingDecision = { enabled: false; reason: string } | { enabled: true; exporters: string[] };

export function tracingDecision(env: NodeJS.ProcessEnv): TracingDecision {
  const problems: string[] = [];
  const disabled = booleanVariable(env, 'OTEL_SDK_DISABLED', problems);
  const listed = listVariable(env, 'OTEL_TRACES_EXPORTER');
  for (const name of listed) if (!(exporters as readonly string[]).includes(name)) problems.push(`OTEL_TRACES_EXPORTER: unknown exporter ${name} (${exporters.join(', ')})`);
  if (listed.includes('none') && listed.length > 1) problems.push(`OTEL_TRACES_EXPORTER: none cannot be combined with ${listed.filter((name) => name !== 'none').join(', ')}`);
  for (const variable of ['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL', 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = env[variable]?.trim();
    if (value && !(protocols as readonly string[]).includes(value)) problems.push(`${variable}: unknown protocol ${value} (${protocols.join(', ')})`);
  }
  const sampler = env.OTEL_TRACES_SAMPLER?.trim();
  if (sampler && !(samplers as readonly string[]).includes(sampler)) problems.push(`OTEL_TRACES_SAMPLER: unknown sampler ${sampler} (${samplers.join(', ')})`);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG?.trim();
  if (ratio && sampler?.endsWith('traceidratio') && !(Number(ratio) >= 0 && Number(ratio) <= 1)) problems.push(`OTEL_TRACES_SAMPLER_ARG: ${ratio} is not a ratio between 0 and 1`);
  if (problems.length > 0) throw new SettingsError(`tracing settings are invalid: ${problems.join('; ')}`);

  if (disabled) return { enabled: false, reason: 'OTEL_SDK_DISABLED is true' };
  if (listed.includes('none')) return { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  if (listed.length > 0) return { enabled: true, exporters: listed };
  const endpoint = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (endpoint) return { enabled: true, exporters: ['otlp'] };
  return { enabled: false, reason: 'no trace exporter is configured (OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)' };
}

export interface TracingHandle {
  /** Ends the spans still buffered: sends them, waiting at most the exporter's timeout. */
  shutdown(): Promise<void>;
}

export interface TracingStart {
  /** `all`, `api` or `worker`: a resource attribute, so a backend can tell the processes of one service apart. */
  role: string;
  version: string;
}

/**
 * Starts tracing when the environment asks for it, before the caller imports the service: OpenTelemetry patches
 * koa, http, amqplib and mysql2 as they are loaded. Off, it imports nothing and returns undefined. The SDK reads
 * the rest of its configuration (endpoint, headers, protocol, sampler, batching) from process.env itself.
 */
export async function startTracing(start: TracingStart): Promise<TracingHandle | undefined> {
  if (!tracingDecision(process.env).enabled) return undefined;
  const { startOpenTelemetry } = await import('./tracing-sdk.js');
  return startOpenTelemetry(start);
}

function booleanVariable(env: NodeJS.ProcessEnv, name: string, problems: string[]): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (!value) return false;
  if (value !== 'true' && value !== 'false') problems.push(`${name}: ${env[name]} is neither true nor false`);
  return value === 'true';
}

function listVariable(env: NodeJS.ProcessEnv, name: string): string[] {
  return [...new Set((env[name] ?? '').split(',').map((item) => item.trim()).filter(Boolean))];
}
