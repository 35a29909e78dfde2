/**
 * `npm run bench`: in one run, on this machine, measure
 *   1. a bare Koa hello-world (the baseline),
 *   2. POST /api/v1/requests and GET /api/v1/requests/{id} through the full embedded stack,
 *   3. the floors of bench/floor-server.ts (the least a poll or a create costs on this stack),
 *   4. gateway overhead from create to terminal state for a provider that completes instantly,
 *   5. the production topology (2 API + 2 workers on MariaDB + RabbitMQ),
 * and write the figures, as ratios to the baseline, to docs/BENCHMARKS.md. 1-3 repeat BENCH_ROUNDS times
 * (default 3), interleaved, and each ratio is taken within its round. Servers run as child
 * processes; the load generator (autocannon) runs here, so both sides share the same two cores in
 * every scenario and the ratio is fair.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, freemem, totalmem, tmpdir, release, platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../test/support/free-port.js';

const root = new URL('..', import.meta.url).pathname;
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Embedded scenarios repeat this many times, interleaved; the report gives medians. */
const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Load before each measured run, so every server is measured warm (JIT-compiled, pools and caches filled). */
const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

async function warm(options: autocannon.Options): Promise<void> {
  if (warmupSeconds > 0) await autocannon({ connections, duration: warmupSeconds, ...options });
}

async function load(name: string, options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ connections, duration: durationSeconds, ...options });
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is no /proc. */
async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The pids of local server processes by name (MariaDB, RabbitMQ), for CPU accounting. */
async function pidsOf(name: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)('pgrep', ['-x', name]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter(Boolean).map(Number);
}

type Measured = LoadResult & { cpu: CpuShare[] };

interface CpuShare {
  name: string;
  /** CPU milliseconds this component spent per accepted create. */
  msPerCreate: number;
}

/** Measures what each component spent during `run`, per create it accepted. */
async function cpuPerCreate(components: { name: string; pids: number[] }[], run: () => Promise<number>): Promise<{ creates: number; shares: CpuShare[] }> {
  const before = await Promise.all(components.map(async (component) => Promise.all(component.pids.map(cpuSeconds))));
  const creates = await run();
  const after = await Promise.all(components.map(async (component) => Promise.all(component.pids.map(cpuSeconds))));
  const shares = components.flatMap((component, index) => {
    const spent = component.pids.reduce((sum, _, pidIndex) => sum + ((after[index][pidIndex] ?? NaN) - (before[index][pidIndex] ?? NaN)), 0);
    return Number.isFinite(spent) && creates > 0 ? [{ name: component.name, msPerCreate: (spent * 1000) / creates }] : [];
  });
  return { creates, shares };
}

async function waitUntilTerminal(url: string, headers: Record<string, string>, id: string): Promise<void> {
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    const request = await (await fetch(`${url}/api/v1/requests/${id}`, { headers })).json();
    if (request.status === 'succeeded' || request.status === 'failed') return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`request ${id} did not finish`);
}

async function waitForHttp(url: string): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

/** Runs a bench server script as a child process and loads it; CPU is counted for the child and for autocannon. */
async function loadChild(script: string, env: Record<string, string>, name: string, options: (url: string, ready: string) => autocannon.Options): Promise<Measured> {
  const port = await freePort();
  const child = fork(join(root, script), { env: { ...process.env, ...env, PORT: String(port) }, execArgv: ['--import', 'tsx'] });
  const ready = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  try {
    let result!: LoadResult;
    const components = [
      { name: 'server process', pids: [child.pid!] },
      { name: 'autocannon (load generator)', pids: [process.pid] },
    ];
    const loadOptions = options(`http://127.0.0.1:${port}`, ready);
    await warm(loadOptions);
    const { shares } = await cpuPerCreate(components, async () => {
      result = await load(name, loadOptions);
      return result.requestsPerSecond * durationSeconds;
    });
    return { ...result, cpu: shares };
  } finally {
    await stop(child);
  }
}

async function baseline(): Promise<Measured> {
  return loadChild('bench/bare-koa.ts', {}, 'bare Koa hello-world (baseline)', (url) => ({ url: `${url}/` }));
}

type Floors = Record<'pollShape' | 'pollSqlite' | 'createSqlite', Measured>;

/** The floors of bench/floor-server.ts: the least a poll or a create can cost on this stack. */
async function floors(): Promise<Floors> {
  const body = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });
  const poll = (url: string, id: string) => ({ url: `${url}/api/v1/requests/${id}` });
  return {
    pollShape: await loadChild('bench/floor-server.ts', { FLOOR: 'poll-shape' }, 'floor: Koa + @koa/router, the poll response, no database', poll),
    pollSqlite: await loadChild('bench/floor-server.ts', { FLOOR: 'poll-sqlite' }, 'floor: the same + one SQLite point read', poll),
    createSqlite: await loadChild('bench/floor-server.ts', { FLOOR: 'create-sqlite' }, 'floor: Koa + @koa/router, JSON body, one SQLite insert, 202', (url) => ({
      url: `${url}/api/v1/requests`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })),
  };
}

interface Overhead {
  p50: number;
  p99: number;
  samples: number;
}

async function gateway(withOverhead: boolean): Promise<{ create: Measured; poll: Measured; overhead?: Overhead }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'mediagate-bench-'));
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    MEDIAGATE_DATA_DIR: dataDir,
    MEDIAGATE_LOG_LEVEL: 'warn',
    MEDIAGATE_MANIFEST_DIRS: join(root, 'test/fixtures/manifests'),
    MEDIAGATE_PLUGIN_DIRS: join(root, 'test/fixtures/plugins'),
  };
  const cli = join(root, 'bin/mediagate.js');
  const child = spawn(process.execPath, [cli, 'start', 'all'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${url}/healthz`);
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'keys', 'create', '--name', 'bench', '--credits', '1000000000', '--json'], { env });
    const key = JSON.parse(stdout).key as string;
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    // The instant provider isolates the gateway's own cost: validation, pricing, the durable write, the queue.
    const body = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });

    const measured = async (name: string, options: autocannon.Options): Promise<Measured> => {
      await warm(options);
      let result!: LoadResult;
      const { shares } = await cpuPerCreate([{ name: 'server process', pids: [child.pid!] }], async () => {
        result = await load(name, options);
        return result.requestsPerSecond * durationSeconds;
      });
      return { ...result, cpu: shares };
    };
    const create = await measured('POST /api/v1/requests (full stack)', { url: `${url}/api/v1/requests`, method: 'POST', headers, body });
    // The worker drains the backlog of the create run before the poll run starts, so each measures one thing.
    const first = await (await fetch(`${url}/api/v1/requests`, { method: 'POST', headers, body })).json();
    await waitUntilTerminal(url, headers, first.id);
    const poll = await measured('GET /api/v1/requests/{id} (full stack)', { url: `${url}/api/v1/requests/${first.id}`, headers: { 'x-api-key': key } });

    if (!withOverhead) return { create, poll };
    // Overhead: create -> terminal, one request at a time on an idle gateway, read from the request's own timestamps.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const samples: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const created = await (await fetch(`${url}/api/v1/requests`, { method: 'POST', headers, body })).json();
      for (;;) {
        const request = await (await fetch(`${url}/api/v1/requests/${created.id}`, { headers })).json();
        if (request.status === 'succeeded' || request.status === 'failed') {
          samples.push(request.completedAtMs - request.createdAtMs);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    samples.sort((a, b) => a - b);
    const at = (q: number) => samples[Math.min(samples.length - 1, Math.floor(q * samples.length))];
    return { create, poll, overhead: { p50: at(0.5), p99: at(0.99), samples: samples.length } };
  } finally {
    await stop(child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

/**
 * The production topology: 2 API + 2 worker processes on MariaDB + RabbitMQ (publisher confirms, durable
 * quorum queues). Load is split over both API processes (two autocannon instances at half the connections
 * each); then every created request must reach a terminal state (nothing lost).
 */
async function production(): Promise<{ create: LoadResult; poll: LoadResult; created: number; terminal: number; cpu: CpuShare[] }> {
  const { ProcessTopology } = await import('../test/support/process-topology.js');
  const unavailable = { skip: () => { throw new Error('MariaDB and RabbitMQ are needed for the production scenario'); } } as unknown as Mocha.Context;
  const topology = await ProcessTopology.create(unavailable, { MEDIAGATE_WORKER_CONCURRENCY: '16', MEDIAGATE_DATABASE_POOL_MAX: '20' });
  try {
    const key = await topology.createKey(1_000_000_000);
    const apis = [await topology.start('api'), await topology.start('api')];
    const workers = [await topology.start('worker'), await topology.start('worker')];
    const headers = { 'x-api-key': key, 'content-type': 'application/json' };
    const body = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });
    const ids: string[] = [];
    const split = async (name: string, options: (base: string) => autocannon.Options): Promise<LoadResult> => {
      const results = await Promise.all(
        apis.map((process) =>
          autocannon({
            connections: Math.max(1, Math.floor(connections / 2)),
            duration: durationSeconds,
            ...options(process.url),
            setupClient: (client) => client.on('body', (raw: Buffer) => {
              const text = raw.toString();
              if (text.startsWith('{"id":"req_')) ids.push(JSON.parse(text).id);
            }),
          }),
        ),
      );
      return {
        name,
        requestsPerSecond: Math.round(results.reduce((sum, result) => sum + result.requests.average, 0)),
        p50: Math.max(...results.map((result) => result.latency.p50)),
        p99: Math.max(...results.map((result) => result.latency.p99)),
        non2xx: results.reduce((sum, result) => sum + result.non2xx, 0),
        errors: results.reduce((sum, result) => sum + result.errors, 0),
      };
    };
    let create!: LoadResult;
    const components = [
      { name: 'API processes (2)', pids: apis.map((api) => api.child.pid!) },
      { name: 'worker processes (2)', pids: workers.map((worker) => worker.child.pid!) },
      { name: 'MariaDB', pids: await pidsOf('mariadbd') },
      { name: 'RabbitMQ', pids: await pidsOf('beam.smp') },
      { name: 'autocannon (load generator)', pids: [process.pid] },
    ];
    const { shares: cpu } = await cpuPerCreate(components, async () => {
      create = await split('POST /api/v1/requests (2 api + 2 workers, MariaDB + RabbitMQ)', (base) => ({ url: `${base}/api/v1/requests`, method: 'POST', headers, body }));
      return ids.length;
    });
    const createdIds = [...ids];
    // Let the workers drain the create run's backlog before measuring polls.
    let drained = await topology.ledger();
    while (drained.nonTerminal > 0) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      drained = await topology.ledger();
    }
    const poll = await split('GET /api/v1/requests/{id} (2 api + 2 workers, MariaDB + RabbitMQ)', (base) => ({ url: `${base}/api/v1/requests/${createdIds[0]}`, headers: { 'x-api-key': key } }));
    // Nothing lost: every accepted create reaches a terminal state.
    const until = Date.now() + 180_000;
    let ledger = await topology.ledger();
    while (ledger.nonTerminal > 0 && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      ledger = await topology.ledger();
    }
    return { create, poll, created: createdIds.length, terminal: createdIds.length - ledger.nonTerminal, cpu };
  } finally {
    await topology.stop();
  }
}

/**
 * Where the CPU went during the create run, per accepted create, beside what the baseline spends per
 * request: on a machine this small every process of the topology (and the load generator) shares the same
 * cores, so the sum is a hard ceiling on creates per second.
 */
function cpuSection(shares: CpuShare[], baselineShares: CpuShare[], baselineRate: number): string {
  if (shares.length === 0) return '';
  const total = shares.reduce((sum, share) => sum + share.msPerCreate, 0);
  const baselineTotal = baselineShares.reduce((sum, share) => sum + share.msPerCreate, 0);
  const cores = cpus().length;
  const lines = shares.map((share) => `| ${share.name} | ${share.msPerCreate.toFixed(3)} |`).join('\n');
  const baselineLines = baselineShares.map((share) => `| baseline: ${share.name} | ${share.msPerCreate.toFixed(3)} per request |`).join('\n');
  return `
### Where the CPU goes

CPU time (user + system, from /proc) each component spent during the create run, divided by the creates it accepted:

| component | CPU ms per create |
|---|---|
${lines}
| **total** | **${total.toFixed(3)}** |
${baselineLines}

At ${total.toFixed(2)} ms of CPU per create across the topology, ${cores} cores carry at most ${Math.round((cores * 1000) / total)} creates/s
however the work is scheduled. 0.4x the baseline is ${Math.round(0.4 * baselineRate)} creates/s, which ${cores} cores could carry only if a
create cost at most ${((cores * 1000) / (0.4 * baselineRate)).toFixed(2)} ms of CPU in all (the baseline spends ${baselineTotal.toFixed(3)} ms per request,
server and load generator together).
`;
}

const serverCpu = (result: { cpu: CpuShare[] }) => result.cpu.find((share) => share.name === 'server process')?.msPerCreate;

type Scenario = 'base' | 'create' | 'poll' | 'pollShape' | 'pollSqlite' | 'createSqlite';
type Round = Record<Scenario, Measured>;

interface Summary {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Median over rounds of this scenario's rate divided by the reference's rate in the same round. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  failures: number;
  serverMicroseconds?: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** One scenario over every round; ratios are taken within a round, where both sides met the same machine. */
function summarize(rounds: Round[], scenario: Scenario, reference: Scenario = 'base'): Summary {
  const runs = rounds.map((round) => round[scenario]);
  const ratios = rounds.map((round) => round[scenario].requestsPerSecond / round[reference].requestsPerSecond);
  const cpu = runs.map(serverCpu).filter((ms): ms is number => ms !== undefined);
  return {
    name: runs[0].name,
    requestsPerSecond: Math.round(median(runs.map((run) => run.requestsPerSecond))),
    p50: median(runs.map((run) => run.p50)),
    p99: median(runs.map((run) => run.p99)),
    ratio: median(ratios),
    ratioMin: Math.min(...ratios),
    ratioMax: Math.max(...ratios),
    failures: runs.reduce((sum, run) => sum + run.non2xx + run.errors, 0),
    serverMicroseconds: cpu.length > 0 ? Math.round(median(cpu) * 1000) : undefined,
  };
}

function summaryRow(summary: Summary): string {
  const range = summary.ratioMin === summary.ratioMax ? '' : ` (${summary.ratioMin.toFixed(2)}-${summary.ratioMax.toFixed(2)})`;
  const cpu = summary.serverMicroseconds === undefined ? 'n/a' : `${summary.serverMicroseconds} µs`;
  return `| ${summary.name} | ${summary.requestsPerSecond} | ${summary.p50} | ${summary.p99} | ${summary.ratio.toFixed(2)}x${range} | ${summary.failures} | ${cpu} |`;
}

const tableHead = `| scenario | req/s | p50 ms | p99 ms | ratio to baseline (range) | non-2xx + errors | server CPU per request |
|---|---|---|---|---|---|---|`;

/**
 * The embedded gateway beside the baseline, then the floors: how far the targets are reachable on this stack
 * at all, and how much of each gateway figure is the gateway's own work rather than Koa, the router, the
 * response and SQLite.
 */
function embeddedSection(rounds: Round[], overhead: Overhead): string {
  const share = (scenario: Scenario, floor: Scenario) => `${(100 * summarize(rounds, scenario, floor).ratio).toFixed(0)}%`;
  return `**Method**: ${rounds.length} rounds. Each round runs the baseline, the gateway and the floors back to back, and every ratio
is taken within its round, so a slow minute of this shared machine moves both sides. The tables give medians over the
rounds (req/s, p50, p99, server CPU) and the median ratio with its range. Server CPU per request is user + system time
of the server process (all its threads) from /proc, divided by the requests it answered.

${tableHead}
${summaryRow(summarize(rounds, 'base'))}
${summaryRow(summarize(rounds, 'create'))}
${summaryRow(summarize(rounds, 'poll'))}

A create's server CPU covers the HTTP request, validation, pricing, the admission write and the job, and the in-process
worker claiming, running and finishing it while the load goes on.

**Gateway overhead** (create -> terminal state, instant provider, one request at a time, ${overhead.samples} samples,
from the request's own \`createdAtMs\`/\`completedAtMs\`): p50 ${overhead.p50} ms, p99 ${overhead.p99} ms.

Targets (issue 3): create >= 0.5x baseline, poll >= 0.7x, p99 <= 25 ms at ${connections} connections, overhead p50 <= 20 ms.

### Floors: what the stack itself allows

Minimal hand-written servers on the same stack (bench/floor-server.ts: Koa, @koa/router, better-sqlite3 in WAL mode),
each doing only what any poll or create must do and answering with the gateway's response shapes: no authentication,
validation, pricing, ledger, metrics or worker. A target above a floor cannot be met by any gateway built on this stack.

${tableHead}
${summaryRow(summarize(rounds, 'pollShape'))}
${summaryRow(summarize(rounds, 'pollSqlite'))}
${summaryRow(summarize(rounds, 'createSqlite'))}

The gateway's poll runs at ${share('poll', 'pollSqlite')} of the SQLite poll floor (median of the rounds), its create at ${share('create', 'createSqlite')} of the
create floor, which writes one row where the gateway writes the request, its ledger entry and debit, then claims, runs
and finishes the job in the same process.
`;
}

function row(result: LoadResult, base: LoadResult): string {
  return `| ${result.name} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${(result.requestsPerSecond / base.requestsPerSecond).toFixed(2)}x | ${result.non2xx + result.errors} |`;
}

async function main(): Promise<void> {
  const rounds: Round[] = [];
  let overhead: Overhead | undefined;
  for (let index = 0; index < roundCount; index += 1) {
    const base = await baseline();
    const measured = await gateway(index === roundCount - 1);
    overhead ??= measured.overhead;
    rounds.push({ base, create: measured.create, poll: measured.poll, ...(await floors()) });
  }
  const prod = process.env.BENCH_SKIP_PRODUCTION ? undefined : await production();
  const prodBase = prod ? await baseline() : undefined;
  const cpu = cpus();
  const report = `# Benchmarks

Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. The baseline and the gateway are measured in
the same run, on the same machine, so compare the **ratios**, not the absolute numbers (this machine is shared and noisy).

**Machine**: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM
(${(freemem() / 2 ** 30).toFixed(0)} GiB free at the start), ${platform()} ${release()}, Node ${process.version}.
**Load**: autocannon, ${connections} connections, ${durationSeconds} s per scenario (embedded scenarios and floors after ${warmupSeconds} s of the same load, unmeasured), in the parent process; each
server is a child process (the gateway: \`mediagate start all\`, embedded SQLite + in-process queue + worker).
The gateway scenarios use \`test.echo\` with a provider that answers at once, so they measure the gateway itself
(auth, validation, pricing, the create transaction, queueing, the worker finishing each request concurrently).

${embeddedSection(rounds, overhead!)}
${
  prod && prodBase
    ? `
## Production topology

2 API + 2 worker processes (\`mediagate start api|worker\`, worker concurrency 16) on MariaDB (mysql2) and RabbitMQ
(quorum queues, publisher confirms: a create is answered only after the row is committed and the broker confirmed the job).
autocannon splits the ${connections} connections over both API processes. The bare-Koa baseline was run again right after,
in the same run.

| scenario | req/s | p50 ms | p99 ms | ratio to baseline | non-2xx + errors |
|---|---|---|---|---|---|
| ${prodBase.name} (re-run) | ${prodBase.requestsPerSecond} | ${prodBase.p50} | ${prodBase.p99} | 1.00x | ${prodBase.non2xx + prodBase.errors} |
${row(prod.create, prodBase)}
${row(prod.poll, prodBase)}

Nothing lost: ${prod.terminal} of the ${prod.created} requests created under load reached a terminal state.

Targets (issue 4): create >= 0.4x the bare-Koa baseline, p99 <= 30 ms; no request lost.
${cpuSection(prod.cpu, prodBase.cpu, prodBase.requestsPerSecond)}`
    : ''
}`;
  await writeFile(join(root, 'docs/BENCHMARKS.md'), report);
  process.stdout.write(report);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
