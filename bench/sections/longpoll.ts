/**
 * Issue 18, target 1, "fewer polls per result":
 *   1. jobs that take 20 s (the scripted fixture provider sleeping in its start) observed by long poll
 *      (`Prefer: wait=60`) and by event stream: HTTP calls per result, and how long after the request's own
 *      `completedAtMs` the client held the terminal state; in the embedded default, and with the API and the worker in
 *      separate processes (MariaDB + RabbitMQ, the change notices crossing by the fanout exchange);
 *   2. 1,000 long polls, then 1,000 event streams (opened by a child process, held-waits.ts), held by one production
 *      API process: its RSS growth, its CPU while they wait and nothing changes, and plain polls (autocannon) with
 *      them held against without, in rounds, each ratio taken within its round.
 * The machine is shared: compare ratios and ranges, not absolute figures.
 */
import { readFile } from 'node:fs/promises';
import autocannon from 'autocannon';
import { openEventStream } from '../../test/support/event-stream.js';
import { freePort } from '../../test/support/free-port.js';
import { rabbitMqUrl } from '../../test/support/rabbitmq.js';
import { RabbitMqChangeFeed } from '../../src/kernel/queue/index.js';
import { connections, cpuPerCreate, cpuSeconds, durationSeconds, load, median, medianRange, percentile, roundCount, warm, type LoadResult } from '../bench-kit.js';
import { startEmbeddedGateway } from '../embedded-gateway.js';
import { holdInChild, type Holders, type Target, type WaitKind } from '../held-waits.js';
import { collectGarbage } from '../inspector-gc.js';
import type { BenchSection } from './index.js';

const jobCount = Number(process.env.BENCH_LONGPOLL_JOBS ?? 100);
const jobSeconds = Number(process.env.BENCH_LONGPOLL_JOB_SECONDS ?? 20);
const heldCount = Number(process.env.BENCH_LONGPOLL_HELD ?? 1000);
// 30 s: one full period of the watches' re-check (watches.recheck_interval_ms), so the mean includes exactly one.
const idleSeconds = Number(process.env.BENCH_LONGPOLL_IDLE_SECONDS ?? 30);
/** Idle CPU is read over windows this long, and their median reported (see idleCpu). */
const idleWindowSeconds = 5;
/** After the waits open: accepting and parsing 1,000 requests, and the collections that follow, are not idleness. */
const settleSeconds = Number(process.env.BENCH_LONGPOLL_SETTLE_SECONDS ?? 8);
/** Creates are spread over this long, as independent clients' would be, rather than finishing all in one instant. */
const createSpreadMs = 2_000;

type Mode = 'long poll' | 'event stream';

interface Observation {
  id: string;
  calls: number;
  /** The client's clock when it held the terminal state, and the request's own completion time. */
  heldAtMs: number;
  completedAtMs: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One client: create the job, then hold the terminal state with as few calls as the mode allows. */
async function observeOne(target: Target, mode: Mode, startAfterMs: number): Promise<Observation & { pollAfterMs: number }> {
  await sleep(startAfterMs);
  const headers = { 'x-api-key': target.key };
  const created = await fetch(`${target.url}/api/v1/requests`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ operation: 'test.echo', input: { message: 'twenty seconds', script: { start_delay_ms: jobSeconds * 1000 } } }),
  });
  if (created.status !== 202) throw new Error(`create answered ${created.status}: ${await created.text()}`);
  const { id, poll_after_ms: pollAfterMs } = (await created.json()) as { id: string; poll_after_ms: number };
  let calls = 1;
  if (mode === 'long poll') {
    for (;;) {
      const answer = await fetch(`${target.url}/api/v1/requests/${id}`, { headers: { ...headers, prefer: 'wait=60' } });
      calls += 1;
      const body = (await answer.json()) as { status: string; completedAtMs: number };
      const observedAt = Date.now();
      if (body.status === 'succeeded' || body.status === 'failed') return { id, calls, heldAtMs: observedAt, completedAtMs: body.completedAtMs, pollAfterMs };
    }
  }
  let lastEventId: string | undefined;
  for (;;) {
    const stream = await openEventStream(`${target.url}/api/v1/requests/${id}/events`, { ...headers, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) });
    calls += 1;
    await stream.ended;
    const last = stream.events.at(-1);
    if (!last) continue;
    lastEventId = last.id;
    const body = JSON.parse(last.data) as { status: string; completedAtMs: number };
    if (body.status === 'succeeded' || body.status === 'failed') return { id, calls, heldAtMs: last.receivedAtMs, completedAtMs: body.completedAtMs, pollAfterMs };
  }
}

interface LagRow {
  name: string;
  jobs: number;
  maxCalls: number;
  meanCalls: number;
  lag: { p50: number; p99: number; max: number };
  /** Across processes: the lag split where the bench's own subscriber heard the change notice (noticesHeard). */
  split?: { toNotice: { p50: number; p99: number }; noticeToClient: { p50: number; p99: number } };
  pollAfterMs: number;
}

const spread = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
};

/**
 * `jobCount` jobs, half watched by long poll and half by event stream, all at once. `noticeHeardAt` (across
 * processes) says when the change notice of each request reached a subscriber of the bench's own.
 */
async function observeJobs(target: Target, where: string, noticeHeardAt?: Map<string, number>): Promise<LagRow[]> {
  const modes: Mode[] = ['long poll', 'event stream'];
  const results = await Promise.all(
    Array.from({ length: jobCount }, (_, index) => observeOne(target, modes[index % 2], (index * createSpreadMs) / jobCount).then((result) => ({ ...result, mode: modes[index % 2] }))),
  );
  return modes.map((mode) => {
    const mine = results.filter((result) => result.mode === mode);
    const lags = mine.map((result) => result.heldAtMs - result.completedAtMs);
    const heard = noticeHeardAt && mine.every((result) => noticeHeardAt.has(result.id)) ? (result: Observation) => noticeHeardAt.get(result.id)! : undefined;
    return {
      name: `${mode}, ${where}`,
      jobs: mine.length,
      maxCalls: Math.max(...mine.map((result) => result.calls)),
      meanCalls: mine.reduce((sum, result) => sum + result.calls, 0) / mine.length,
      lag: { ...spread(lags), max: Math.max(...lags) },
      split: heard && {
        toNotice: spread(mine.map((result) => heard(result) - result.completedAtMs)),
        noticeToClient: spread(mine.map((result) => result.heldAtMs - heard(result))),
      },
      pollAfterMs: mine[0].pollAfterMs,
    };
  });
}

/** `mediagate start all` on a fresh SQLite folder, with the fixtures and room for every job at once. */
async function embeddedGateway(): Promise<Target & { stop(): Promise<void> }> {
  return startEmbeddedGateway({ MEDIAGATE_WORKER_CONCURRENCY: String(jobCount + 8) });
}

async function rssBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
}

/** CPU milliseconds per second of wall time of an idle process, two ways (idleCpu). */
interface IdleCpu {
  median: number;
  mean: number;
}

/**
 * CPU milliseconds the process spends per second of wall time while nobody sends it anything new: the median over
 * 5 s windows of `seconds`, and the mean over all of them. A Node process that does nothing still runs a major
 * collection every 20 s or so (its timers allocate: breakers' rolling windows, metric gauges, the change feed's
 * heartbeats), about 250 ms of CPU on this machine, with waits held or not; a single window that happens to contain
 * one reads as 50 ms/s, the median does not. The mean counts everything periodic, the waits' re-check (every 30 s)
 * included, and those collections with it.
 */
async function idleCpu(pid: number, seconds: number): Promise<IdleCpu> {
  const windows: number[] = [];
  for (let elapsed = 0; elapsed < seconds; elapsed += idleWindowSeconds) {
    const before = (await cpuSeconds(pid))!;
    await sleep(idleWindowSeconds * 1000);
    windows.push((((await cpuSeconds(pid))! - before) * 1000) / idleWindowSeconds);
  }
  return { median: median(windows), mean: windows.reduce((sum, value) => sum + value, 0) / windows.length };
}

interface HeldRound {
  kind: WaitKind;
  rssDeltaMb: number;
  idleWithout: IdleCpu;
  idleWith: IdleCpu;
  without: LoadResult;
  with: LoadResult;
  cpuWithoutUs: number;
  cpuWithUs: number;
}

/** Plain polls of one request through autocannon, warmed, with the API process's CPU per poll. */
async function plainPolls(target: Target, pid: number, id: string, name: string): Promise<{ result: LoadResult; cpuUs: number }> {
  const options: autocannon.Options = { url: `${target.url}/api/v1/requests/${id}`, headers: { 'x-api-key': target.key } };
  await warm(options);
  let result!: LoadResult;
  const { shares } = await cpuPerCreate([{ name: 'API process', pids: [pid] }], async () => {
    result = await load(name, options, { exactLatency: true });
    return result.requestsPerSecond * durationSeconds;
  });
  return { result, cpuUs: Math.round((shares[0]?.msPerCreate ?? NaN) * 1000) };
}

/**
 * RSS after a full, memory-reducing collection (through the process's inspector): what the process keeps. Without
 * it, one reading swings by tens of MB with garbage V8 has not returned yet (the plain polls', or that of accepting
 * 1,000 requests): growths of -50 to +50 MB for the same waits in one run.
 */
async function keptRssBytes(pid: number, inspectorPort: number): Promise<number> {
  await collectGarbage(inspectorPort);
  // V8 hands the freed pages back on a background thread after the collection: RSS keeps falling for a moment.
  await sleep(2_000);
  return rssBytes(pid);
}

/** One round for one kind of waiter: without, then with `heldCount` of them held, on the same process. */
async function heldRound(target: Target, pid: number, inspectorPort: number, pollId: string, kind: WaitKind, hold: () => Promise<Holders>): Promise<HeldRound> {
  const without = await plainPolls(target, pid, pollId, 'plain poll');
  const idleWithout = await idleCpu(pid, idleSeconds);
  const rssBefore = await keptRssBytes(pid, inspectorPort);
  const holders = await hold();
  try {
    // Let the server settle the accepted connections before measuring it idle.
    await sleep(settleSeconds * 1000);
    const idleWith = await idleCpu(pid, idleSeconds);
    // After the idle window, so that the collection does not fall into the idle CPU.
    const rssAfter = await keptRssBytes(pid, inspectorPort);
    const withHeld = await plainPolls(target, pid, pollId, `plain poll, ${heldCount} ${kind} held`);
    return { kind, rssDeltaMb: (rssAfter - rssBefore) / 2 ** 20, idleWithout, idleWith, without: without.result, with: withHeld.result, cpuWithoutUs: without.cpuUs, cpuWithUs: withHeld.cpuUs };
  } finally {
    holders.close();
    await sleep(1_000);
  }
}

async function createRequests(target: Target, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += 50) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(50, count - start) }, async () => {
        const created = await fetch(`${target.url}/api/v1/requests`, {
          method: 'POST',
          headers: { 'x-api-key': target.key, 'content-type': 'application/json' },
          body: JSON.stringify({ operation: 'test.echo', input: { message: 'held' } }),
        });
        if (created.status !== 202) throw new Error(`create answered ${created.status}`);
        return ((await created.json()) as { id: string }).id;
      }),
    );
    ids.push(...batch);
  }
  return ids;
}

async function etagsOf(target: Target, ids: string[]): Promise<Map<string, string>> {
  const etags = new Map<string, string>();
  for (let start = 0; start < ids.length; start += 50) {
    await Promise.all(
      ids.slice(start, start + 50).map(async (id) => {
        const answer = await fetch(`${target.url}/api/v1/requests/${id}`, { headers: { 'x-api-key': target.key } });
        await answer.arrayBuffer();
        etags.set(id, answer.headers.get('etag')!);
      }),
    );
  }
  return etags;
}

const ms = (value: number) => value.toFixed(value < 10 ? 1 : 0);
/** The rounds' median of one reading of idle CPU, without -> with the waits held. */
const idle = (rounds: HeldRound[], reading: keyof IdleCpu) =>
  `${ms(median(rounds.map((round) => round.idleWithout[reading])))} -> ${ms(median(rounds.map((round) => round.idleWith[reading])))}`;

function lagTable(rows: LagRow[]): string {
  const split = (row: LagRow) =>
    row.split ? `${row.split.toNotice.p50} / ${row.split.toNotice.p99} | ${row.split.noticeToClient.p50} / ${row.split.noticeToClient.p99}` : '– | –';
  const lines = rows.map((row) => `| ${row.name} | ${row.jobs} | ${row.maxCalls} / ${row.meanCalls.toFixed(2)} | ${row.lag.p50} / ${row.lag.p99} / ${row.lag.max} | ${split(row)} |`);
  return `| observed with | jobs of ${jobSeconds} s | HTTP calls per result (max / mean) | ms from completedAtMs to the client holding it (p50 / p99 / max) | of which: to the change notice (p50 / p99) | the notice to the client (p50 / p99) |
|---|---|---|---|---|---|
${lines.join('\n')}`;
}

function heldTable(rounds: HeldRound[]): string {
  const kinds = [...new Set(rounds.map((round) => round.kind))];
  const lines = kinds.map((kind) => {
    const mine = rounds.filter((round) => round.kind === kind);
    const ratios = mine.map((round) => round.with.p99 / round.without.p99);
    const rates = mine.map((round) => round.with.requestsPerSecond / round.without.requestsPerSecond);
    const range = (values: number[]) => medianRange(values, 2, 'x');
    return `| ${heldCount} ${kind} | ${mine.map((round) => round.rssDeltaMb.toFixed(1)).join(', ')} | ${idle(mine, 'median')} (mean ${idle(mine, 'mean')}) | ${median(mine.map((round) => round.without.p99)).toFixed(1)} -> ${median(mine.map((round) => round.with.p99)).toFixed(1)} ms, ${range(ratios)} | ${range(rates)} | ${median(mine.map((round) => round.cpuWithoutUs))} -> ${median(mine.map((round) => round.cpuWithUs))} µs | ${mine.reduce((sum, round) => sum + round.with.non2xx + round.with.errors + round.without.non2xx + round.without.errors, 0)} |`;
  });
  return `| held by one API process | RSS growth, MB (each round) | API process CPU while idle, ms per s: without -> with, median of 5 s windows (mean) | plain poll p99 without -> with, ratio (range) | plain poll req/s ratio (range) | API CPU per plain poll without -> with | non-2xx + errors |
|---|---|---|---|---|---|---|
${lines.join('\n')}`;
}

async function run(): Promise<string> {
  const embedded = await embeddedGateway();
  let lagRows: LagRow[];
  try {
    lagRows = await observeJobs(embedded, 'embedded (`start all`)');
  } finally {
    await embedded.stop();
  }

  const heldRounds: HeldRound[] = [];
  if (!process.env.BENCH_SKIP_PRODUCTION) {
    const { ProcessTopology } = await import('../../test/support/process-topology.js');
    const unavailable = { skip: () => { throw new Error('MariaDB and RabbitMQ are needed for the long-poll section (or set BENCH_SKIP_PRODUCTION)'); } } as unknown as Mocha.Context;
    const topology = await ProcessTopology.create(unavailable, { MEDIAGATE_WORKER_CONCURRENCY: String(jobCount + 8), MEDIAGATE_WATCHES_MAX_PER_PROCESS: String(heldCount + 100) });
    try {
      const key = await topology.createKey(1_000_000_000);
      // Observed across processes first, on a quiet database: a burst of writes (the held requests below, once a
      // worker drains them) leaves MariaDB slower for tens of seconds, which would be measured instead of the feed.
      const api = await topology.start('api');
      const worker = await topology.start('worker');
      // A subscriber of the bench's own hears each change notice when the API process does: the lag splits there
      // into the worker's part (its finish's commit, the notice batch, the broker) and the API process's (the re-read,
      // the answer, the HTTP hop).
      const noticeHeardAt = new Map<string, number>();
      const notices = new RabbitMqChangeFeed({ url: rabbitMqUrl, prefix: topology.env.MEDIAGATE_AMQP_PREFIX!, batchMs: 5 });
      await notices.connect();
      try {
        await notices.subscribe({
          changed: (ids) => {
            const now = Date.now();
            for (const id of ids) noticeHeardAt.set(id, now);
          },
          missedSome: () => undefined,
        });
        lagRows = [...lagRows, ...(await observeJobs({ url: api.url, key }, 'API and worker processes apart (MariaDB + RabbitMQ fanout)', noticeHeardAt))];
      } finally {
        await notices.close();
      }
      await topology.kill(worker);
      await topology.kill(api);

      const seeding = await topology.start('api');
      // No worker any more: these requests stay queued, so nothing changes while the waits are held and measured.
      const [pollId, ...heldIds] = await createRequests({ url: seeding.url, key }, heldCount + 1);
      const etags = await etagsOf({ url: seeding.url, key }, heldIds);
      await topology.kill(seeding);
      // A fresh API process per measurement: the RSS growth of each is then its waiters', not an earlier round's heap.
      const onFreshApi = async (kind: WaitKind) => {
        const inspectorPort = await freePort();
        const fresh = await topology.start('api', undefined, {}, [`--inspect=127.0.0.1:${inspectorPort}`]);
        try {
          const target = { url: fresh.url, key };
          // A fresh process compiles its hot paths during the first seconds of load: warm it once more than usual.
          await warm({ url: `${target.url}/api/v1/requests/${pollId}`, headers: { 'x-api-key': key } });
          return await heldRound(target, fresh.child.pid!, inspectorPort, pollId, kind, () => holdInChild(kind, target, heldIds, etags));
        } finally {
          await topology.kill(fresh);
        }
      };
      for (let round = 0; round < roundCount; round += 1) {
        heldRounds.push(await onFreshApi('long polls'));
        heldRounds.push(await onFreshApi('event streams'));
      }
    } finally {
      await topology.stop();
    }
  }

  const pollAfterMs = lagRows[0].pollAfterMs;
  return `## Fewer polls per result (issue 18, target 1)

**Observed results.** ${jobCount} jobs per setting, each taking ${jobSeconds} s (the scripted fixture provider sleeps in its
start), created over ${createSpreadMs / 1000} s by as many clients; half wait with \`GET /api/v1/requests/{id}\` and
\`Prefer: wait=60\` (asked again only if answered before the end), half with \`GET /api/v1/requests/{id}/events\`. The lag
is the client's wall clock when it held the terminal state minus the request's own \`completedAtMs\` (same machine, same
clock; it covers the finish's commit, the change notice, the batched re-read, the answer and the HTTP hop). A client
polling as \`poll_after_ms\` says (${pollAfterMs} ms for this fixture) would make about ${Math.round((jobSeconds * 1000) / pollAfterMs)} calls per result.

${lagTable(lagRows)}

Targets: at most 2 HTTP calls per result; the terminal state held at most 50 ms after \`completedAtMs\` (p99).
Across processes the lag adds the worker's 5 ms notice batch, a broker hop and MariaDB's commit and reads; a
subscriber of the bench's own to the change notices splits it where the notice arrived (the last notice of the
request: its terminal state), into the worker's part (the finish's commit, the batch, the broker) and the API
process's (the batched re-read, the answer, the HTTP hop). It is measured before anything else writes to the
database: in trials run 20-30 s after a burst of about a thousand finishes (a worker draining a backlog) it was p50
60-70 ms and p99 85-145 ms, the commit and the re-reads both slower, on this machine.
${
  heldRounds.length === 0
    ? '\n(The held-waits measurement needs MariaDB and RabbitMQ; it was skipped: BENCH_SKIP_PRODUCTION.)\n'
    : `
### ${heldCount} waits held by one API process

One production API process (\`mediagate start api\`, MariaDB + RabbitMQ, no worker, so nothing changes while the waits are
held). Per round and per kind: plain polls of one request (autocannon, ${connections} connections, ${durationSeconds} s after a
warm-up; their p50 and p99 from every answer's own duration, to the microsecond, where autocannon's histogram keeps whole
milliseconds, a ratio's 10-12% at a p99 of 8-10 ms) and ${idleSeconds} s of idle CPU without waiters; then ${heldCount} long polls (\`If-None-Match\` with the current
tag and \`Prefer: wait=60\`: held for the whole minute) or ${heldCount} event streams opened by a process of their own
(bench/held-waits-process.ts: not the load generator's, whose event loop they would share), ${settleSeconds} s to settle,
${idleSeconds} s of idle CPU, and the same plain polls while they are held. ${roundCount} rounds; ratios are taken within
a round (median and range). Each measurement runs on a fresh API process (warmed by the plain polls first); RSS is
VmRSS from /proc, read at the end of the idle window without and with the waits held, each time right after a full
memory-reducing collection asked through the process's inspector (\`--inspect\`, CDP \`HeapProfiler.collectGarbage\`,
bench/inspector-gc.ts): the growth is what the held waits keep (without the collection, one reading swings by tens of
MB with garbage V8 has not returned yet); CPU is user + system time of the API process, read from /proc over ${idleWindowSeconds} s windows (in 10 ms ticks: 2 ms/s
is one tick), of which the median is shown first: an idle Node process still runs a major collection every 20 s or so (its
timers allocate), about 250 ms of CPU here with or without waits, which a single window may or may not catch. The mean
over the ${idleSeconds} s counts everything periodic: those collections, and, with waits held, one re-check of what the
process watches (every 30 s, \`watches.recheck_interval_ms\`; batched: 4 queries for 1,000 waits) and two keep-alive
comments to each stream (every 15 s).

${heldTable(heldRounds)}

Targets: RSS growth < 50 MB for 1,000 held; no measurable CPU while idle; plain-poll p99 with them held within 1.2x of without.
`
}`;
}

export const longPollSection: BenchSection = { name: 'longpoll', run };
