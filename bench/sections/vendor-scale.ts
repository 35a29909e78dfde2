/**
 * Target 4 of issue 18: one worker process holding 10,000 vendor tasks in flight, each polled at its manifest's
 * cadence, on the production topology (MariaDB + RabbitMQ, `mediagate start api` + `mediagate start worker`, the
 * production settings profile).
 *
 * The vendor is bench/vendor-scale/mock-vendor.ts in a child process (1% of its answers are 500s, 1% hang past the
 * plugin's 2 s timeout), reached through the fixture plugin bench/vendor-scale/plugins/benchvendor and the manifest
 * bench/vendor-scale/manifests/bench.vendor_task.yaml (the video manifests' cadence: 10 s, then 5 s growing 1.5x to 30 s).
 * The run: create the tasks through the API, wait until the vendor holds all of them, measure a steady window (CPU
 * per vendor poll, RSS), SIGKILL the worker at that peak and start a new one, then wait until every request is
 * terminal. Checked: worker RSS, poll lateness against the due time the gateway stored (poll-schedule.ts), every
 * request terminal once in the database and each task created once and finished once at the vendor.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import amqp from 'amqplib';
import knexFactory from 'knex';
import { describeTopology } from '../../src/kernel/queue/index.js';
import { rabbitMqUrl } from '../../test/support/rabbitmq.js';
import { cpuSeconds, median, percentile, pidsOf, root } from '../bench-kit.js';
import type { MockVendorStats } from '../vendor-scale/mock-vendor.js';
import type { ScheduleRecord } from '../vendor-scale/poll-schedule.js';
import type { BenchSection } from './index.js';

const taskCount = Number(process.env.BENCH_VENDOR_TASKS ?? 10_000);
const pendingMs = Number(process.env.BENCH_VENDOR_PENDING_MS ?? 300_000);
const steadySeconds = Number(process.env.BENCH_VENDOR_STEADY_SECONDS ?? 60);
/** How long each of the mock vendor's answers takes: a real vendor's status call takes about this long. */
const vendorLatencyMs = Number(process.env.BENCH_VENDOR_LATENCY_MS ?? 100);
/**
 * Node's default heap limit on this machine is 4 GB, and V8 grows the heap lazily towards it: a worker whose live heap
 * is under 100 MB held 300-330 MB of heap (430 MB RSS) between major collections. With a limit V8 collects sooner at
 * the same CPU (measured on 3,000 tasks: 2.30 vs 2.24-2.30 ms of worker CPU per poll), so workers run with one, as
 * README's production section says.
 */
const workerNodeOptions = process.env.BENCH_VENDOR_WORKER_NODE_OPTIONS ?? '--max-old-space-size=256';
/**
 * Starts at once. Here every start is a vendor submission (a wait, not work), and at production's 8 a worker submits
 * about 8 / (100 ms + the gateway's own round trips) tasks a second: the first run at 8 had not started 10,000 tasks
 * after 300 s, while the first of them were already finishing. 32 starts them in about a minute and a half.
 */
const startConcurrency = process.env.BENCH_VENDOR_START_CONCURRENCY ?? '32';
/**
 * Polls at once: config/default.yaml's `worker.poll_concurrency`. 64 kept 289 polls a second and fell behind; 128 kept
 * the average (about 450 a second) but not the waves (tasks created together keep their cadence): their polls waited
 * for a slot, p99 1.6-3.9 s in the ramp; 256 kept schedule (docs/performance-notes.md, section 4).
 */
const pollConcurrency = process.env.BENCH_VENDOR_POLL_CONCURRENCY ?? '256';
const restartAfterMs = Number(process.env.BENCH_VENDOR_RESTART_AFTER_MS ?? 3_000);
const createConcurrency = 32;
/** The plugin's per-call timeout; an injected hang is held past it. */
const vendorTimeoutMs = 2_000;

interface MockVendorProcess {
  child: ChildProcess;
  url: string;
  stats(): Promise<MockVendorStats>;
  schedule(): Promise<ScheduleRecord>;
  stop(): Promise<void>;
}

async function startMockVendor(databaseUrl: string): Promise<MockVendorProcess> {
  const options = { pendingMs, pendingSpread: 0.2, errorRate: 0.01, hangRate: 0.01, hangMs: 3 * vendorTimeoutMs, latencyMs: vendorLatencyMs, seed: 18, databaseUrl, sampleEveryMs: 2_000 };
  const child = fork(join(root, 'bench/vendor-scale/mock-vendor-process.ts'), {
    env: { ...process.env, MOCK_VENDOR_OPTIONS: JSON.stringify(options) },
    execArgv: ['--import', 'tsx'],
  });
  const ask = <T>(type: 'stats' | 'schedule'): Promise<T> =>
    new Promise((resolve) => {
      const listen = (message: { type: string } & Record<string, unknown>): void => {
        if (message.type !== type) return;
        child.off('message', listen);
        resolve(message[type] as T);
      };
      child.on('message', listen);
      child.send({ type });
    });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message: { url: string }) => resolve(message.url));
    child.once('exit', (code) => reject(new Error(`the mock vendor exited with ${code} before it was ready`)));
  });
  return {
    child,
    url,
    stats: () => ask<MockVendorStats>('stats'),
    schedule: () => ask<ScheduleRecord>('schedule'),
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await exited;
    },
  };
}

interface QueueDepth {
  atMs: number;
  /** Jobs ready in the work queue (starts) and the poll queue, not yet taken by the worker. */
  work: number;
  poll: number;
}

/**
 * Samples how many messages wait for the worker in its two RabbitMQ queues (a start's message may carry the starts of
 * one turn, up to 16: queue/job-messages.ts). Not the polls the worker holds itself (most of them, held-polls.ts):
 * those wait for a poll slot inside the worker, which its own lateness measure shows instead.
 */
async function watchQueues(prefix: string, into: QueueDepth[]): Promise<() => Promise<void>> {
  const topology = describeTopology({ prefix, deliveryLimit: 5 });
  const connection = await amqp.connect(rabbitMqUrl, { clientProperties: { connection_name: 'vendor-scale bench queue watch' } });
  connection.on('error', () => {});
  const channel = await connection.createChannel();
  channel.on('error', () => {});
  const timer = setInterval(() => {
    void Promise.all([channel.checkQueue(topology.workQueue), channel.checkQueue(topology.pollQueue)])
      .then(([work, poll]) => into.push({ atMs: Date.now(), work: work.messageCount, poll: poll.messageCount }))
      .catch(() => {});
  }, 2_000);
  return async () => {
    clearInterval(timer);
    await connection.close().catch(() => {});
  };
}

/** Resident set size of a process in MB, from /proc; undefined once it is gone. */
async function rssMb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) / 1024;
}

async function createAll(base: string, key: string): Promise<{ ids: string[]; refused: number; seconds: number }> {
  const began = Date.now();
  const ids: string[] = [];
  let refused = 0;
  let next = 0;
  const body = JSON.stringify({ operation: 'bench.vendor_task', input: { prompt: 'a task for the vendor-scale bench' } });
  await Promise.all(
    Array.from({ length: createConcurrency }, async () => {
      while (next < taskCount) {
        next += 1;
        const response = await fetch(`${base}/api/v1/requests`, { method: 'POST', headers: { 'x-api-key': key, 'content-type': 'application/json' }, body });
        const answer = (await response.json()) as { id?: string };
        if (response.status === 202 && answer.id) ids.push(answer.id);
        else refused += 1;
      }
    }),
  );
  return { ids, refused, seconds: (Date.now() - began) / 1000 };
}

async function until(what: string, deadlineMs: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`vendor-scale: ${what} did not happen within ${Math.round(deadlineMs / 1000)} s`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}


function latenessRow(name: string, record: ScheduleRecord, depths: QueueDepth[], from: number, to: number): string {
  const values = record.arrivals.latenessMs.filter((_, index) => record.arrivals.atMs[index] >= from && record.arrivals.atMs[index] < to).sort((a, b) => a - b);
  const late = values.filter((value) => value > 1_000).length;
  const s = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
  const waiting = depths.filter((depth) => depth.atMs >= from && depth.atMs < to);
  const most = (lane: 'work' | 'poll') => (waiting.length === 0 ? 'n/a' : String(Math.max(...waiting.map((depth) => depth[lane]))));
  return `| ${name} | ${values.length} | ${s(percentile(values, 0.5))} | ${s(percentile(values, 0.99))} | ${s(values.at(-1) ?? Number.NaN)} | ${s(values[0] ?? Number.NaN)} | ${late} | ${most('poll')} | ${most('work')} |`;
}

/**
 * Lateness against the load of the moment: each second within `ranges` is put in a band by how many scheduled
 * polls reached the vendor in it, and each band shows the lateness of its polls. Polls come in waves (10,000 tasks
 * created within seconds keep their cadence), so a window's p99 depends on the rates it happens to meet; this shows
 * whether the worker is late at a given rate, whatever window it falls in.
 */
function latenessByRateRows(record: ScheduleRecord, ranges: readonly (readonly [from: number, to: number])[]): string {
  const perSecond = new Map<number, number[]>();
  record.arrivals.atMs.forEach((atMs, index) => {
    if (!ranges.some(([from, to]) => atMs >= from && atMs < to)) return;
    const second = Math.floor(atMs / 1000);
    const polls = perSecond.get(second) ?? [];
    polls.push(record.arrivals.latenessMs[index]);
    perSecond.set(second, polls);
  });
  const bands = [0, 300, 400, 500, 600, 800, Number.POSITIVE_INFINITY];
  const s = (ms: number) => (Number.isNaN(ms) ? 'n/a' : `${(ms / 1000).toFixed(2)} s`);
  return bands
    .slice(0, -1)
    .map((low, index) => {
      const high = bands[index + 1];
      const seconds = [...perSecond.values()].filter((polls) => polls.length >= low && polls.length < high);
      if (seconds.length === 0) return '';
      const values = seconds.flat().sort((a, b) => a - b);
      const name = high === Number.POSITIVE_INFINITY ? `${low} or more` : `${low}-${high - 1}`;
      return `| ${name} | ${seconds.length} | ${values.length} | ${s(percentile(values, 0.5))} | ${s(percentile(values, 0.99))} | ${s(values.at(-1) ?? Number.NaN)} |\n`;
    })
    .join('');
}

/** What the worker's /metrics says about its schedule and its thread; the scrape also restarts the event-loop lag's max. */
interface WorkerView {
  /** Its poll-lateness histogram (due time to claim), cumulative counts by bucket bound. */
  lateness: Map<string, number>;
  /** Garbage-collection pauses by kind (major, minor, incremental, weakcb): count and seconds, cumulative. */
  gc: Map<string, { count: number; seconds: number }>;
  /** The longest event-loop delay since the previous scrape. */
  lagMaxSeconds: number;
}

async function workerView(metricsUrl: string): Promise<WorkerView> {
  const { scrape } = await import('../../test/support/metrics-scrape.js');
  const scraped = await scrape(metricsUrl);
  const gc = new Map<string, { count: number; seconds: number }>();
  for (const sample of scraped.of('nodejs_gc_duration_seconds_count')) gc.set(sample.labels.kind, { count: sample.value, seconds: scraped.value('nodejs_gc_duration_seconds_sum', { kind: sample.labels.kind }) });
  return {
    lateness: new Map(scraped.of('mediagate_vendor_poll_lateness_seconds_bucket').filter((sample) => sample.labels.provider === 'benchvendor').map((sample) => [sample.labels.le, sample.value])),
    gc,
    lagMaxSeconds: scraped.value('nodejs_eventloop_lag_max_seconds'),
  };
}

/** The collector's pauses in the window and the longest event-loop delay: what can hold every timer back at once. */
function workerThreadLine(before: WorkerView, after: WorkerView): string {
  const pauses = [...after.gc]
    .map(([kind, now]) => ({ kind, count: now.count - (before.gc.get(kind)?.count ?? 0), seconds: now.seconds - (before.gc.get(kind)?.seconds ?? 0) }))
    .filter((pause) => pause.count > 0)
    .map((pause) => `${pause.kind} ${pause.count} (${(pause.seconds * 1000).toFixed(0)} ms in all, ${((pause.seconds * 1000) / pause.count).toFixed(1)} ms each)`);
  return `garbage collection in the window: ${pauses.join(', ') || 'none'}; the longest event-loop delay ${(after.lagMaxSeconds * 1000).toFixed(0)} ms`;
}

/**
 * What the worker measured of the window's lateness, up to its claim of each poll: the part of the vendor-side
 * lateness spent before the claim (timers, slots, the event loop), as shares within each bucket bound.
 */
function workerLatenessLine(before: Map<string, number>, after: Map<string, number>): string {
  const count = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0);
  if (count <= 0) return 'the worker measured no poll lateness in the window';
  const within = (le: string) => `${((100 * ((after.get(le) ?? 0) - (before.get(le) ?? 0))) / count).toFixed(2)}% within ${le} s`;
  return `the worker's own measure (\`mediagate_vendor_poll_lateness_seconds\`, due time to its claim) over the steady window: ${count} polls, ${['0.05', '0.1', '0.25', '0.5', '1'].map(within).join(', ')}`;
}

async function databaseOutcome(databaseUrl: string): Promise<{ byStatus: Record<string, number>; failures: { message: string; n: number }[] }> {
  const knex = knexFactory({ client: 'mysql2', connection: { uri: databaseUrl } as never, pool: { min: 0, max: 1 } });
  try {
    const statuses = (await knex('requests').select('status').count({ n: '*' }).groupBy('status')) as { status: string; n: number }[];
    const failures = (await knex('requests').where({ status: 'failed' }).select('error_message').count({ n: '*' }).groupBy('error_message')) as { error_message: string; n: number }[];
    return {
      byStatus: Object.fromEntries(statuses.map((row) => [String(row.status), Number(row.n)])),
      failures: failures.map((row) => ({ message: String(row.error_message), n: Number(row.n) })),
    };
  } finally {
    await knex.destroy();
  }
}

async function run(): Promise<string> {
  const { ProcessTopology } = await import('../../test/support/process-topology.js');
  const unavailable = { skip: () => { throw new Error('MariaDB and RabbitMQ are needed for the vendor-scale section'); } } as unknown as Mocha.Context;
  const topology = await ProcessTopology.create(unavailable, {
    // The production profile (worker concurrency, pool size, no synthetic fallback), listening on loopback.
    MEDIAGATE_ENV: 'production',
    MEDIAGATE_HOST: '127.0.0.1',
    // Creating the tasks is only the set-up here: the production rate limit (1,200 creates a minute per key) would
    // stretch it to 8 minutes without changing what is measured.
    MEDIAGATE_RATE_LIMIT_CREATES_PER_MINUTE: '0',
    MEDIAGATE_RATE_LIMIT_READS_PER_MINUTE: '0',
    // The production defaults, not the short ones the topology tests use.
    MEDIAGATE_WORKER_CONCURRENCY: startConcurrency,
    MEDIAGATE_WORKER_POLL_CONCURRENCY: pollConcurrency,
    MEDIAGATE_WORKER_LEASE_MS: '30000',
    MEDIAGATE_SWEEP_INTERVAL_MS: '5000',
    MEDIAGATE_MANIFEST_DIRS: join(root, 'bench/vendor-scale/manifests'),
    MEDIAGATE_PLUGIN_DIRS: join(root, 'bench/vendor-scale/plugins'),
    MEDIAGATE_PROVIDER_BENCHVENDOR_API_KEY: 'bench',
    MEDIAGATE_PROVIDER_BENCHVENDOR_TIMEOUT_MS: String(vendorTimeoutMs),
  });
  const vendor = await startMockVendor(topology.databaseUrl);
  topology.env.MEDIAGATE_PROVIDER_BENCHVENDOR_BASE_URL = vendor.url;
  const rss: { atMs: number; mb: number; inFlight: number }[] = [];
  const depths: QueueDepth[] = [];
  let workerPid = 0;
  let monitor: NodeJS.Timeout | undefined;
  let stopWatching: (() => Promise<void>) | undefined;
  try {
    const key = await topology.createKey(1_000_000_000);
    const api = await topology.start('api');
    topology.env.NODE_OPTIONS = [process.env.NODE_OPTIONS, workerNodeOptions].filter(Boolean).join(' ');
    let worker = await topology.start('worker');
    workerPid = worker.child.pid!;
    stopWatching = await watchQueues(String(topology.env.MEDIAGATE_AMQP_PREFIX), depths);
    monitor = setInterval(() => {
      void Promise.all([rssMb(workerPid), vendor.stats()]).then(([mb, stats]) => {
        if (mb !== undefined) rss.push({ atMs: Date.now(), mb, inFlight: stats.inFlight });
      });
    }, 1_000);

    const created = await createAll(api.url, key);
    const createdAtMs = Date.now();
    await until('the vendor holding every task', 600_000, async () => (await vendor.stats()).requestsWithTasks >= created.ids.length);
    const peakAtMs = Date.now();

    // Steady window at the peak: every task in flight, polled at its cadence.
    const components = [
      { name: 'worker', pids: [workerPid] },
      { name: 'MariaDB', pids: await pidsOf('mariadbd') },
      { name: 'RabbitMQ', pids: await pidsOf('beam.smp') },
      { name: 'mock vendor', pids: [vendor.child.pid!] },
      { name: 'API process (idle)', pids: [api.child.pid!] },
    ];
    const cpuNow = () => Promise.all(components.map(async (component) => (await Promise.all(component.pids.map(cpuSeconds))).reduce<number>((sum, value) => sum + (value ?? Number.NaN), 0)));
    const before = { cpu: await cpuNow(), reads: (await vendor.stats()).reads, atMs: Date.now(), view: await workerView(`${worker.url}/metrics`) };
    await new Promise((resolve) => setTimeout(resolve, steadySeconds * 1000));
    const after = { cpu: await cpuNow(), reads: (await vendor.stats()).reads, atMs: Date.now(), view: await workerView(`${worker.url}/metrics`) };
    const steadyReads = after.reads - before.reads;
    const steadyRssMb = Math.max(...rss.filter((sample) => sample.atMs >= before.atMs).map((sample) => sample.mb));

    // SIGKILL at the peak, then a new worker, as an orchestrator would restart it.
    const killedAtMs = Date.now();
    const inFlightAtKill = (await vendor.stats()).inFlight;
    await topology.kill(worker);
    await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
    worker = await topology.start('worker');
    workerPid = worker.child.pid!;
    const restartedAtMs = Date.now();

    await until('every request terminal', pendingMs * 1.5 + 600_000, async () => (await topology.ledger()).nonTerminal === 0);
    const doneAtMs = Date.now();
    clearInterval(monitor);
    monitor = undefined;

    const stats = await vendor.stats();
    const schedule = await vendor.schedule();
    const ledger = await topology.ledger();
    const outcome = await databaseOutcome(topology.databaseUrl);
    const peakRssMb = Math.max(...rss.map((sample) => sample.mb));
    const peakInFlight = Math.max(...rss.map((sample) => sample.inFlight));
    const cpuRows = components
      .map((component, index) => {
        const spent = after.cpu[index] - before.cpu[index];
        return Number.isFinite(spent) ? `| ${component.name} | ${((spent * 1e6) / steadyReads).toFixed(0)} µs | ${((100 * spent) / ((after.atMs - before.atMs) / 1000)).toFixed(0)}% |` : `| ${component.name} | n/a | n/a |`;
      })
      .join('\n');
    const lostAtKill = schedule.unscheduled.atMs
      .map((atMs, index) => ({ atMs, gap: schedule.unscheduled.sincePreviousReadMs[index] }))
      .filter((entry) => entry.atMs >= killedAtMs && entry.gap > 5_000);
    const succeeded = outcome.byStatus.succeeded ?? 0;
    const failed = outcome.byStatus.failed ?? 0;
    const failureLines = outcome.failures.map((failure) => `${failure.n} × "${failure.message}"`).join('; ') || 'none';
    const s = (ms: number) => `${(ms / 1000).toFixed(0)} s`;
    const wholeRunP99 = `${(percentile([...schedule.arrivals.latenessMs].sort((a, b) => a - b), 0.99) / 1000).toFixed(2)} s`;
    const rssSeries = rss.filter((_, index) => index % Math.max(1, Math.floor(rss.length / 12)) === 0).map((sample) => `${sample.mb.toFixed(0)}`).join(', ');

    return `## Vendor tasks in flight per worker

${taskCount} tasks of \`bench.vendor_task\` created through one API process and held by ONE worker process (\`mediagate start
worker\`, MEDIAGATE_ENV=production with ${startConcurrency} starts and ${pollConcurrency} polls at once, database pool 20, lease 30 s, sweep every 5 s; NODE_OPTIONS
\`${workerNodeOptions}\`) on MariaDB + RabbitMQ. The vendor is a loopback mock (bench/vendor-scale/mock-vendor.ts, its own
process) answering every call after ${vendorLatencyMs} ms: each task answers \`pending\` for ${s(pendingMs)} ±20%, then \`done\` with a
small result; 1% of all its answers are 500s and 1% hang past the plugin's ${vendorTimeoutMs / 1000} s timeout (a hung submission has
created its task, so the gateway must find it by our request id instead of submitting again). Polling follows the manifest (first check after 10 s, then 5 s growing 1.5x to
30 s, ±10% jitter). Lateness = when a poll reached the vendor minus the due time the worker stored for it
(\`next_check_at_ms\`, read from the database every 2 s, bench/vendor-scale/poll-schedule.ts); retries of a faulted call
inside one plugin call are not polls of their own and are not counted. This machine was shared with other work while this
ran: read the ratios and ranges, not the absolute figures.

Timeline: creates took ${created.seconds.toFixed(0)} s (${created.refused} refused); the vendor held every task ${s(peakAtMs - createdAtMs)} after the
last create was answered; a ${steadySeconds} s steady window at the peak; SIGKILL of the worker with ${inFlightAtKill}
tasks in flight; a new worker ${(restartAfterMs / 1000).toFixed(0)} s later; every request terminal ${s(doneAtMs - restartedAtMs)} after the restart.

| measure | target | result |
|---|---|---|
| tasks in flight at the peak (at the vendor) | 10,000 | ${peakInFlight} |
| worker RSS, highest (both worker processes) | <= 300 MB | ${peakRssMb.toFixed(0)} MB (steady window: ${steadyRssMb.toFixed(0)} MB; samples over the run: ${rssSeries}) |
| polls on schedule, p99 lateness (whole run) | <= 1 s | ${wholeRunP99} (windows below) |
| requests terminal in the database | all, once | ${succeeded} succeeded + ${failed} failed of ${created.ids.length} (failed: ${failureLines}); ledger: ${ledger.doubleEntries} double entries, charged ${ledger.charged} = billable ${ledger.billableOfNonFailed} |
| tasks at the vendor | one per request | ${stats.tasks} tasks for ${stats.requestsWithTasks} requests, ${stats.duplicateSubmissions} submitted twice |
| tasks finished at the vendor | each once | ${stats.doneServed} answered \`done\`; ${stats.readsAfterDone} reads after \`done\` |
| SIGKILL at the peak + restart | none lost, none submitted twice | ${ledger.nonTerminal} left non-terminal; ${stats.duplicateSubmissions} duplicate submissions; ${lostAtKill.length} requests held by the killed worker were polled again after their lease ran out (${lostAtKill.length > 0 ? `${s(Math.min(...lostAtKill.map((entry) => entry.gap)))}-${s(Math.max(...lostAtKill.map((entry) => entry.gap)))} after their previous poll` : 'none'}) |

**Poll lateness** (arrival at the vendor minus the stored due time):

| window | polls | p50 | p99 | max | min | later than 1 s | most poll messages queued in RabbitMQ | most start messages queued in RabbitMQ (up to 16 starts each) |
|---|---|---|---|---|---|---|---|---|
${latenessRow('ramp (creating and starting)', schedule, depths, 0, peakAtMs)}
${latenessRow(`steady window at the peak (${steadySeconds} s)`, schedule, depths, before.atMs, after.atMs)}
${latenessRow('from the peak to the SIGKILL', schedule, depths, peakAtMs, killedAtMs)}
${latenessRow('SIGKILL to 60 s after the restart', schedule, depths, killedAtMs, restartedAtMs + 60_000)}
${latenessRow('after that, to the end', schedule, depths, restartedAtMs + 60_000, Number.POSITIVE_INFINITY)}
${latenessRow('whole run', schedule, depths, 0, Number.POSITIVE_INFINITY)}

Of the steady window's polls, ${workerLatenessLine(before.view.lateness, after.view.lateness)}; the worker's ${workerThreadLine(before.view, after.view)}.

**Lateness by the poll rate of its second**, outside the ramp and the restart (from the peak to the SIGKILL, and from 60 s
after the restart to the end; seconds grouped by how many scheduled polls reached the vendor in them):

| polls in the second | seconds | polls | p50 | p99 | max |
|---|---|---|---|---|---|
${latenessByRateRows(schedule, [[peakAtMs, killedAtMs], [restartedAtMs + 60_000, Number.POSITIVE_INFINITY]])}
**CPU per vendor poll** in the steady window (${steadyReads} status reads at the vendor in ${((after.atMs - before.atMs) / 1000).toFixed(0)} s, ${(steadyReads / ((after.atMs - before.atMs) / 1000)).toFixed(0)} per second):

| component | CPU per vendor poll | share of one core |
|---|---|---|
${cpuRows}

Vendor calls over the run: ${stats.submissions} submissions (${stats.submissionErrors} answered 500, ${stats.submissionHangs} hung), lookups by request
id ${stats.lookups.found} found / ${stats.lookups.absent} absent, ${stats.reads} status reads (${stats.readErrors} answered 500, ${stats.readHangs} hung,
${stats.readRetries} retries of those), ${schedule.unscheduled.atMs.length} reads with no due time stored (lease takeovers, duplicate jobs).
The due-time reader ran ${schedule.samples} queries of ${schedule.sampleMeanMs.toFixed(0)} ms on average (median RSS sample ${median(rss.map((sample) => sample.mb)).toFixed(0)} MB).
`;
  } finally {
    if (monitor) clearInterval(monitor);
    await stopWatching?.();
    await vendor.stop().catch(() => undefined);
    await topology.stop();
  }
}

export const vendorScale: BenchSection = { name: 'vendor-scale', run };
