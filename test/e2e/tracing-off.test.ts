/**
 * Tracing off costs nothing: `mediagate start` without trace settings (or with them switched off) serves a request
 * without loading OpenTelemetry's SDK, instrumentations or module hooks and without registering anything with its
 * API, and what the gateway writes and sends keeps its shape from before tracing existed: the admission's INSERT
 * (no trace column), the in-process queue's job (the very object published), RabbitMQ's message (the request id in
 * the body, no header of ours).
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { MemoryQueue, RabbitMqQueue, type Job } from '../../src/kernel/queue/index.js';
import { AccountStore, IdempotencyStore, RequestAdmissions, RequestStore } from '../../src/kernel/store/index.js';
import type { SqlDatabase, SqlExecutor } from '../../src/kernel/store/sql-executor.js';
import { useMigratedDatabase } from '../support/contract-database.js';
import { eventually } from '../support/eventually.js';
import { fixtureManifestDir, fixturePluginDir } from '../support/fixtures.js';
import { freePort } from '../support/free-port.js';
import { rabbitMqUrl, requireRabbitMq, uniquePrefix, withBrokerChannel } from '../support/rabbitmq.js';
import { startTestService } from '../support/test-service.js';

const cli = fileURLToPath(new URL('../../bin/mediagate.js', import.meta.url));
const recorder = fileURLToPath(new URL('../support/loaded-modules.mjs', import.meta.url));
/**
 * OpenTelemetry's SDK, instrumentations, exporters and module hooks. Not its API package: prom-client loads that for
 * exemplars whatever the gateway does, and alone it does nothing (no global is registered, see below).
 */
const openTelemetrySdkModule = /@opentelemetry\/(?!api\/)|import-in-the-middle|require-in-the-middle/;

/** The statement of the admission insert for one request, exactly as it was before the trace column. */
const untracedInsert = `INSERT INTO requests (id, account_id, api_key_id, operation, model, status, billable_credits, input, output, webhook_url, created_at_ms, next_check_at_ms, attempts, poll_count)
       VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, NULL, ?, ?, ?, 0, 0)`;

/**
 * Runs `mediagate start all` with `env` until it has served one request to its end, stops it with SIGTERM, and
 * returns every module it loaded and the OpenTelemetry globals it registered.
 */
async function servingOneRequest(env: Record<string, string>): Promise<{ modules: string[]; globals: string[] }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-untraced-'));
  const port = await freePort();
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_') && !name.startsWith('MEDIAGATE_') && name !== 'NODE_OPTIONS'));
  const child = spawn(process.execPath, [cli, 'start', 'all'], {
    env: {
      ...inherited,
      NODE_OPTIONS: `--import=${recorder}`,
      LOADED_MODULES_FILE: join(dataDir, 'modules.json'),
      PORT: String(port),
      MEDIAGATE_HOST: '127.0.0.1',
      MEDIAGATE_DATA_DIR: dataDir,
      MEDIAGATE_MANIFEST_DIRS: fixtureManifestDir,
      MEDIAGATE_PLUGIN_DIRS: fixturePluginDir,
      MEDIAGATE_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += String(chunk)));
  child.stderr!.on('data', (chunk) => (output += String(chunk)));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    // The first embedded start prints its development key; a cold start (tsx compiling) on a busy machine is slow.
    const key = await eventually('the development key', async () => {
      if (child.exitCode !== null) throw new Error(`mediagate exited with ${child.exitCode}: ${output}`);
      return /^\s+(mg_\S+)$/m.exec(output)?.[1];
    }, 60_000);
    const base = `http://127.0.0.1:${port}/api/v1/requests`;
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    await eventually('the API to answer', () => fetch(`http://127.0.0.1:${port}/healthz`).then((response) => (response.ok ? true : undefined), () => undefined));
    const created = (await (await fetch(base, { method: 'POST', headers, body: JSON.stringify({ operation: 'test.echo', input: { message: 'untraced' } }) })).json()) as { id: string };
    const done = await eventually('the request to finish', async () => {
      const body = (await (await fetch(`${base}/${created.id}`, { headers })).json()) as { status: string };
      return body.status === 'succeeded' || body.status === 'failed' ? body : undefined;
    });
    expect(done.status, output).to.equal('succeeded');
    child.kill('SIGTERM');
    await exited;
    return JSON.parse(await readFile(join(dataDir, 'modules.json'), 'utf8')) as { modules: string[]; globals: string[] };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `db` recording the text of every statement it (or a transaction of it) runs. */
function recording(db: SqlDatabase, statements: string[]): SqlDatabase {
  const record = (executor: SqlExecutor): SqlExecutor => ({
    all: (sql, params) => (statements.push(sql), executor.all(sql, params)),
    first: (sql, params) => (statements.push(sql), executor.first(sql, params)),
    run: (sql, params) => (statements.push(sql), executor.run(sql, params)),
  });
  return { ...record(db), transaction: (work) => db.transaction((tx) => work(record(tx))), close: () => db.close() };
}

describe('tracing off', function () {
  this.timeout(120_000);
  // Port 9 (discard) has no collector: a gateway that traced anyway would only fail to export.
  const deadCollector = 'http://127.0.0.1:9';

  for (const [setting, env] of [
    ['without any OTEL variable', {}],
    ['with OTEL_SDK_DISABLED=true beside an OTLP endpoint', { OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: deadCollector }],
    ['with OTEL_TRACES_EXPORTER=none beside an OTLP endpoint', { OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: deadCollector }],
  ] as const) {
    it(`serves a request without loading OpenTelemetry's SDK or hooks ${setting}`, async () => {
      const { modules, globals } = await servingOneRequest(env);
      // The list is complete enough to see the modules that served the request.
      expect(modules.filter((module) => module.includes('/node_modules/koa/'))).to.not.deep.equal([]);
      expect(modules.filter((module) => openTelemetrySdkModule.test(module))).to.deep.equal([]);
      expect(globals).to.deep.equal([]);
    });
  }

  it('loads OpenTelemetry and registers it, by the same account, once an OTLP endpoint is set', async () => {
    const { modules, globals } = await servingOneRequest({ OTEL_EXPORTER_OTLP_ENDPOINT: deadCollector });
    const loaded = modules.filter((module) => openTelemetrySdkModule.test(module));
    expect(loaded.some((module) => module.includes('/@opentelemetry/sdk-node/'))).to.equal(true);
    expect(loaded.some((module) => module.includes('/@opentelemetry/instrumentation-koa/'))).to.equal(true);
    expect(globals).to.include('Symbol(opentelemetry.js.api.1)');
  });

  it('refuses to start, naming the variable, with a trace setting the SDK would only warn about', async () => {
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
    const failed = await promisify(execFile)(process.execPath, [cli, 'start', 'all'], { env: { ...inherited, OTEL_TRACES_EXPORTER: 'jaeger' } }).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect({ code: failed.code, stderr: failed.stderr }).to.deep.equal({
      code: 78,
      stderr: 'mediagate: tracing settings are invalid: OTEL_TRACES_EXPORTER: unknown exporter jaeger (otlp, console, zipkin, none)\n',
    });
  });

  describe('the admission insert', () => {
    const migrated = useMigratedDatabase(async () => {
      const dir = await mkdtemp(join(tmpdir(), 'mediagate-untraced-sql-'));
      return { url: `sqlite:${join(dir, 'store.sqlite')}`, cleanup: () => rm(dir, { recursive: true, force: true }) };
    });

    it('is the statement from before the trace column, and leaves the column NULL', async () => {
      const database = migrated();
      const statements: string[] = [];
      const db = recording(database.sql, statements);
      const accounts = new AccountStore(db);
      await accounts.createAccount({ id: 'acct_untraced', email: 'untraced@example.com', plan: 'test', creditsBalance: 10, createdAtMs: 1 });
      const admissions = new RequestAdmissions({ db, requests: new RequestStore(db), accounts, idempotency: new IdempotencyStore(db) });
      const admitted = await admissions.admit({
        request: { id: 'req_untraced', accountId: 'acct_untraced', apiKeyId: 'key_untraced', operation: 'test.echo', model: 'echo-1', billableCredits: 2, input: { message: 'x' }, webhookUrl: null, createdAtMs: 2 },
      });
      expect(admitted).to.include({ admitted: true });
      // The row the start job carries has no trace context either.
      expect(JSON.parse((admitted as { known: string }).known)).to.include({ id: 'req_untraced', traceContext: null });
      expect(statements.filter((sql) => sql.startsWith('INSERT INTO requests'))).to.deep.equal([untracedInsert]);
      expect(await database.sql.first('SELECT status, trace_context FROM requests WHERE id = ?', ['req_untraced'])).to.deep.equal({ status: 'queued', trace_context: null });
    });
  });

  describe('jobs', () => {
    it('the in-process queue hands over the very object published, for a create and every later job of the request', async () => {
      const service = await startTestService({ manifest_dirs: [fixtureManifestDir], plugin_dirs: [fixturePluginDir] });
      try {
        const { key } = await service.createKey();
        const queue = service.service.gateway.queue;
        const published: Job[] = [];
        const publish = queue.publish.bind(queue);
        queue.publish = (job, options) => (published.push(job), publish(job, options));
        // A deferred start and two pending polls: the create's job, the deferral's and three polls'.
        const created = await service.api('POST', '/api/v1/requests', { key, body: { operation: 'test.echo', input: { message: 'shape', script: { transient_starts: 1, pending: 2 } } } });
        await eventually('the request to finish', async () => ((await service.api('GET', `/api/v1/requests/${created.body.id}`, { key })).body.status === 'succeeded' ? true : undefined));
        expect(published).to.have.length(5);
        expect(published.filter((job) => 'traceparent' in job)).to.deep.equal([]);
      } finally {
        await service.stop();
      }
      const queue = new MemoryQueue();
      const received: Job[] = [];
      await queue.consume(async (job) => void received.push(job), { concurrency: 1 });
      const job = { requestId: 'req_shape' };
      await queue.publish(job);
      await eventually('the delivery', async () => (received.length === 1 ? true : undefined));
      expect(received[0]).to.equal(job);
      await queue.close();
    });

    it('RabbitMQ messages carry the request id in the body and no header but the broker\'s own', async function () {
      await requireRabbitMq(this);
      const queue = new RabbitMqQueue({ url: rabbitMqUrl, prefix: uniquePrefix() });
      try {
        await queue.connect();
        await queue.publish({ requestId: 'req_shape' });
        const message = await withBrokerChannel((channel) => channel.get(queue.topology.workQueue, { noAck: true }));
        if (!message) throw new Error('the job did not reach the work queue');
        expect(message.content.toString('utf8')).to.equal('{"requestId":"req_shape"}');
        expect(Object.keys(message.properties.headers ?? {}).filter((name) => !name.startsWith('x-'))).to.deep.equal([]);
      } finally {
        await queue.destroyTopology();
      }
    });
  });
});
