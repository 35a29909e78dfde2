/**
 * `npm run bench`: in one run, on this machine, measure
 *   1. a bare Koa hello-world (the baseline),
 *   2. POST /api/v1/requests and GET /api/v1/requests/{id} through the full embedded stack,
 *   3. gateway overhead from create to terminal state for a provider that completes instantly,
 * and write the figures, as ratios to the baseline, to docs/BENCHMARKS.md. Servers run as child
 * processes; the load generator (autocannon) runs here, so both sides share the same two cores in
 * every scenario and the ratio is fair.
 */
import { execFile, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, freemem, totalmem, tmpdir, release, platform } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { freePort } from '../test/support/free-port.js';

const root = new URL('..', import.meta.url).pathname;
const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);

interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
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

async function baseline(): Promise<LoadResult> {
  const port = await freePort();
  const child = fork(join(root, 'bench/bare-koa.ts'), { env: { ...process.env, PORT: String(port) }, execArgv: ['--import', 'tsx'] });
  await waitForHttp(`http://127.0.0.1:${port}/`);
  try {
    return await load('bare Koa hello-world (baseline)', { url: `http://127.0.0.1:${port}/` });
  } finally {
    await stop(child);
  }
}

async function gateway(): Promise<{ create: LoadResult; poll: LoadResult; overhead: { p50: number; p99: number; samples: number } }> {
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

    const create = await load('POST /api/v1/requests (full stack)', { url: `${url}/api/v1/requests`, method: 'POST', headers, body });
    const first = await (await fetch(`${url}/api/v1/requests`, { method: 'POST', headers, body })).json();
    const poll = await load('GET /api/v1/requests/{id} (full stack)', { url: `${url}/api/v1/requests/${first.id}`, headers: { 'x-api-key': key } });

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

function row(result: LoadResult, base: LoadResult): string {
  return `| ${result.name} | ${result.requestsPerSecond} | ${result.p50} | ${result.p99} | ${(result.requestsPerSecond / base.requestsPerSecond).toFixed(2)}x | ${result.non2xx + result.errors} |`;
}

async function main(): Promise<void> {
  const base = await baseline();
  const { create, poll, overhead } = await gateway();
  const cpu = cpus();
  const report = `# Benchmarks

Produced by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)}. Each figure is from one run: the
baseline and the gateway are measured in the same run, on the same machine, so compare the **ratios**,
not the absolute numbers (this machine is shared and noisy).

**Machine**: ${cpu.length} × ${cpu[0]?.model ?? 'unknown CPU'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM
(${(freemem() / 2 ** 30).toFixed(0)} GiB free at the start), ${platform()} ${release()}, Node ${process.version}.
**Load**: autocannon, ${connections} connections, ${durationSeconds} s per scenario, in the parent process; each
server is a child process (the gateway: \`mediagate start all\`, embedded SQLite + in-process queue + worker).
The gateway scenarios use \`test.echo\` with a provider that answers at once, so they measure the gateway itself
(auth, validation, pricing, the create transaction, queueing, the worker finishing each request concurrently).

| scenario | req/s | p50 ms | p99 ms | ratio to baseline | non-2xx + errors |
|---|---|---|---|---|---|
| ${base.name} | ${base.requestsPerSecond} | ${base.p50} | ${base.p99} | 1.00x | ${base.non2xx + base.errors} |
${row(create, base)}
${row(poll, base)}

**Gateway overhead** (create -> terminal state, instant provider, one request at a time, ${overhead.samples} samples,
from the request's own \`createdAtMs\`/\`completedAtMs\`): p50 ${overhead.p50} ms, p99 ${overhead.p99} ms.

Targets (issue 3): create >= 0.5x baseline, poll >= 0.7x, p99 <= 25 ms at ${connections} connections, overhead p50 <= 20 ms.
`;
  await writeFile(join(root, 'docs/BENCHMARKS.md'), report);
  process.stdout.write(report);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
