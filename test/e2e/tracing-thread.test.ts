/**
 * Tracing across the embedded worker thread (`mediagate start all`, `worker.thread` on by default), switched on by the
 * standard variables and exporting OTLP/HTTP JSON to a receiver this test runs: the worker thread starts tracing of
 * its own (resource role `worker`) and continues the create's trace from the job's traceparent, as a worker process
 * does from the broker's header, down to the provider calls of the start and of its poll.
 */
import { expect } from 'chai';
import { startEmbeddedGateway, type EmbeddedGateway } from '../../bench/embedded-gateway.js';
import { eventually } from '../support/eventually.js';
import { startOtlpReceiver, type OtlpReceiver } from '../support/otlp-receiver.js';
import { SpanTree } from '../support/span-tree.js';

describe('tracing across the embedded worker thread over OTLP', function () {
  this.timeout(120_000);
  let receiver: OtlpReceiver;
  let gateway: EmbeddedGateway;

  before(async () => {
    receiver = await startOtlpReceiver();
    // Batches go out every 100 ms; the process is stopped with SIGTERM at the end.
    gateway = await startEmbeddedGateway({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json', OTEL_BSP_SCHEDULE_DELAY: '100' });
  });
  after(async () => {
    await gateway?.stop();
    await receiver?.close();
  });

  it('continues the create on the worker thread: the publish, the start and its polls with their provider calls, in one trace', async () => {
    const created = await fetch(`${gateway.url}/api/v1/requests`, {
      method: 'POST',
      headers: gateway.headers,
      body: JSON.stringify({ operation: 'test.echo', input: { message: 'traced across threads', script: { pending: 1 } } }),
    });
    expect(created.status).to.equal(202);
    const id = ((await created.json()) as { id: string }).id;
    const finished = await eventually('the request to finish', async () => {
      const polled = (await (await fetch(`${gateway.url}/api/v1/requests/${id}`, { headers: gateway.headers })).json()) as { status: string };
      return polled.status === 'succeeded' || polled.status === 'failed' ? polled : undefined;
    });
    expect(finished.status).to.equal('succeeded');

    const ofRequest = (name: string) => (span: { name: string; attributes: Record<string, unknown> }) => span.name === name && span.attributes['mediagate.request.id'] === id;
    // The scripted vendor answers one poll `pending`: a start and two polls, each with its provider call. Each thread
    // exports its own batches, so the HTTP thread's server span is waited for too, not taken to have come first.
    const isCreateServer = (span: { kind: string; name: string }) => span.kind === 'SERVER' && span.name === 'POST /api/v1/requests';
    const tree = await eventually('the create\'s server span, the spans of the three runs and their provider calls', async () => {
      const spans = new SpanTree([...receiver.spans]);
      const complete = spans.all(isCreateServer).length > 0 && spans.all(ofRequest('mediagate.job.run')).length === 3 && spans.all(ofRequest('mediagate.provider.call')).length === 3;
      return complete ? spans : undefined;
    });
    const server = tree.one('create server span', isCreateServer);
    expect(server.resource['mediagate.role']).to.equal('all');
    const runs = tree.all(ofRequest('mediagate.job.run'));
    expect(runs.map((run) => [run.traceId, run.resource['mediagate.role'], run.attributes['mediagate.job.phase']]).sort()).to.deep.equal([
      [server.traceId, 'worker', 'poll'],
      [server.traceId, 'worker', 'poll'],
      [server.traceId, 'worker', 'start'],
    ]);
    const start = runs.find((run) => run.attributes['mediagate.job.phase'] === 'start')!;
    const poll = runs.find((run) => run.attributes['mediagate.job.phase'] === 'poll' && tree.parentOf(run)?.parentSpanId !== undefined)!;
    // The start's job was published on the HTTP thread and handed to the worker thread.
    const handedOver = tree.parentOf(start)!;
    expect(handedOver).to.include({ name: 'mediagate.job.publish', kind: 'PRODUCER' });
    expect(handedOver.resource['mediagate.role']).to.equal('all');
    expect(handedOver.attributes).to.include({ 'mediagate.request.id': id, 'messaging.system': 'mediagate-thread' });
    expect(tree.ancestry(handedOver)).to.deep.equal(['PRODUCER mediagate.job.publish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    // The poll's job was published on the worker thread, into its own in-process queue.
    const pollPublish = tree.parentOf(poll)!;
    expect(pollPublish).to.include({ name: 'mediagate.job.publish' });
    expect(pollPublish.resource['mediagate.role']).to.equal('worker');
    expect(pollPublish.attributes).to.include({ 'messaging.system': 'mediagate-memory' });
    for (const run of runs) {
      expect(tree.all((span) => span.name === 'mediagate.provider.call' && span.parentSpanId === run.spanId)).to.have.length(1);
    }
  });
});
