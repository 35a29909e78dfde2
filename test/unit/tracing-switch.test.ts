/**
 * The tracing switch: off unless an exporter is asked for, by OTEL_TRACES_EXPORTER or an OTLP endpoint, and not
 * switched off by OTEL_SDK_DISABLED or the `none` exporter; a value the SDK would ignore with a warning stops the
 * start instead, every bad variable named at once.
 */
import { expect } from 'chai';
import { SettingsError } from '../../src/kernel/config/index.js';
import { tracingDecision } from '../../src/kernel/observability/tracing-switch.js';

const endpoint = 'http://collector.internal:4318';

describe('tracing switch', () => {
  const cases: [string, NodeJS.ProcessEnv, ReturnType<typeof tracingDecision>][] = [
    ['nothing set', {}, { enabled: false, reason: 'no trace exporter is configured (OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)' }],
    ['only a service name', { OTEL_SERVICE_NAME: 'gateway' }, { enabled: false, reason: 'no trace exporter is configured (OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)' }],
    ['an OTLP endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, { enabled: true, exporters: ['otlp'] }],
    ['an OTLP traces endpoint', { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${endpoint}/v1/traces` }, { enabled: true, exporters: ['otlp'] }],
    ['a blank endpoint', { OTEL_EXPORTER_OTLP_ENDPOINT: ' ' }, { enabled: false, reason: 'no trace exporter is configured (OTEL_TRACES_EXPORTER or OTEL_EXPORTER_OTLP_ENDPOINT)' }],
    ['an exporter named without an endpoint', { OTEL_TRACES_EXPORTER: 'otlp' }, { enabled: true, exporters: ['otlp'] }],
    ['two exporters', { OTEL_TRACES_EXPORTER: 'otlp, console,otlp' }, { enabled: true, exporters: ['otlp', 'console'] }],
    ['the none exporter beside an endpoint', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint }, { enabled: false, reason: 'OTEL_TRACES_EXPORTER is none' }],
    ['the SDK disabled beside an exporter', { OTEL_SDK_DISABLED: 'TRUE', OTEL_TRACES_EXPORTER: 'otlp' }, { enabled: false, reason: 'OTEL_SDK_DISABLED is true' }],
    ['the SDK not disabled', { OTEL_SDK_DISABLED: 'false', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' }, { enabled: true, exporters: ['otlp'] }],
    ['a valid sampler', { OTEL_EXPORTER_OTLP_ENDPOINT: endpoint, OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, { enabled: true, exporters: ['otlp'] }],
  ];
  for (const [what, env, decision] of cases) {
    it(`decides with ${what}`, () => {
      expect(tracingDecision(env)).to.deep.equal(decision);
    });
  }

  it('names every variable the SDK would ignore, whether or not tracing would be on', () => {
    const env = {
      OTEL_SDK_DISABLED: 'yes',
      OTEL_TRACES_EXPORTER: 'jaeger,none',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http',
      OTEL_TRACES_SAMPLER: 'traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '2',
    };
    expect(() => tracingDecision(env)).to.throw(
      SettingsError,
      'tracing settings are invalid: OTEL_SDK_DISABLED: yes is neither true nor false; ' +
        'OTEL_TRACES_EXPORTER: unknown exporter jaeger (otlp, console, zipkin, none); OTEL_TRACES_EXPORTER: none cannot be combined with jaeger; ' +
        'OTEL_EXPORTER_OTLP_PROTOCOL: unknown protocol http (http/protobuf, http/json, grpc); OTEL_TRACES_SAMPLER_ARG: 2 is not a ratio between 0 and 1',
    );
    expect(() => tracingDecision({ OTEL_TRACES_SAMPLER: 'jaeger_remote', OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'grpc ' })).to.throw(
      'tracing settings are invalid: OTEL_TRACES_SAMPLER: unknown sampler jaeger_remote (always_on, always_off, traceidratio, parentbased_always_on, parentbased_always_off, parentbased_traceidratio)',
    );
  });
});
