/**
 * Target 3 of issue 18: production cost per create. 2 API + 2 worker processes with `MEDIAGATE_ENV=production` on
 * MariaDB + RabbitMQ; the CPU every process of the topology (database and broker included) spends per accepted
 * create, from one API key and from many keys on many accounts at the same total load, with nothing lost; the
 * statements each create costs (Com_* counters); and the floors MariaDB and RabbitMQ put under it on this machine.
 *
 * `BENCH_ROUNDS` rounds (ranges reported), `BENCH_SECONDS` of load per case, `BENCH_CONNECTIONS` in all (split over
 * both API processes), `BENCH_ACCOUNTS` accounts in the many-keys case (default 100). `BENCH_PROFILE=1` also profiles
 * one API process and one worker (`--cpu-prof`, stopped with SIGTERM so they write it) and lists their hottest items.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { connections, cpuPerCreate, durationSeconds, echoCreateBody, median, medianRange, pidsOf, root, roundCount, warmupSeconds } from '../bench-kit.js';
import { ownCompileCache, readProfileFrom, summarizeProfile, type ProfileSummary } from '../cpu-profile.js';
import { readStatementCounts, perUnit, type StatementCounts } from '../mysql-statements.js';
import { mariaDbCommitFloor, rabbitMqJobFloor, type Floor } from '../production-floors.js';
import type { BenchSection } from './index.js';

const accountCount = Math.max(2, Number(process.env.BENCH_ACCOUNTS ?? 100));
const profiling = process.env.BENCH_PROFILE === '1';
/**
 * The production per-key limit (1200 creates a minute) would refuse all but 20 creates/s of one key, so the
 * one-key case would measure the limiter's refusals, not creates. The limit is raised past any load this machine
 * can make instead of switched off: the production limiter still runs (and costs) exactly what it does for every
 * create, with the same shared MySQL counters; refusals are still counted and reported.
 */
const createsPerMinute = '100000000';
/** Components the target counts: the gateway's processes, its database and its broker. The load generator is apart. */
const gatewayComponents = ['API processes (2)', 'worker processes (2)', 'MariaDB', 'RabbitMQ'];
const loadGenerator = 'autocannon (load generator)';

type Topology = Awaited<ReturnType<typeof import('../../test/support/process-topology.js')['ProcessTopology']['create']>>;
type Components = { name: string; pids: number[] }[];

interface CaseRun {
  accepted: number;
  refused: number;
  errors: number;
  createsPerSecond: number;
  p50: number;
  p99: number;
  /** CPU ms per accepted create over the load and the drain after it (every accepted create finished), per component. */
  cpu: Record<string, number>;
  /** The same with each component's idle-window rate subtracted: what other work on the machine did not add. */
  netCpu: Record<string, number>;
  /** Com_* per accepted create over the same window, the idle rate subtracted. */
  statements: StatementCounts;
  /** The same, nothing subtracted: an upper bound of the gateway's own (other clients of the server count too). */
  grossStatements: StatementCounts;
  drainMs: number;
}

interface Background {
  /** CPU ms per second of wall time per component, measured with the topology idle. */
  cpuMsPerSecond: Record<string, number>;
  statementsPerSecond: StatementCounts;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function untilDrained(topology: Topology, deadlineMs = 180_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while ((await topology.ledger()).nonTerminal > 0) {
    if (Date.now() > until) throw new Error(`requests still queued or processing ${deadlineMs} ms after the load`);
    await sleep(50);
  }
}

/** What the idle topology (sweeps, lease checks) and whatever else runs on this machine spend meanwhile. */
async function background(topology: Topology, components: Components, seconds = 3): Promise<Background> {
  const before = await readStatementCounts(topology.databaseUrl);
  const started = performance.now();
  const { shares } = await cpuPerCreate(components, async () => {
    await sleep(seconds * 1000);
    return 1;
  });
  const elapsed = (performance.now() - started) / 1000;
  const after = await readStatementCounts(topology.databaseUrl);
  return {
    cpuMsPerSecond: Object.fromEntries(shares.map((share) => [share.name, share.msPerCreate / elapsed])),
    statementsPerSecond: perUnit(before, after, elapsed),
  };
}

/**
 * One case: `connections` over both API processes for `seconds`, each request with the key `keyOf` picks for it;
 * then every accepted create must be terminal. CPU and statements are counted over the load and that drain.
 */
async function loadCase(
  topology: Topology,
  apis: { url: string }[],
  components: Components,
  keyOf: (apiIndex: number, sequence: number) => string,
  seconds: number,
  idle?: Background,
): Promise<CaseRun> {
  let accepted = 0;
  let refused = 0;
  const beforeStatements = await readStatementCounts(topology.databaseUrl);
  const started = performance.now();
  let drainMs = 0;
  let results!: autocannon.Result[];
  const { shares } = await cpuPerCreate(components, async () => {
    results = await Promise.all(
      apis.map((api, apiIndex) => {
        let sequence = 0;
        return autocannon({
          url: api.url,
          connections: Math.max(1, Math.floor(connections / apis.length)),
          duration: seconds,
          requests: [
            {
              method: 'POST',
              path: '/api/v1/requests',
              body: echoCreateBody,
              setupRequest: (request) => ({ ...request, headers: { 'content-type': 'application/json', 'x-api-key': keyOf(apiIndex, sequence++) } }),
            },
          ],
          setupClient: (client) =>
            client.on('response', (statusCode: number) => {
              if (statusCode === 202) accepted += 1;
              else if (statusCode === 429) refused += 1;
            }),
        });
      }),
    );
    const drainStarted = performance.now();
    await untilDrained(topology);
    drainMs = performance.now() - drainStarted;
    return accepted;
  });
  const elapsed = (performance.now() - started) / 1000;
  const afterStatements = await readStatementCounts(topology.databaseUrl);
  const cpu = Object.fromEntries(shares.map((share) => [share.name, share.msPerCreate]));
  const netCpu = Object.fromEntries(shares.map((share) => [share.name, Math.max(0, share.msPerCreate - ((idle?.cpuMsPerSecond[share.name] ?? 0) * elapsed) / accepted)]));
  const gross = perUnit(beforeStatements, afterStatements, 1);
  const statements = Object.fromEntries(Object.entries(gross).map(([name, count]) => [name, Math.max(0, count - (idle?.statementsPerSecond[name] ?? 0) * elapsed) / accepted]));
  return {
    accepted,
    refused,
    errors: results.reduce((sum, result) => sum + result.errors + result.non2xx, 0) - refused,
    createsPerSecond: Math.round(accepted / seconds),
    p50: Math.max(...results.map((result) => result.latency.p50)),
    p99: Math.max(...results.map((result) => result.latency.p99)),
    cpu,
    netCpu,
    statements,
    grossStatements: Object.fromEntries(Object.entries(gross).map(([name, count]) => [name, count / accepted])),
    drainMs,
  };
}

interface Measurement {
  oneKey: CaseRun[];
  manyKeys: CaseRun[];
  idle: Background[];
  ledger: { accepted: number; rows: number; charged: number; billableOfNonFailed: number; doubleEntries: number; nonTerminal: number };
  /** Bare clients as fast as they go: [MariaDB commit, RabbitMQ job]. */
  floors: Floor[];
  /** The same paced at the one-key case's create rate (`pacedAt`): per-operation costs at the gateway's own rate. */
  pacedFloors: Floor[];
  pacedAt: number;
  profiles: { name: string; summary: ProfileSummary }[];
}

async function measure(): Promise<Measurement> {
  const { ProcessTopology } = await import('../../test/support/process-topology.js');
  const unavailable = { skip: () => { throw new Error('MariaDB and RabbitMQ are needed for the production scenario'); } } as unknown as Mocha.Context;
  // `BENCH_PROFILE_DIR=<folder>` keeps the profiles (<folder>/production/*.cpuprofile, for Chrome DevTools).
  const keptProfiles = profiling && process.env.BENCH_PROFILE_DIR ? join(process.env.BENCH_PROFILE_DIR, 'production') : undefined;
  if (keptProfiles) await mkdir(keptProfiles, { recursive: true });
  const profileDir = keptProfiles ?? (profiling ? await mkdtemp(join(tmpdir(), 'mediagate-prod-profile-')) : undefined);
  // The two profiled processes compile in one cache of their own (and the same modes), read back for their lines.
  const compileCache = profiling ? await ownCompileCache() : undefined;
  const topology = await ProcessTopology.create(unavailable, {
    MEDIAGATE_ENV: 'production',
    // production.yaml binds 0.0.0.0 (a container's address), which requires a public URL; the bench's clients are local.
    MEDIAGATE_HOST: '127.0.0.1',
    MEDIAGATE_RATE_LIMIT_CREATES_PER_MINUTE: createsPerMinute,
    MEDIAGATE_WORKER_CONCURRENCY: '16',
    MEDIAGATE_DATABASE_POOL_MAX: '20',
  });
  // The topology's test settings (2 s lease, 0.5 s sweep) make failover tests fast; a bench measures production's own.
  delete topology.env.MEDIAGATE_WORKER_LEASE_MS;
  delete topology.env.MEDIAGATE_SWEEP_INTERVAL_MS;
  try {
    const [single] = await topology.createAccounts(1, 1_000_000_000);
    const many = await topology.createAccounts(accountCount, 1_000_000_000);
    const profiled = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
    const apis = [await topology.start('api', undefined, compileCache?.env, profiled), await topology.start('api')];
    const workers = [await topology.start('worker', undefined, compileCache?.env, profiled), await topology.start('worker')];
    const components: Components = [
      { name: 'API processes (2)', pids: apis.map((api) => api.child.pid!) },
      { name: 'worker processes (2)', pids: workers.map((worker) => worker.child.pid!) },
      { name: 'MariaDB', pids: await pidsOf('mariadbd') },
      { name: 'RabbitMQ', pids: await pidsOf('beam.smp') },
      { name: loadGenerator, pids: [process.pid] },
    ];
    const oneKey = () => single.key;
    // Each API process walks the accounts from its own offset, so both spread their creates over all of them.
    const manyKeys = (apiIndex: number, sequence: number) => many[(sequence + apiIndex * Math.floor(accountCount / 2)) % accountCount].key;
    // Warm both paths (JIT, pools, key caches of every account) and finish their backlog before anything is measured.
    // Their creates count toward nothing-lost: the database must hold exactly the creates a client saw accepted.
    let accepted = (await loadCase(topology, apis, components, oneKey, warmupSeconds)).accepted;
    accepted += (await loadCase(topology, apis, components, manyKeys, warmupSeconds)).accepted;
    const measurement: Measurement = { oneKey: [], manyKeys: [], idle: [], ledger: undefined as never, floors: [], pacedFloors: [], pacedAt: 0, profiles: [] };
    for (let round = 0; round < roundCount; round += 1) {
      const idle = await background(topology, components);
      measurement.idle.push(idle);
      // Alternate which case goes first, so neither always runs on a warmer (or more fragmented) database.
      const order = round % 2 === 0 ? (['oneKey', 'manyKeys'] as const) : (['manyKeys', 'oneKey'] as const);
      for (const name of order) {
        const run = await loadCase(topology, apis, components, name === 'oneKey' ? oneKey : manyKeys, durationSeconds, idle);
        measurement[name].push(run);
        accepted += run.accepted;
      }
    }
    const ledger = await topology.ledger();
    const rows = await topology.countRequests();
    measurement.ledger = { accepted, rows, ...ledger };
    if (profileDir) {
      await topology.terminate(apis[0]);
      await topology.terminate(workers[0]);
      const sourceLines = await compileCache!.sourceLines();
      for (const [name, process] of [['API process', apis[0]], ['worker process', workers[0]]] as const) {
        measurement.profiles.push({ name, summary: summarizeProfile(await readProfileFrom(profileDir, process.child.pid!), root, { limit: 15, sourceLines }) });
      }
    }
    const floorSeconds = Math.min(5, durationSeconds);
    const amqpUrl = String(topology.env.MEDIAGATE_AMQP_URL);
    const floorQueue = `${topology.env.MEDIAGATE_AMQP_PREFIX}.bench-floor`;
    measurement.floors.push(await mariaDbCommitFloor(topology.databaseUrl, floorSeconds));
    measurement.floors.push(await rabbitMqJobFloor(amqpUrl, floorQueue, floorSeconds));
    // Both servers batch their syncs (InnoDB's group commit, a quorum queue's log writes): the fewer operations arrive
    // together, the more each costs. Paced at the gateway's own rate, the floors say what a create costs them there.
    measurement.pacedAt = Math.round(median(measurement.oneKey.map((run) => run.createsPerSecond)) / 10) * 10;
    measurement.pacedFloors.push(await mariaDbCommitFloor(topology.databaseUrl, floorSeconds, { perSecond: measurement.pacedAt }));
    measurement.pacedFloors.push(await rabbitMqJobFloor(amqpUrl, floorQueue, floorSeconds, { perSecond: measurement.pacedAt }));
    return measurement;
  } finally {
    await topology.stop();
    if (profileDir && !keptProfiles) await rm(profileDir, { recursive: true, force: true });
    await compileCache?.remove();
  }
}


const gatewayTotal = (cpu: Record<string, number>) => gatewayComponents.reduce((sum, name) => sum + (cpu[name] ?? NaN), 0);

function caseRows(name: string, runs: CaseRun[]): string {
  const total = runs.map((run) => gatewayTotal(run.cpu));
  const net = runs.map((run) => gatewayTotal(run.netCpu));
  return [
    `| ${name} | ${medianRange(runs.map((run) => run.createsPerSecond), 0)} | ${medianRange(runs.map((run) => run.p50), 0)} | ${medianRange(runs.map((run) => run.p99), 0)}`,
    `${medianRange(total, 2)} | ${medianRange(net, 2)} | ${medianRange(total.map((ms) => 1000 / ms), 0)} | ${medianRange(net.map((ms) => 1000 / ms), 0)}`,
    `${medianRange(runs.map((run) => run.cpu[loadGenerator] ?? NaN), 2)} | ${runs.reduce((sum, run) => sum + run.refused, 0)} | ${runs.reduce((sum, run) => sum + run.errors, 0)} |`,
  ].join(' | ');
}

function componentRows(measurement: Measurement): string {
  return [...gatewayComponents, loadGenerator]
    .map((name) => {
      const cell = (runs: CaseRun[], key: 'cpu' | 'netCpu') => medianRange(runs.map((run) => run[key][name] ?? NaN), 3);
      const idle = medianRange(measurement.idle.map((sample) => sample.cpuMsPerSecond[name] ?? NaN), 1);
      return `| ${name} | ${cell(measurement.oneKey, 'cpu')} | ${cell(measurement.oneKey, 'netCpu')} | ${cell(measurement.manyKeys, 'cpu')} | ${cell(measurement.manyKeys, 'netCpu')} | ${idle} |`;
    })
    .join('\n');
}

function statementRows(measurement: Measurement): string {
  const names = [...new Set([...measurement.oneKey, ...measurement.manyKeys].flatMap((run) => Object.keys(run.grossStatements)))].sort();
  return names
    .map((name) => {
      const least = (runs: CaseRun[]) => Math.min(...runs.map((run) => run.grossStatements[name] ?? 0)).toFixed(2);
      const net = (runs: CaseRun[]) => medianRange(runs.map((run) => run.statements[name] ?? 0), 2);
      const idle = medianRange(measurement.idle.map((sample) => sample.statementsPerSecond[name] ?? 0), 1);
      return `| ${name} | ${least(measurement.oneKey)} | ${net(measurement.oneKey)} | ${least(measurement.manyKeys)} | ${net(measurement.manyKeys)} | ${idle} |`;
    })
    .join('\n');
}

function profileSection(profiles: Measurement['profiles']): string {
  if (profiles.length === 0) return '';
  return profiles
    .map(({ name, summary }) => `
#### ${name}: largest self time (${summary.busySamples} busy samples, the whole run)

| item | % |
|---|---|
${summary.items.map((item) => `| \`${item.name.replace(/\|/g, '\\|')}\` | ${item.percent.toFixed(1)} |`).join('\n')}
`)
    .join('');
}

/** The servers' floor per create: one-key commits per create at the commit floor, plus one job through the broker as a message of its own. */
function floorOf(measured: Measurement, floors = measured.floors): number {
  const commits = Math.min(...measured.oneKey.map((run) => run.grossStatements.Com_commit ?? 0));
  return commits * (floors[0]?.serverMsPerOperation ?? NaN) + (floors[1]?.serverMsPerOperation ?? NaN);
}

/** A component's net CPU per create in the one-key case, median of the rounds. */
function oneKeyNet(measured: Measurement, component: string): number {
  return median(measured.oneKey.map((run) => run.netCpu[component] ?? NaN));
}

async function run(): Promise<string> {
  const measured = await measure();
  const { ledger } = measured;
  const cores = cpus().length;
  // autocannon stops at its deadline with up to one create in flight per connection: committed, its 202 never read.
  const inFlightAtStops = connections * 2 * (roundCount + 1);
  const unanswered = ledger.rows - ledger.accepted;
  const consistent = unanswered >= 0 && unanswered <= inFlightAtStops && ledger.nonTerminal === 0 && ledger.doubleEntries === 0 && ledger.charged === ledger.billableOfNonFailed;
  const floors = measured.floors;
  return `## Production cost per create

2 API + 2 worker processes (\`mediagate start api|worker\`, \`MEDIAGATE_ENV=production\`, worker concurrency 16) on
MariaDB (mysql2) and RabbitMQ (quorum queues, publisher confirms: a create is answered only after its admission is
committed and the broker confirmed its job). autocannon splits ${connections} connections over both API processes for
${durationSeconds} s per case, ${roundCount} round(s), cases alternating which goes first; the test.echo job is finished by
an instant provider, so a create's CPU is the gateway's own. The production per-key limit (1200 creates a minute)
stays on, raised to ${createsPerMinute} a minute so that the one-key case measures creates rather than refusals
(the limiter's SQL counter runs for every create either way; refusals are counted below).
*One key*: every create from one API key of one account. *${accountCount} accounts*: each create from the next of
${accountCount} keys on ${accountCount} accounts, same connections and duration.

CPU is user + system time from /proc of each process, from the start of the load until every create it accepted was
terminal (so a worker's share is the work of those creates), divided by the creates accepted. MariaDB and RabbitMQ
are shared with anything else this machine runs: *net* subtracts each component's rate over an idle window of the
topology measured just before the round. Figures are medians (min–max) over the rounds. Creates/s per core is
accepted creates per CPU-second of the gateway's processes, MariaDB and RabbitMQ (the load generator excluded).

| case | creates/s | p50 ms | p99 ms | CPU ms per create | net | creates/s per core | net | load generator ms per create | 429 | other errors |
|---|---|---|---|---|---|---|---|---|---|---|
${caseRows('one key', measured.oneKey)}
${caseRows(`${accountCount} accounts`, measured.manyKeys)}

Nothing lost: ${ledger.accepted} creates answered 202 (warm-up included), ${ledger.rows} requests in the database (${unanswered}
still in flight when a load run stopped, at most ${inFlightAtStops}: one per connection per run), ${ledger.nonTerminal} queued or processing after the drain; ledger: ${ledger.charged} credits charged for
${ledger.billableOfNonFailed} billable credits of the non-failed requests, ${ledger.doubleEntries} request(s) charged twice: **${consistent ? 'consistent' : 'INCONSISTENT'}**.

### Where the CPU goes, per accepted create (ms)

| component | one key | net | ${accountCount} accounts | net | idle, ms per s |
|---|---|---|---|---|---|
${componentRows(measured)}

### MySQL statements per accepted create

\`SHOW GLOBAL STATUS\` deltas over the same window per accepted create. The counters are server-wide: *raw* is the
least of the rounds with nothing subtracted (an upper bound of the gateway's own: it equals it when nothing else
runs), *net* the median with the idle window's rate subtracted (noisy when other clients' load varies):

| counter | one key, raw | net | ${accountCount} accounts, raw | net | idle, per s |
|---|---|---|---|---|---|
${statementRows(measured)}

### Floors: the database and the broker alone

Bare clients, no gateway code, same servers, right after the rounds: the server's CPU per operation, first as fast as
the clients go, then paced at the one-key case's create rate (${measured.pacedAt}/s).

| floor | operations/s | server CPU ms per operation |
|---|---|---|
${[...floors, ...measured.pacedFloors].map((floor) => `| ${floor.name} | ${floor.perSecond} | ${floor.serverMsPerOperation.toFixed(3)} |`).join('\n')}

A create's floor on these servers is its share of a commit (raw Com_commit per create above, one key: writes are
batched, and a lone statement commits by itself uncounted) times the commit floor, plus one job through the broker as a message of its own (${floors[1]?.serverMsPerOperation.toFixed(3)} ms):
${(floorOf(measured)).toFixed(2)} ms per create with one key (MariaDB's and RabbitMQ's net CPU per create above for comparison), before
any gateway process spends anything; ${cores} cores carry at most ${Math.round((cores * 1000) / floorOf(measured))} creates/s on the servers alone.

Both servers batch their syncs (InnoDB's group commit, the quorum queue's log writes), so an operation costs more the
fewer arrive together. At the gateway's own rate, the same share of a commit and one job per create cost the servers
${floorOf(measured, measured.pacedFloors).toFixed(2)} ms (MariaDB ${measured.pacedFloors[0]?.serverMsPerOperation.toFixed(3)}, RabbitMQ
${measured.pacedFloors[1]?.serverMsPerOperation.toFixed(3)}), against the gateway's net ${oneKeyNet(measured, 'MariaDB').toFixed(3)} (MariaDB, ${(Math.min(...measured.oneKey.map((run) => run.grossStatements.Questions ?? 0))).toFixed(1)} statements per create)
and ${oneKeyNet(measured, 'RabbitMQ').toFixed(3)} (RabbitMQ: the starts one turn of an API process publishes share one message, docs/rabbitmq.md, so a create's share of a message is under one; and the change notices) with one key.
${profileSection(measured.profiles)}`;
}

export const productionSection: BenchSection = { name: 'production', run };
