/**
 * Tracing on the production topology: an API process and a worker process (`mediagate start api|worker`, MariaDB,
 * RabbitMQ), switched on by the standard variables alone and exporting OTLP/HTTP JSON to a receiver this test runs.
 * The create's trace crosses from the API into the worker through the broker's `traceparent` header: the start's
 * run, the delayed poll's run (continuing the create's stored context) and a lost job's republish by the sweeper of
 * a worker started later (continuing it too), each down to the provider's vendor request.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { expect } from 'chai';
import { describeTopology } from '../../src/kernel/queue/index.js';
import { eventually } from '../support/eventually.js';
import { startLoopbackVendor, type LoopbackVendor } from '../support/loopback-vendor.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { api, ProcessTopology, waitForTerminal, type ManagedProcess } from '../support/process-topology.js';
import { withBrokerChannel } from '../support/rabbitmq.js';
import { SpanTree, traceparentOf, type TracedSpan } from '../support/span-tree.js';

const fixtures = fileURLToPath(new URL('../fixtures/tracing', import.meta.url));
const amqplibScope = '@opentelemetry/instrumentation-amqplib';

describe('tracing the production topology over OTLP', function () {
  this.timeout(180_000);
  let receiver: OtlpReceiver;
  let vendor: LoopbackVendor;
  let topology: ProcessTopology;
  let apiProcess: ManagedProcess;
  let worker: ManagedProcess;
  let key: string;

  before(async function () {
    receiver = await startOtlpReceiver();
    vendor = await startLoopbackVendor();
    vendor.answer((request) => {
      if (request.method === 'POST') return { status: 200, json: { id: `job-${(JSON.parse(request.body) as { metadata: { request_id: string } }).metadata.request_id}` } };
      return { status: 200, json: { echo: `done ${request.path}` } };
    });
    topology = await ProcessTopology.create(this, {
      MEDIAGATE_MANIFEST_DIRS: join(fixtures, 'manifests'),
      MEDIAGATE_PLUGIN_DIRS: join(fixtures, 'plugins'),
      MEDIAGATE_PROVIDER_LOOPBACK_BASE_URL: `${vendor.url}/v1/`,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      // Batches go out every 100 ms: the processes are killed at the end, with no chance to flush.
      OTEL_BSP_SCHEDULE_DELAY: '100',
    });
    apiProcess = await topology.start('api');
    worker = await topology.start('worker');
    key = await topology.createKey(100);
  });
  after(async () => {
    await topology?.stop();
    await vendor?.close();
    await receiver?.close();
  });

  const spansOf = (requestId: string, until: (tree: SpanTree) => boolean) =>
    eventually(`the spans of ${requestId}`, async () => {
      const tree = new SpanTree([...receiver.spans]);
      return until(tree) ? tree : undefined;
    });
  const runsOf = (tree: SpanTree, requestId: string) => tree.all((span) => span.name === 'mediagate.job.run' && span.attributes['mediagate.request.id'] === requestId);
  /** The labels between a run and our publish: only the broker's spans (its publish and process, per hop). */
  const brokerHops = (tree: SpanTree, run: TracedSpan) => {
    const chain: TracedSpan[] = [];
    for (let span = tree.parentOf(run); span && span.scope === amqplibScope; span = tree.parentOf(span)) chain.push(span);
    return chain;
  };

  it('continues the create in the worker process: the start, the delayed poll and their vendor requests', async () => {
    const created = await api(apiProcess.url, key, 'POST', '/api/v1/requests', { operation: 'test.submit', input: { message: 'hello traced' } });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    expect((await waitForTerminal(apiProcess.url, key, [id], 30_000)).get(id).status).to.equal('succeeded');
    const tree = await spansOf(id, (spans) => runsOf(spans, id).length === 2 && spans.all((span) => span.name === 'mediagate.provider.call' && span.attributes['mediagate.request.id'] === id).length === 2);

    const server = tree.one('create server span', (span) => span.kind === 'SERVER' && span.name === 'POST /api/v1/requests');
    expect(server.resource).to.include({ 'service.name': 'mediagate', 'mediagate.role': 'api' });
    const [start, poll] = runsOf(tree, id);
    expect([start, poll].map((run) => [run.traceId, run.resource['mediagate.role'], run.attributes['mediagate.job.phase']])).to.deep.equal([
      [server.traceId, 'worker', 'start'],
      [server.traceId, 'worker', 'poll'],
    ]);

    // Start: the API's publish, then the broker (amqplib's publish in the API, its process span in the worker).
    const startHops = brokerHops(tree, start);
    expect(startHops.map((span) => [span.kind, span.resource['mediagate.role']])).to.deep.equal([
      ['CONSUMER', 'worker'],
      ['PRODUCER', 'api'],
    ]);
    const firstPublish = tree.parentOf(startHops.at(-1)!)!;
    expect(firstPublish).to.include({ name: 'mediagate.job.publish', kind: 'PRODUCER' });
    expect(firstPublish.attributes).to.deep.equal({ 'mediagate.request.id': id, 'mediagate.job.delay_ms': 0, 'messaging.system': 'rabbitmq' });
    expect(tree.ancestry(firstPublish)).to.deep.equal(['PRODUCER mediagate.job.publish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    const createContext = tree.parentOf(firstPublish)!;
    expect((await topology.requestRow(id)).trace_context).to.equal(traceparentOf(createContext));

    // Poll: published by the worker under the create's stored context (a span made in the API), linking the start;
    // the worker holds its own polls (queue.hold_polls_up_to_ms), so no broker hop lies between it and the run.
    expect(brokerHops(tree, poll)).to.deep.equal([]);
    const pollPublish = tree.parentOf(poll)!;
    expect(pollPublish).to.include({ name: 'mediagate.job.publish', parentSpanId: createContext.spanId });
    expect(pollPublish.resource['mediagate.role']).to.equal('worker');
    expect(pollPublish.attributes).to.include({ 'mediagate.job.delay_ms': 20, 'messaging.system': 'mediagate-memory' });
    expect(pollPublish.links).to.deep.equal([{ traceId: server.traceId, spanId: start.spanId }]);

    for (const [run, method, path] of [[start, 'POST', '/v1/jobs'], [poll, 'GET', `/v1/jobs/job-${id}`]] as const) {
      const providerCall = tree.one(`${method} provider call`, (span) => span.name === 'mediagate.provider.call' && span.parentSpanId === run.spanId);
      // The provider call's HTTP client span (the submission record's UPDATE is a client span under it too).
      const vendorCall = tree.one(`${method} to the vendor`, (span) => span.kind === 'CLIENT' && span.parentSpanId === providerCall.spanId && span.scope === '@opentelemetry/instrumentation-undici');
      expect(vendor.calls(method, path).map((request) => request.headers.traceparent)).to.deep.equal([traceparentOf(vendorCall)]);
    }

    // The admission's INSERT is in the create's trace, with placeholders and never a value.
    const insert = tree.one('request insert', (span) => span.traceId === server.traceId && String(span.attributes['db.query.text']).startsWith('INSERT INTO requests'));
    expect(insert.scope).to.equal('@opentelemetry/instrumentation-mysql2');
    expect(insert.attributes['db.query.text']).to.include('trace_context').and.include('?').and.not.include('hello traced');
    // The timers' statements (the worker sweeps every 500 ms) make no traces of their own, nor does the exporter.
    expect(tree.all((span) => span.scope === '@opentelemetry/instrumentation-mysql2' && span.parentSpanId === undefined)).to.deep.equal([]);
    expect(tree.all((span) => String(span.attributes['url.full'] ?? '').startsWith(receiver.url))).to.deep.equal([]);
  });

  it('continues it from the sweeper of a worker started after the job was lost', async () => {
    await topology.kill(worker);
    const workQueue = describeTopology({ prefix: String(topology.env.MEDIAGATE_AMQP_PREFIX), deliveryLimit: 5 }).workQueue;
    await eventually('the dead worker to leave the work queue', () => withBrokerChannel(async (channel) => ((await channel.checkQueue(workQueue)).consumerCount === 0 ? true : undefined)));
    const created = await api(apiProcess.url, key, 'POST', '/api/v1/requests', { operation: 'test.submit', input: { message: 'lost and found' } });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    // The job is lost, as if the broker had dropped it: only the sweeper can send the request again.
    await eventually('the job to reach the work queue', () => withBrokerChannel(async (channel) => ((await channel.checkQueue(workQueue)).messageCount === 1 ? true : undefined)));
    await withBrokerChannel((channel) => channel.purgeQueue(workQueue));
    worker = await topology.start('worker');
    expect((await waitForTerminal(apiProcess.url, key, [id], 30_000)).get(id).status).to.equal('succeeded');
    const tree = await spansOf(id, (spans) => runsOf(spans, id).length === 2);

    const [start] = runsOf(tree, id);
    const server = tree.one('create server span', (span) => span.kind === 'SERVER' && span.name === 'POST /api/v1/requests' && span.traceId === start.traceId);
    const republish = tree.one('republish', (span) => span.name === 'mediagate.sweeper.republish' && span.attributes['mediagate.request.id'] === id);
    expect(republish.resource['mediagate.role']).to.equal('worker');
    expect(tree.ancestry(republish)).to.deep.equal(['INTERNAL mediagate.sweeper.republish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    expect(traceparentOf(tree.parentOf(republish)!)).to.equal((await topology.requestRow(id)).trace_context);
    expect(tree.ancestry(tree.parentOf(brokerHops(tree, start).at(-1)!)!)).to.deep.equal([
      'PRODUCER mediagate.job.publish',
      'INTERNAL mediagate.sweeper.republish',
      'INTERNAL router - /api/v1/requests',
      'SERVER POST /api/v1/requests',
    ]);
  });
});
