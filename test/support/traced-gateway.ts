/**
 * An embedded gateway (API, worker and sweeper in one process) traced into an in-memory exporter, for
 * test/e2e/tracing.test.ts. OpenTelemetry patches koa, http, amqplib and mysql2 as they are loaded, and a test
 * process has loaded them long before, so the gateway runs here, in a process of its own, started the way
 * `mediagate start` starts one: tracing first, the service after. Settings come from MEDIAGATE_* variables.
 *
 * Prints one line `ready {"url", "key"}` once serving (the key has 1000 credits); then, for each line on stdin,
 * `spans` prints `spans [...]` (every span ended so far) and `stop` stops the service and exits.
 */
import { createInterface } from 'node:readline';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startOpenTelemetry } from '../../src/kernel/observability/tracing-sdk.js';
import type { TracedSpan } from './span-tree.js';

const exporter = new InMemorySpanExporter();
const tracing = await startOpenTelemetry({ role: 'all', version: 'test', spanProcessors: [new SimpleSpanProcessor(exporter)] });

const [{ loadSettings }, { startService }, { newId }] = await Promise.all([
  import('../../src/kernel/config/index.js'),
  import('../../src/cli/serve.js'),
  import('../../src/kernel/store/index.js'),
]);
// The worker in this thread: a worker thread starts its own tracing from the OTEL_* variables and exports there,
// never to this process's in-memory exporter (test/e2e/tracing-thread.test.ts follows a trace across it).
const service = await startService(loadSettings({ overrides: { worker: { thread: false } } }), { role: 'all', logDestination: process.stderr });
const { accounts, apiKeys, clock } = service.gateway;
const accountId = newId('acct', clock.now());
await accounts.createAccount({ id: accountId, email: 'traced@example.com', plan: 'test', creditsBalance: 1000, createdAtMs: clock.now() });
const { plaintext } = await apiKeys.create(accountId, 'traced', ['requests:read', 'requests:write']);
process.stdout.write(`ready ${JSON.stringify({ url: service.url, key: plaintext })}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'spans') process.stdout.write(`spans ${JSON.stringify(exporter.getFinishedSpans().map(finishedSpan))}\n`);
  if (line === 'stop') break;
}
await service.stop();
await tracing.shutdown();
process.exit(0);

function finishedSpan(span: ReadableSpan): TracedSpan {
  return {
    name: span.name,
    kind: SpanKind[span.kind],
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    scope: span.instrumentationScope.name,
    attributes: span.attributes,
    links: span.links.map((link) => ({ traceId: link.context.traceId, spanId: link.context.spanId })),
    error: span.status.code === 2,
    resource: span.resource.attributes,
  };
}
