/**
 * Tracing on, embedded (API, worker and sweeper in one process, the in-process queue): one create of a request
 * that a vendor runs (a start that POSTs a job, then a delayed poll that GETs it) makes one trace, from the HTTP
 * request through the queue to both job runs, their provider calls and the vendor's HTTP requests, which carry
 * that trace to the vendor; the request row keeps the create's context. Spans go to an in-memory exporter in the
 * gateway's process (test/support/traced-gateway.ts): OpenTelemetry patches modules as they load, and this test
 * process loaded them long ago.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { expect } from 'chai';
import { eventually } from '../support/eventually.js';
import { startLoopbackVendor, type LoopbackVendor } from '../support/loopback-vendor.js';
import { SpanTree, traceparentOf, type TracedSpan } from '../support/span-tree.js';

const fixtures = fileURLToPath(new URL('../fixtures/tracing', import.meta.url));
const script = fileURLToPath(new URL('../support/traced-gateway.ts', import.meta.url));

/** The traced gateway's process: its `ready` answer, and its spans on demand. */
class TracedGateway {
  private readonly lines: AsyncIterator<string>;
  private readonly stderr: string[] = [];

  private constructor(private readonly child: ChildProcess) {
    child.stderr!.on('data', (chunk) => this.stderr.push(String(chunk)));
    this.lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  }

  static async start(env: NodeJS.ProcessEnv): Promise<{ gateway: TracedGateway; url: string; key: string }> {
    const gateway = new TracedGateway(spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['pipe', 'pipe', 'pipe'] }));
    const ready = JSON.parse(await gateway.answer('ready')) as { url: string; key: string };
    return { gateway, ...ready };
  }

  async spans(): Promise<TracedSpan[]> {
    this.child.stdin!.write('spans\n');
    return JSON.parse(await this.answer('spans')) as TracedSpan[];
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin!.write('stop\n');
    await exited;
  }

  /** The next line that starts with `word` (other lines are the gateway's own output), without the word. */
  private async answer(word: string): Promise<string> {
    for (;;) {
      const { value, done } = await this.lines.next();
      if (done) throw new Error(`the traced gateway exited before answering ${word}: ${this.stderr.join('')}`);
      if (value.startsWith(`${word} `)) return value.slice(word.length + 1);
    }
  }
}

describe('tracing an embedded gateway into an in-memory exporter', function () {
  this.timeout(90_000);
  let vendor: LoopbackVendor;
  let dataDir: string;
  let gateway: TracedGateway;
  let url: string;
  let key: string;

  before(async () => {
    vendor = await startLoopbackVendor();
    vendor.answer((request) => {
      if (request.method === 'POST' && request.path === '/v1/jobs') return { status: 200, json: { id: 'job-7' } };
      if (request.method === 'GET' && request.path === '/v1/jobs/job-7') return { status: 200, json: { echo: 'traced back' } };
      return { status: 200, json: {} };
    });
    dataDir = await mkdtemp(join(tmpdir(), 'mediagate-traced-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_') && !name.startsWith('MEDIAGATE_')));
    ({ gateway, url, key } = await TracedGateway.start({
      ...env,
      PORT: '0',
      MEDIAGATE_HOST: '127.0.0.1',
      MEDIAGATE_DATA_DIR: dataDir,
      MEDIAGATE_MANIFEST_DIRS: join(fixtures, 'manifests'),
      MEDIAGATE_PLUGIN_DIRS: join(fixtures, 'plugins'),
      MEDIAGATE_PROVIDER_LOOPBACK_BASE_URL: `${vendor.url}/v1/`,
      MEDIAGATE_OUTBOUND_ALLOW_HOSTS: '127.0.0.1',
      MEDIAGATE_LOG_LEVEL: 'warn',
    }));
  });
  after(async () => {
    await gateway?.stop();
    await vendor?.close();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(url + path, { method, headers: { 'x-api-key': key, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any };
  };
  const finished = (id: string) => eventually(`request ${id} to finish`, async () => {
    const { body } = await call('GET', `/api/v1/requests/${id}`);
    return body.status === 'succeeded' || body.status === 'failed' ? body : undefined;
  });

  it('follows one create from the HTTP request through the queue to both job runs, the provider calls and the vendor', async () => {
    const created = await call('POST', '/api/v1/requests', { operation: 'test.submit', input: { message: 'hello traced' } });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    expect((await finished(id)).status).to.equal('succeeded');
    // The run span ends after the finish is committed, which a poll can see first.
    const tree = await eventually('both job runs to end', async () => {
      const spans = new SpanTree(await gateway.spans());
      return spans.all((span) => span.name === 'mediagate.job.run' && span.attributes['mediagate.request.id'] === id).length === 2 ? spans : undefined;
    });

    const server = tree.one('create server span', (span) => span.kind === 'SERVER' && span.name === 'POST /api/v1/requests');
    const ours = tree.all((span) => span.attributes['mediagate.request.id'] === id);
    expect(ours.map((span) => span.name).sort()).to.deep.equal([
      'mediagate.job.publish',
      'mediagate.job.publish',
      'mediagate.job.run',
      'mediagate.job.run',
      'mediagate.provider.call',
      'mediagate.provider.call',
    ]);
    expect(ours.filter((span) => span.traceId !== server.traceId)).to.deep.equal([]);

    const [start, poll] = tree.all((span) => span.name === 'mediagate.job.run');
    expect(start.attributes).to.deep.equal({ 'mediagate.request.id': id, 'mediagate.job.phase': 'start', 'mediagate.operation': 'test.submit', 'mediagate.model': 'loop-1' });
    expect(tree.ancestry(start)).to.deep.equal(['CONSUMER mediagate.job.run', 'PRODUCER mediagate.job.publish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    const firstPublish = tree.parentOf(start)!;
    expect(firstPublish.attributes).to.deep.equal({ 'mediagate.request.id': id, 'mediagate.job.delay_ms': 0, 'messaging.system': 'mediagate-memory' });
    expect(firstPublish.links).to.deep.equal([]);
    const createContext = tree.parentOf(firstPublish)!;

    // The poll is scheduled by the start's run, and continues the create's stored context, linking the run.
    expect(poll.attributes).to.include({ 'mediagate.job.phase': 'poll' });
    expect(tree.ancestry(poll)).to.deep.equal(['CONSUMER mediagate.job.run', 'PRODUCER mediagate.job.publish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    const pollPublish = tree.parentOf(poll)!;
    expect(pollPublish.parentSpanId).to.equal(createContext.spanId);
    expect(pollPublish.attributes).to.deep.equal({ 'mediagate.request.id': id, 'mediagate.job.delay_ms': 20, 'messaging.system': 'mediagate-memory' });
    expect(pollPublish.links).to.deep.equal([{ traceId: server.traceId, spanId: start.spanId }]);

    // Each run calls the provider, whose vendor request carries the trace to the vendor.
    for (const [run, phase, method, path] of [[start, 'start', 'POST', '/v1/jobs'], [poll, 'status', 'GET', '/v1/jobs/job-7']] as const) {
      const providerCall = tree.one(`${phase} provider call`, (span) => span.name === 'mediagate.provider.call' && span.parentSpanId === run.spanId);
      expect(providerCall.attributes).to.deep.equal({ 'mediagate.provider': 'loopback', 'mediagate.provider.call': phase, 'mediagate.request.id': id });
      const vendorCall = tree.one(`${method} to the vendor`, (span) => span.parentSpanId === providerCall.spanId);
      expect(vendorCall).to.include({ kind: 'CLIENT', scope: '@opentelemetry/instrumentation-undici', error: false });
      expect(vendorCall.attributes).to.include({ 'url.full': `${vendor.url}${path}`, 'http.response.status_code': 200 });
      expect(vendor.calls(method, path).map((request) => request.headers.traceparent)).to.deep.equal([traceparentOf(vendorCall)]);
    }

    // The row keeps the create's context, written by the admission insert itself.
    const database = new Database(join(dataDir, 'mediagate.sqlite'), { readonly: true });
    try {
      expect(database.prepare('SELECT trace_context FROM requests WHERE id = ?').get(id)).to.deep.equal({ trace_context: traceparentOf(createContext) });
    } finally {
      database.close();
    }
    // Reading the request is not part of its trace: each GET is a trace of its own.
    expect(tree.all((span) => span.traceId === server.traceId && span.name.startsWith('GET '))).to.deep.equal([]);
    expect(server.resource).to.include({ 'service.name': 'mediagate', 'service.version': 'test', 'mediagate.role': 'all' });
  });

  it('follows a request that the offline local plugin makes in-process: HTTP, publish, run, provider call', async () => {
    const created = await call('POST', '/api/v1/requests', { operation: 'image.generate', input: { prompt: 'a lighthouse at dawn', aspect_ratio: '16:9' } });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    const done = await finished(id);
    expect([done.status, done.output.provider]).to.deep.equal(['succeeded', 'local']);
    const tree = await eventually('the run to end', async () => {
      const spans = new SpanTree(await gateway.spans());
      return spans.all((span) => span.name === 'mediagate.job.run' && span.attributes['mediagate.request.id'] === id).length === 1 ? spans : undefined;
    });
    const run = tree.one('run', (span) => span.name === 'mediagate.job.run' && span.attributes['mediagate.request.id'] === id);
    expect(tree.ancestry(run)).to.deep.equal(['CONSUMER mediagate.job.run', 'PRODUCER mediagate.job.publish', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    const providerCall = tree.one('provider call', (span) => span.parentSpanId === run.spanId && span.name === 'mediagate.provider.call');
    expect(providerCall.attributes).to.deep.equal({ 'mediagate.provider': 'local', 'mediagate.provider.call': 'start', 'mediagate.request.id': id });
    expect(tree.childrenOf(providerCall).filter((span) => span.kind === 'CLIENT')).to.deep.equal([]);
  });

  it('continues the create\'s trace in its webhook delivery, and keeps query strings out of spans: the API\'s own, and a webhook URL\'s', async () => {
    const created = await call('POST', '/api/v1/requests', { operation: 'test.submit', input: { message: 'hook me' }, webhook_url: `${vendor.url}/hook?token=hook-secret-1` });
    expect(created.status).to.equal(202);
    const id = created.body.id as string;
    await finished(id);
    expect((await call('GET', '/api/v1/requests?limit=1&status=succeeded')).status).to.equal(200);
    // The attempt's span ends after its POST's (once the attempt is recorded): wait for both.
    const tree = await eventually('the webhook delivery spans', async () => {
      const spans = new SpanTree(await gateway.spans());
      const posted = spans.all((span) => span.kind === 'CLIENT' && span.scope === '@opentelemetry/instrumentation-http').length > 0;
      return posted && spans.all((span) => span.name === 'mediagate.webhook.delivery').length > 0 ? spans : undefined;
    });
    expect(vendor.calls('POST', '/hook?token=hook-secret-1')).to.have.length(1);
    const delivery = tree.one('webhook delivery', (span) => span.kind === 'CLIENT' && span.scope === '@opentelemetry/instrumentation-http');
    expect(delivery.attributes).to.include({ 'http.request.method': 'POST', 'url.full': `${vendor.url}/hook?REDACTED`, 'http.response.status_code': 200 });
    // The attempt runs under a span of its own in the create's trace (the outbox keeps no context: the request row does).
    const attempt = tree.parentOf(delivery)!;
    expect([attempt.kind, attempt.name]).to.deep.equal(['PRODUCER', 'mediagate.webhook.delivery']);
    expect(attempt.attributes).to.deep.include({ 'mediagate.request.id': id, 'mediagate.webhook.attempt': 1, 'mediagate.webhook.state': 'delivered' });
    expect(attempt.attributes['mediagate.webhook.delivery_id']).to.match(/^msg_/);
    expect(tree.ancestry(attempt)).to.deep.equal(['PRODUCER mediagate.webhook.delivery', 'INTERNAL router - /api/v1/requests', 'SERVER POST /api/v1/requests']);
    expect(vendor.calls('POST', '/hook?token=hook-secret-1')[0].headers.traceparent).to.equal(traceparentOf(delivery));
    const list = tree.one('list server span', (span) => span.kind === 'SERVER' && span.name === 'GET /api/v1/requests');
    const everything = JSON.stringify(tree.spans.map((span) => span.attributes));
    expect(everything).to.not.include('hook-secret-1');
    expect(everything).to.not.include('status=succeeded');
    expect(list.attributes['url.query']).to.equal('REDACTED');
  });
});
