/**
 * What every bench scenario shares: the load generator (autocannon, warmed first), CPU accounting from /proc,
 * child-process servers, and small waits. Scenario sections (bench/sections/*.ts) import from here.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { EventEmitter } from 'node:events';
import autocannon from 'autocannon';
import { freePort } from '../test/support/free-port.js';

export const root = new URL('..', import.meta.url).pathname;
export const durationSeconds = Number(process.env.BENCH_SECONDS ?? 10);
export const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Embedded scenarios repeat this many times, interleaved; the report gives medians. */
export const roundCount = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

export interface LoadResult {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Load before each measured run, so every server is measured warm (JIT-compiled, pools and caches filled). */
export const warmupSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 2);

export async function warm(options: autocannon.Options): Promise<void> {
  if (warmupSeconds > 0) await autocannon({ connections, duration: warmupSeconds, ...options });
}

/**
 * `exactLatency`: p50 and p99 from every 2xx answer's own duration (to the microsecond) instead of autocannon's
 * histogram, which keeps whole milliseconds: with a p99 of 8-10 ms one millisecond is a ratio's 10-12%, more than
 * the difference a 1.2x bound asks about.
 */
export async function load(name: string, options: autocannon.Options, { exactLatency = false } = {}): Promise<LoadResult> {
  // Without a callback autocannon answers its instance, an EventEmitter that is also the result's promise.
  const running = autocannon({ connections, duration: durationSeconds, ...options }) as Promise<autocannon.Result> & EventEmitter;
  const durations: number[] = [];
  if (exactLatency) {
    running.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTimeMs: number) => {
      if (statusCode >= 200 && statusCode < 300) durations.push(responseTimeMs);
    });
  }
  const result = await running;
  const sorted = durations.sort((a, b) => a - b);
  return {
    name,
    requestsPerSecond: Math.round(result.requests.average),
    p50: exactLatency ? percentile(sorted, 0.5) : result.latency.p50,
    p99: exactLatency ? percentile(sorted, 0.99) : result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where there is no /proc. */
export async function cpuSeconds(pid: number): Promise<number | undefined> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** The pids of local server processes by name (MariaDB, RabbitMQ), for CPU accounting. */
export async function pidsOf(name: string): Promise<number[]> {
  const { stdout } = await promisify(execFile)('pgrep', ['-x', name]).catch(() => ({ stdout: '' }));
  return stdout.split('\n').filter(Boolean).map(Number);
}

export type Measured = LoadResult & { cpu: CpuShare[] };

export interface CpuShare {
  name: string;
  /** CPU milliseconds this component spent per accepted create. */
  msPerCreate: number;
}

/** Measures what each component spent during `run`, per create it accepted. */
export async function cpuPerCreate(components: { name: string; pids: number[] }[], run: () => Promise<number>): Promise<{ creates: number; shares: CpuShare[] }> {
  const before = await Promise.all(components.map(async (component) => Promise.all(component.pids.map(cpuSeconds))));
  const creates = await run();
  const after = await Promise.all(components.map(async (component) => Promise.all(component.pids.map(cpuSeconds))));
  const shares = components.flatMap((component, index) => {
    // A pid gone by the end was a passing process of the same name (a `rabbitmqctl` is a beam.smp too), not the server.
    const lasted = component.pids.flatMap((_, pidIndex) => (after[index][pidIndex] === undefined ? [] : [pidIndex]));
    const spent = lasted.length === 0 ? NaN : lasted.reduce((sum, pidIndex) => sum + (after[index][pidIndex]! - (before[index][pidIndex] ?? NaN)), 0);
    return Number.isFinite(spent) && creates > 0 ? [{ name: component.name, msPerCreate: (spent * 1000) / creates }] : [];
  });
  return { creates, shares };
}

export async function waitUntilTerminal(url: string, headers: Record<string, string>, id: string, intervalMs = 200): Promise<void> {
  const until = Date.now() + 300_000;
  while (Date.now() < until) {
    const request = await (await fetch(`${url}/api/v1/requests/${id}`, { headers })).json();
    if (request.status === 'succeeded' || request.status === 'failed') return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`request ${id} did not finish`);
}

/** Waits until `url` answers at all, or with a 2xx when `healthy` (a health endpoint: the service is ready). */
export async function waitForHttp(url: string, options: { healthy?: boolean } = {}): Promise<void> {
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.ok || !options.healthy) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${url} did not come up`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

export interface ChildServer {
  url: string;
  pid: number;
  /** What the script sent its parent once it listened (a seeded id, the Redis client it uses...). */
  ready: string;
  stop(): Promise<void>;
}

/** Runs a bench server script (it listens on PORT, then sends one message) as a child process. */
export async function startChild(script: string, env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const child = fork(join(root, script), { env: { ...process.env, ...env, PORT: String(port) }, execArgv: ['--import', 'tsx'] });
  const ready = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve(String(message)));
    child.once('exit', (code) => reject(new Error(`${script} exited with ${code} before it was ready`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid!, ready, stop: () => stop(child) };
}

/** Warms `options`' load (unless told it is warm), then measures it and what each of `components` spent per request it answered. */
export async function measure(name: string, options: autocannon.Options, components: { name: string; pids: number[] }[], { warmed = false } = {}): Promise<Measured> {
  if (!warmed) await warm(options);
  let result!: LoadResult;
  const { shares } = await cpuPerCreate(components, async () => {
    result = await load(name, options);
    return result.requestsPerSecond * durationSeconds;
  });
  return { ...result, cpu: shares };
}

/** Runs a bench server script as a child process and loads it; CPU is counted for the child and for autocannon. */
export async function loadChild(script: string, env: Record<string, string>, name: string, options: (url: string, ready: string) => autocannon.Options): Promise<Measured> {
  const server = await startChild(script, env);
  try {
    return await measure(name, options(server.url, server.ready), [
      { name: 'server process', pids: [server.pid] },
      { name: 'autocannon (load generator)', pids: [process.pid] },
    ]);
  } finally {
    await server.stop();
  }
}

/** A server with the gateway's request API, as the create-then-poll scenario loads it. */
export interface RequestApiTarget {
  url: string;
  /** Headers of a create (content type, credentials); a poll sends them less the content type. */
  headers: Record<string, string>;
  /** The processes whose CPU is the server side's: the server, and any database or broker it relies on. */
  components: { name: string; pids: number[] }[];
}

/** The body every create scenario sends: test.echo, answered at once by the instant provider. */
export const echoCreateBody = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });

export interface CreateThenPoll {
  create: Measured;
  /**
   * From the end of the create load until a create sent right after it was terminal: the backlog the worker still
   * had (FIFO). `cpu` is what the components spent meanwhile, per create of the load, so create + drain is the
   * CPU of a create accepted *and* finished.
   */
  drain: { ms: number; cpu: CpuShare[] };
  /** Polls of the drain's request, terminal by then. */
  poll: Measured;
}

/** Creates one request and waits until it is terminal: with a FIFO queue, until the worker's backlog is done. Its id. */
async function drainBacklog(target: RequestApiTarget, pollHeaders: Record<string, string>): Promise<string> {
  const marker = await (await fetch(`${target.url}/api/v1/requests`, { method: 'POST', headers: target.headers, body: echoCreateBody })).json();
  await waitUntilTerminal(target.url, pollHeaders, String(marker.id), 10);
  return String(marker.id);
}

/** POST /api/v1/requests under load, the worker's backlog drained, then GET /api/v1/requests/{id} under load. */
export async function createThenPoll(target: RequestApiTarget, names: { create: string; poll: string }): Promise<CreateThenPoll> {
  const { 'content-type': _, ...pollHeaders } = target.headers;
  const createOptions = { url: `${target.url}/api/v1/requests`, method: 'POST' as const, headers: target.headers, body: echoCreateBody };
  await warm(createOptions);
  // The warm-up's backlog is finished first, so the measured CPU is the measured creates' own work.
  await drainBacklog(target, pollHeaders);
  const create = await measure(names.create, createOptions, target.components, { warmed: true });
  const creates = create.requestsPerSecond * durationSeconds;
  let pollId = '';
  const started = performance.now();
  const { shares } = await cpuPerCreate(target.components, async () => {
    pollId = await drainBacklog(target, pollHeaders);
    return creates;
  });
  const drain = { ms: Math.round(performance.now() - started), cpu: shares };
  const poll = await measure(names.poll, { url: `${target.url}/api/v1/requests/${pollId}`, headers: pollHeaders }, target.components);
  return { create, drain, poll };
}


export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The value at quantile `q` (0-1) of values sorted ascending; NaN when there are none. */
export function percentile(sorted: number[], q: number): number {
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** `median (min–max)` of the rounds, with `suffix` after the median; the range is left out when it is one value. */
export function medianRange(values: number[], digits: number, suffix = ''): string {
  const [low, middle, high] = [Math.min(...values), median(values), Math.max(...values)];
  const range = low.toFixed(digits) === high.toFixed(digits) ? '' : ` (${low.toFixed(digits)}–${high.toFixed(digits)})`;
  return `${middle.toFixed(digits)}${suffix}${range}`;
}
