/**
 * `npm run bench`: in one run, on this machine, measure
 *   1. a bare Koa hello-world (the baseline),
 *   2. POST /api/v1/requests and GET /api/v1/requests/{id} through the full embedded stack,
 *   3. the floors of bench/floor-server.ts (the least a poll or a create costs on this stack),
 *   4. gateway overhead from create to terminal state for a provider that completes instantly,
 * then the further sections of bench/sections (production cost per create, vendor tasks per worker, the
 * hand-rolled reference, long polls), and write the figures, as ratios, to docs/BENCHMARKS.md. 1-3 repeat BENCH_ROUNDS times
 * (default 3), interleaved, and each ratio is taken within its round. Servers run as child
 * processes; the load generator (autocannon) runs here, so both sides share the same two cores in
 * every scenario and the ratio is fair.
 *
 * `BENCH_SKIP_SECTIONS=1`: 1-4 only, printed, docs/BENCHMARKS.md left alone. `BENCH_PROFILE=1`: also a create run and a
 * poll run under `--cpu-prof`, with the largest self-time items in the report (bench/cpu-profile.ts); `BENCH_PROFILE_DIR`
 * keeps their profiles.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, freemem, totalmem, release, platform, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  connections, createThenPoll, durationSeconds, echoCreateBody, load, loadChild, median, percentile, root, roundCount, waitUntilTerminal, warm, warmupSeconds,
  type CpuShare, type Measured,
} from './bench-kit.js';
import { monotonicMicroseconds, ownCompileCache, readProfileFrom, summarizeProfile, type ProfileSummary } from './cpu-profile.js';
import { startEmbeddedGateway, type EmbeddedGateway } from './embedded-gateway.js';
import { benchSections } from './sections/index.js';

async function baseline(): Promise<Measured> {
  return loadChild('bench/bare-koa.ts', {}, 'bare Koa hello-world (baseline)', (url) => ({ url: `${url}/` }));
}

type Floors = Record<'pollShape' | 'pollSqlite' | 'pollGuarded' | 'createSqlite' | 'createGuarded', Measured>;

/** The floors of bench/floor-server.ts: the least a poll or a create can cost on this stack. */
async function floors(): Promise<Floors> {
  const body = JSON.stringify({ operation: 'test.echo', input: { message: 'benchmark' } });
  const poll = (url: string, id: string) => ({ url: `${url}/api/v1/requests/${id}` });
  return {
    pollShape: await loadChild('bench/floor-server.ts', { FLOOR: 'poll-shape' }, 'floor: Koa + @koa/router, the poll response, no database', poll),
    pollSqlite: await loadChild('bench/floor-server.ts', { FLOOR: 'poll-sqlite' }, 'floor: the same + one SQLite point read', poll),
    pollGuarded: await loadChild(
      'bench/floor-server.ts',
      { FLOOR: 'poll-guarded' },
      'floor: the same + API key, request id, metrics, ETag, the whole answer',
      (url, ready) => {
        const [id, key] = ready.split(' ');
        return { url: `${url}/api/v1/requests/${id}`, headers: { 'x-api-key': key } };
      },
    ),
    createSqlite: await loadChild('bench/floor-server.ts', { FLOOR: 'create-sqlite' }, 'floor: Koa + @koa/router, JSON body, one SQLite insert, 202', (url) => ({
      url: `${url}/api/v1/requests`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    })),
    createGuarded: await loadChild(
      'bench/floor-server.ts',
      { FLOOR: 'create-guarded' },
      'floor: the same + API key, request id, metrics, validation, debit + ledger row, a worker claiming and finishing',
      (url, ready) => ({ url: `${url}/api/v1/requests`, method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': ready.split(' ')[1] }, body }),
    ),
  };
}

interface Overhead {
  p50: number;
  p99: number;
  samples: number;
}

/** How many of the key's requests are still queued or processing (at most 1 of each is asked for: 0 means none). */
async function unfinished(target: EmbeddedGateway): Promise<number> {
  let count = 0;
  for (const status of ['queued', 'processing']) {
    const page = await (await fetch(`${target.url}/api/v1/requests?status=${status}&limit=1`, { headers: { 'x-api-key': target.key } })).json();
    count += (page.data as unknown[]).length;
  }
  return count;
}

interface GatewayRound {
  create: Measured;
  poll: Measured;
  /** Every request created in the round (warm-up and load) was terminal after the drain, before the poll run. */
  allFinished: boolean;
  drainMs: number;
  overhead?: Overhead;
}

async function gateway(withOverhead: boolean): Promise<GatewayRound> {
  const target = await startEmbeddedGateway();
  try {
    // The instant provider isolates the gateway's own cost: validation, pricing, the durable write, the queue.
    // The worker drains the backlog of the create run before the poll run starts, so each measures one thing.
    const { create, drain, poll } = await createThenPoll(target, { create: 'POST /api/v1/requests (full stack)', poll: 'GET /api/v1/requests/{id} (full stack)' });
    const finished = { allFinished: (await unfinished(target)) === 0, drainMs: drain.ms };

    if (!withOverhead) return { create, poll, ...finished };
    // Overhead: create -> terminal, one request at a time on an idle gateway, read from the request's own timestamps.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const { url, headers } = target;
    const samples: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const created = await (await fetch(`${url}/api/v1/requests`, { method: 'POST', headers, body: echoCreateBody })).json();
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
    return { create, poll, ...finished, overhead: { p50: percentile(samples, 0.5), p99: percentile(samples, 0.99), samples: samples.length } };
  } finally {
    await target.stop();
  }
}

const serverCpu = (result: { cpu: CpuShare[] }) => result.cpu.find((share) => share.name === 'server process')?.msPerCreate;

type Scenario = 'base' | 'create' | 'poll' | 'pollShape' | 'pollSqlite' | 'pollGuarded' | 'createSqlite' | 'createGuarded';
type Round = Record<Scenario, Measured> & Pick<GatewayRound, 'allFinished' | 'drainMs'>;

interface Summary {
  name: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Median over rounds of this scenario's rate divided by the reference's rate in the same round. */
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  /** The ratio of each round, in round order. */
  ratios: number[];
  failures: number;
  serverMicroseconds?: number;
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
    ratios,
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

/** Issue 18, target 2: the gateway's cost per request near the stack's floor. */
const targets = { pollOfFloor: 0.9, createOfFloor: 0.75, p99Ms: 25 };

const met = (ok: boolean) => (ok ? 'met' : '**not met**');
const ratioText = (summary: Summary) =>
  `${summary.ratio.toFixed(2)}x${summary.ratioMin === summary.ratioMax ? '' : ` (${summary.ratioMin.toFixed(2)}-${summary.ratioMax.toFixed(2)})`}; by round ${summary.ratios.map((ratio) => ratio.toFixed(2)).join(', ')}`;
const cpuText = (summary: Summary) => (summary.serverMicroseconds === undefined ? 'n/a' : `${summary.serverMicroseconds} µs`);

/**
 * The targets against the floors, each ratio taken within its round: the median decides, the range shows how
 * much the shared machine moved it. Server CPU per request is given for both sides of each ratio.
 */
function targetsTable(rounds: Round[]): string {
  const poll = summarize(rounds, 'poll', 'pollSqlite');
  const create = summarize(rounds, 'create', 'createSqlite');
  const pollFloor = summarize(rounds, 'pollSqlite');
  const createFloor = summarize(rounds, 'createSqlite');
  const guardedOfFloor = summarize(rounds, 'pollGuarded', 'pollSqlite');
  const pollOfGuarded = summarize(rounds, 'poll', 'pollGuarded');
  const guardedOfCreateFloor = summarize(rounds, 'createGuarded', 'createSqlite');
  const createOfGuarded = summarize(rounds, 'create', 'createGuarded');
  const worstP99 = Math.max(...rounds.flatMap((round) => [round.poll.p99, round.create.p99]));
  const finished = rounds.filter((round) => round.allFinished).length;
  return `Targets (issue 18, target 2): ratios to the floors above, each taken within its round; median of the rounds (range), then each round's.

| target | measured | server CPU per request: gateway / floor | |
|---|---|---|---|
| poll >= ${targets.pollOfFloor}x the 'poll-sqlite' floor | ${ratioText(poll)} | ${cpuText(poll)} / ${cpuText(pollFloor)} | ${met(poll.ratio >= targets.pollOfFloor)} |
| create >= ${targets.createOfFloor}x the 'create-sqlite' floor, the in-process worker finishing every job | ${ratioText(create)}; every job finished in ${finished} of ${rounds.length} rounds (drain after the load: median ${median(rounds.map((round) => round.drainMs))} ms) | ${cpuText(create)} / ${cpuText(createFloor)} | ${met(create.ratio >= targets.createOfFloor && finished === rounds.length)} |
| p99 <= ${targets.p99Ms} ms at ${connections} connections | poll ${poll.p99} ms, create ${create.p99} ms (medians); worst round ${worstP99} ms | | ${met(poll.p99 <= targets.p99Ms && create.p99 <= targets.p99Ms)} |

The gateway's create CPU includes the worker claiming, running and finishing each job (and its ledger entries); the
floor writes one row and runs no worker.

What the poll target leaves for the gateway's own work: the 'poll-guarded' floor, the 'poll-sqlite' floor plus only what
any authenticated, metered, conditional poll must add (an API key, a request id, two metric observations, an ETag,
the whole answer), reaches ${ratioText(guardedOfFloor)} of the 'poll-sqlite' floor (${cpuText(guardedOfFloor)} per poll); the gateway's
poll reaches ${ratioText(pollOfGuarded)} of the guarded floor. The same for creates: the 'create-guarded' floor, the
'create-sqlite' floor plus the API key, the metrics, the input's validation, the debit and its ledger row in the
request's transaction and an in-process worker claiming and finishing each job, reaches ${ratioText(guardedOfCreateFloor)} of the
'create-sqlite' floor (${cpuText(guardedOfCreateFloor)} per create); the gateway's create reaches ${ratioText(createOfGuarded)} of it.`;
}

/**
 * The embedded gateway beside the baseline, then the floors: how far the targets are reachable on this stack
 * at all, and how much of each gateway figure is the gateway's own work rather than Koa, the router, the
 * response and SQLite.
 */
function embeddedSection(rounds: Round[], overhead: Overhead): string {
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

### Floors: what the stack itself allows

Minimal hand-written servers on the same stack (bench/floor-server.ts: Koa, @koa/router, better-sqlite3 in WAL mode),
each doing only what any poll or create must do and answering with the gateway's response shapes: no authentication,
validation, pricing, ledger, metrics or worker. A target above a floor cannot be met by any gateway built on this stack.

${tableHead}
${summaryRow(summarize(rounds, 'pollShape'))}
${summaryRow(summarize(rounds, 'pollSqlite'))}
${summaryRow(summarize(rounds, 'pollGuarded'))}
${summaryRow(summarize(rounds, 'createSqlite'))}
${summaryRow(summarize(rounds, 'createGuarded'))}

${targetsTable(rounds)}
`;
}

/**
 * \`BENCH_PROFILE=1\`: one create run and one poll run against a gateway started with \`--cpu-prof\`, each ranked by
 * self time over the samples taken while the load ran (start-up, warm-up and shutdown left out). The profiler slows
 * the server, so these runs are not part of the figures above.
 */
async function profiled(kind: 'create' | 'poll'): Promise<ProfileSummary> {
  // `BENCH_PROFILE_DIR=<folder>` keeps the profiles (<folder>/<kind>/*.cpuprofile, for Chrome DevTools).
  const kept = process.env.BENCH_PROFILE_DIR ? join(process.env.BENCH_PROFILE_DIR, kind) : undefined;
  const folder = kept ?? (await mkdtemp(join(tmpdir(), 'mediagate-cpu-prof-')));
  if (kept) await mkdir(kept, { recursive: true });
  const compileCache = await ownCompileCache();
  try {
    const target = await startEmbeddedGateway(compileCache.env, ['--cpu-prof', '--cpu-prof-dir', folder]);
    const { pid } = target;
    let window!: { fromUs: number; toUs: number };
    try {
      const { 'content-type': _, ...pollHeaders } = target.headers;
      let options;
      if (kind === 'create') {
        options = { url: `${target.url}/api/v1/requests`, method: 'POST' as const, headers: target.headers, body: echoCreateBody };
      } else {
        const created = await (await fetch(`${target.url}/api/v1/requests`, { method: 'POST', headers: target.headers, body: echoCreateBody })).json();
        await waitUntilTerminal(target.url, pollHeaders, String(created.id), 10);
        options = { url: `${target.url}/api/v1/requests/${created.id}`, headers: pollHeaders };
      }
      await warm(options);
      const fromUs = monotonicMicroseconds();
      await load(`profiled ${kind}`, options);
      window = { fromUs, toUs: monotonicMicroseconds() };
    } finally {
      // The profile is written as the server exits.
      await target.stop();
    }
    return summarizeProfile(await readProfileFrom(folder, pid), root, { window, limit: 10, sourceLines: await compileCache.sourceLines() });
  } finally {
    await compileCache.remove();
    if (!kept) await rm(folder, { recursive: true, force: true });
  }
}

function profileTable(title: string, summary: ProfileSummary): string {
  const rows = summary.items.map((item, index) => `| ${index + 1} | \`${item.name}\` | ${item.percent.toFixed(1)}% |`);
  return `**${title}** (${summary.busySamples} busy samples)

| # | function (file:line) | self time, % of busy samples |
|---|---|---|
${rows.join('\n')}`;
}

async function profileSection(): Promise<string> {
  const create = await profiled('create');
  const poll = await profiled('poll');
  const top3 = (summary: ProfileSummary) => summary.items.slice(0, 3).map((item) => `\`${item.name}\` ${item.percent.toFixed(1)}%`).join('; ');
  return `### Where the remaining time goes (\`BENCH_PROFILE=1\`)

The embedded gateway again, under \`node --cpu-prof\` (sampling profiler, 1 ms default interval), one create run and one
poll run at ${connections} connections for ${durationSeconds} s; only the samples taken during the measured load count, and idle
samples are left out. Self time: the function on top of the stack when the sample was taken (\`(program)\` is native code
outside JavaScript, e.g. the HTTP parser and socket writes; \`(garbage collector)\` is GC).

Top 3, poll: ${top3(poll)}.
Top 3, create: ${top3(create)}.

${profileTable('GET /api/v1/requests/{id}', poll)}

${profileTable('POST /api/v1/requests (with the in-process worker)', create)}
`;
}

/** `BENCH_SECTIONS_ONLY=1`: only the further sections (BENCH_ONLY filters them), printed, docs/BENCHMARKS.md untouched. */
async function runSections(): Promise<string[]> {
  const only = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
  const sections: string[] = [];
  for (const section of benchSections) {
    if (only.length > 0 && !only.includes(section.name)) continue;
    process.stderr.write(`bench section: ${section.name}\n`);
    sections.push(await section.run());
  }
  return sections;
}

async function main(): Promise<void> {
  if (process.env.BENCH_SECTIONS_ONLY) {
    process.stdout.write((await runSections()).join('\n\n'));
    return;
  }
  const rounds: Round[] = [];
  let overhead: Overhead | undefined;
  for (let index = 0; index < roundCount; index += 1) {
    const base = await baseline();
    const measured = await gateway(index === roundCount - 1);
    overhead ??= measured.overhead;
    rounds.push({ base, create: measured.create, poll: measured.poll, allFinished: measured.allFinished, drainMs: measured.drainMs, ...(await floors()) });
  }
  const profile = process.env.BENCH_PROFILE ? `\n${await profileSection()}` : '';
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

${embeddedSection(rounds, overhead!)}${profile}`;
  // `BENCH_SKIP_SECTIONS=1`: the embedded figures alone, printed; docs/BENCHMARKS.md is left as it is.
  if (process.env.BENCH_SKIP_SECTIONS) {
    process.stdout.write(report);
    return;
  }
  // Each further section measures its own target after these (bench/sections/index.ts).
  const full = [report, ...(await runSections())].join('\n\n');
  await writeFile(join(root, 'docs/BENCHMARKS.md'), full);
  process.stdout.write(full);
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack}\n`);
  process.exit(1);
});
