/**
 * Target 5 of issue 18: mediagate beside what a team would hand-roll instead (bench/reference-server.ts: Koa +
 * @koa/router + ajv + BullMQ on Redis, the same request shapes, no auth, credits, ledger or durable write). Both
 * run the same create-then-poll scenario as the embedded rounds (bench-kit's createThenPoll), in interleaved rounds
 * whose order alternates, and every ratio is mediagate over the reference within one round.
 */
import {
  connections, createThenPoll, durationSeconds, echoCreateBody, loadChild, median, medianRange, pidsOf, roundCount, startChild, warmupSeconds,
  type CpuShare, type CreateThenPoll, type Measured,
} from '../bench-kit.js';
import { startEmbeddedGateway } from '../embedded-gateway.js';
import type { BenchSection } from './index.js';

const names = { create: 'POST /api/v1/requests', poll: 'GET /api/v1/requests/{id}' };
/** Whether mediagate's embedded worker runs on a thread of its own in these rounds (the default; the child inherits this). */
const workerThread = process.env.MEDIAGATE_WORKER_THREAD?.trim() !== 'false';
/** Enough for BullMQ's worker to keep up with the create load here: the strongest reference, not BullMQ's default of 1. */
const referenceConcurrency = 16;

async function mediagate(): Promise<CreateThenPoll> {
  const gateway = await startEmbeddedGateway();
  try {
    return await createThenPoll(gateway, names);
  } finally {
    await gateway.stop();
  }
}

async function reference(): Promise<{ run: CreateThenPoll; redisClient: string }> {
  const redis = await pidsOf('redis-server');
  if (redis.length === 0) throw new Error('the reference section needs a local Redis (redis-server on 127.0.0.1:6379) whose CPU it can count');
  const server = await startChild('bench/reference-server.ts', { REFERENCE_WORKER_CONCURRENCY: String(referenceConcurrency) });
  try {
    const run = await createThenPoll(
      {
        url: server.url,
        headers: { 'content-type': 'application/json' },
        // Redis holds the reference's queue and job state, as SQLite does inside mediagate's process.
        components: [
          { name: 'server process', pids: [server.pid] },
          { name: 'Redis', pids: redis },
        ],
      },
      names,
    );
    return { run, redisClient: server.ready };
  } finally {
    await server.stop();
  }
}

/** bench/floor-server.ts: the least a poll (one SQLite point read) or a create (one SQLite insert) costs on Koa. */
async function floors(): Promise<{ poll: Measured; create: Measured }> {
  return {
    poll: await loadChild('bench/floor-server.ts', { FLOOR: 'poll-sqlite' }, 'floor: poll, one SQLite point read', (url, id) => ({ url: `${url}/api/v1/requests/${id}` })),
    create: await loadChild('bench/floor-server.ts', { FLOOR: 'create-sqlite' }, 'floor: create, one SQLite insert', (url) => ({
      url: `${url}/api/v1/requests`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: echoCreateBody,
    })),
  };
}

interface Round {
  mediagate: CreateThenPoll;
  reference: CreateThenPoll;
  floors: { poll: Measured; create: Measured };
}
type Side = 'mediagate' | 'reference';

const microseconds = (shares: CpuShare[], component?: string) =>
  1000 * shares.filter((share) => component === undefined || share.name === component).reduce((sum, share) => sum + share.msPerCreate, 0);

/** CPU of a create accepted and finished: the create load's share plus the drain's, per create of the load. */
const createCpu = (run: CreateThenPoll, component?: string) => microseconds(run.create.cpu, component) + microseconds(run.drain.cpu, component);
const pollCpu = (run: CreateThenPoll, component?: string) => microseconds(run.poll.cpu, component);

/**
 * Creates accepted *and finished* per second: the load's creates over the load plus the drain. A worker that falls
 * behind the load (its backlog grows) does not count as throughput: the accepted rate alone would flatter it.
 */
const finishedPerSecond = (run: CreateThenPoll) => (run.create.requestsPerSecond * durationSeconds) / (durationSeconds + run.drain.ms / 1000);

interface Metric {
  label: string;
  rate(run: CreateThenPoll): number;
  latency?(run: CreateThenPoll): Measured;
}

const metrics = {
  finished: { label: 'create, accepted and finished (per s of load + drain)', rate: finishedPerSecond },
  accepted: { label: 'create, accepted (answered 202)', rate: (run) => run.create.requestsPerSecond, latency: (run) => run.create },
  poll: { label: 'poll of a finished request', rate: (run) => run.poll.requestsPerSecond, latency: (run) => run.poll },
} satisfies Record<string, Metric>;


const ratios = (rounds: Round[], metric: Metric) => rounds.map((round) => metric.rate(round.mediagate) / metric.rate(round.reference));

function throughputRow(rounds: Round[], metric: Metric): string {
  const rate = (side: Side) => Math.round(median(rounds.map((round) => metric.rate(round[side]))));
  const latency = (side: Side) => {
    if (!metric.latency) return '–';
    const runs = rounds.map((round) => metric.latency!(round[side]));
    return `${median(runs.map((run) => run.p50))} / ${median(runs.map((run) => run.p99))}`;
  };
  return `| ${metric.label} | ${rate('mediagate')} | ${rate('reference')} | **${medianRange(ratios(rounds, metric), 2, 'x')}** | ${latency('mediagate')} | ${latency('reference')} |`;
}

function cpuRow(label: string, rounds: Round[], cpu: (run: CreateThenPoll, component?: string) => number): string {
  const of = (side: Side, component?: string) => medianRange(rounds.map((round) => cpu(round[side], component)), 0);
  const ratio = medianRange(rounds.map((round) => cpu(round.mediagate) / cpu(round.reference)), 2, 'x');
  return `| ${label} | ${of('mediagate')} | ${of('reference', 'server process')} | ${of('reference', 'Redis')} | ${of('reference')} | ${ratio} |`;
}

function floorRow(label: string, rounds: Round[], floor: (round: Round) => Measured, metric: Metric): string {
  const share = (side: Side) => medianRange(rounds.map((round) => metric.rate(round[side]) / floor(round).requestsPerSecond), 2, 'x');
  const cpu = medianRange(rounds.map((round) => microseconds(floor(round).cpu, 'server process')), 0);
  return `| ${label} | ${Math.round(median(rounds.map((round) => floor(round).requestsPerSecond)))} | ${cpu} | ${share('reference')} | ${share('mediagate')} |`;
}

function verdict(rounds: Round[], metric: Metric): string {
  const values = ratios(rounds, metric);
  const value = median(values);
  const mixed = Math.min(...values) < 1 && Math.max(...values) >= 1;
  const met = value >= 1;
  return `${value.toFixed(2)}x (${met ? 'met' : 'not met'}${mixed ? (met ? ', not in every round' : ', though met in some rounds') : ''})`;
}

function report(rounds: Round[], redisClient: string): string {
  const drain = (side: Side) => medianRange(rounds.map((round) => round[side].drain.ms), 0, ' ms');
  const failures = rounds.reduce(
    (sum, round) => sum + [round.mediagate, round.reference].reduce((count, run) => count + run.create.non2xx + run.create.errors + run.poll.non2xx + run.poll.errors, 0),
    0,
  );
  return `## Side by side with what a team would build instead (issue 18, target 5)

The reference is bench/reference-server.ts, the server a team would hand-roll instead of running mediagate: Koa,
@koa/router, ajv (test.echo's input schema, compiled once) and BullMQ on the local Redis, with the gateway's request
shapes (POST /api/v1/requests: one \`queue.add\`, 202 with the accepted response; GET /api/v1/requests/{id}:
\`queue.getJobState\` then \`queue.getJob\`, a request object) and a BullMQ worker in the same process (concurrency
${referenceConcurrency}) that finishes each job at once, like mediagate's instant test provider. It has no authentication, credits,
ledger, idempotency, rate limits or metrics, and no durable write: this Redis runs without AOF or snapshots, so an
accepted job lives in memory only, where mediagate commits the request, its ledger entry and the debit to SQLite
before it answers. Redis client: ${redisClient}.

**Method**: ${rounds.length} round(s); each runs mediagate (\`mediagate start all\`, embedded, its default worker concurrency, its worker ${workerThread ? 'on a thread of its own' : 'on the HTTP thread'}) and
the reference back to back, alternating which goes first, then the two SQLite floors. Both sides run the embedded
rounds' scenario: ${warmupSeconds} s of creates unmeasured and their backlog finished, ${durationSeconds} s of creates measured at ${connections} connections,
then the drain (a create sent right after the load, polled until terminal: the worker's backlog), then ${warmupSeconds} + ${durationSeconds} s
of polls of that finished request. Ratios are mediagate over the reference within a round, median (range); the
machine is shared and was busy, so read the ratios, not the rates. Non-2xx answers and errors: ${failures}.

| measure | mediagate /s | reference /s | mediagate / reference | mediagate p50 / p99 ms | reference p50 / p99 ms |
|---|---|---|---|---|---|
${throughputRow(rounds, metrics.finished)}
${throughputRow(rounds, metrics.accepted)}
${throughputRow(rounds, metrics.poll)}

Drain after the create load: mediagate ${drain('mediagate')}, the reference ${drain('reference')}.${behind(rounds)}

**Where each side spends.** Server-side CPU per request in µs (user + system from /proc): mediagate's one process
(HTTP, auth, rate limits, validation, pricing, SQLite, metrics, the in-process queue and worker); the reference's
process (HTTP, validation, BullMQ's client side, the worker) plus redis-server (BullMQ's Lua scripts, the job hashes
and lists). A create counts the load and its drain: the cost of a create accepted *and* finished.

| request | mediagate | reference: server process | reference: Redis | reference: total | mediagate / reference |
|---|---|---|---|---|---|
${cpuRow('create (accepted and finished)', rounds, createCpu)}
${cpuRow('poll', rounds, pollCpu)}

**Beside the floors** (bench/floor-server.ts, same rounds: Koa + @koa/router + one SQLite statement, nothing else):

| floor | req/s | server CPU per request, µs | reference / floor | mediagate / floor |
|---|---|---|---|---|
${floorRow('poll: one SQLite point read', rounds, (round) => round.floors.poll, metrics.poll)}
${floorRow('create: one SQLite insert, 202 (vs creates accepted and finished)', rounds, (round) => round.floors.create, metrics.finished)}

Goal (issue 18, target 5): mediagate at >= 1.0x the reference's create and poll throughput. Create, accepted and
finished: ${verdict(rounds, metrics.finished)}; create, accepted only: ${verdict(rounds, metrics.accepted)}; poll: ${verdict(rounds, metrics.poll)}.

${explanation(rounds)}`;
}

/** Which worker fell behind its create load, and what that does to the accepted rate. */
function behind(rounds: Round[]): string {
  const drained = (side: Side) => median(rounds.map((round) => round[side].drain.ms));
  const ratio = drained('mediagate') / drained('reference');
  if (ratio >= 2) {
    return ` mediagate answers creates faster than its worker finishes them: its one
event loop serves the ${connections} connections first and finishes the backlog after the load, so its accepted rate counts work it
has not done yet.`;
  }
  if (ratio <= 0.5) return ` The reference's worker fell behind the load more than mediagate's: its accepted rate counts work it had not done yet.`;
  return '';
}

/** The ceilings the CPU split sets, and what each side does per request that the other does not. */
function explanation(rounds: Round[]): string {
  const of = (cpu: (run: CreateThenPoll, component?: string) => number, side: Side, component?: string) => Math.round(median(rounds.map((round) => cpu(round[side], component))));
  const perSecond = (microseconds: number) => Math.round(1_000_000 / microseconds);
  const ours = { create: of(createCpu, 'mediagate'), poll: of(pollCpu, 'mediagate') };
  const node = { create: of(createCpu, 'reference', 'server process'), poll: of(pollCpu, 'reference', 'server process') };
  const redis = { create: of(createCpu, 'reference', 'Redis'), poll: of(pollCpu, 'reference', 'Redis') };
  const floorPoll = Math.round(median(rounds.map((round) => microseconds(round.floors.poll.cpu, 'server process'))));
  const reference = { create: of(createCpu, 'reference'), poll: of(pollCpu, 'reference') };
  const referenceShare = median(rounds.map((round) => round.reference.poll.requestsPerSecond / round.floors.poll.requestsPerSecond));
  const targetTwo =
    referenceShare <= 0.9
      ? `The reference's polls ran at ${referenceShare.toFixed(2)}x the floor's, so a mediagate meeting issue 18's target 2 (poll >= 0.9x the
SQLite floor) would meet this goal's poll too.`
      : `The reference's polls ran at ${referenceShare.toFixed(2)}x the floor's, beyond issue 18's target 2 (poll >= 0.9x the SQLite floor).`;
  // Matching the reference's rate on this machine takes about its CPU per request: how much room that leaves above the floor.
  const againstFloor =
    reference.poll < floorPoll
      ? `That is less than the poll floor's Koa process spends on one SQLite point read and nothing else (${floorPoll} µs): at
the reference's CPU per poll, mediagate would have to answer a poll (key, rate limit, two reads, ETag, log, metrics) for
less than any Koa server on in-process SQLite spends on the read alone.`
      : `The poll floor's Koa process spends ${floorPoll} µs on one SQLite point read and nothing else, mediagate ${ours.poll - floorPoll} µs more;
at the reference's CPU per poll mediagate would have ${reference.poll - floorPoll} µs above that floor for the API key, the rate limiter, the
ledger read, the ETag, the access log and the metrics.`;
  return `**Why.** Each side's busiest thread sets its ceiling. mediagate's server side is one process${workerThread ? ` with two threads: the worker
(claims, provider calls, finishes) on a thread of its own (\`worker.thread\`, the default), everything else on the HTTP thread:
keys, rate limits, admissions, answers. A poll is the HTTP thread's alone, so at ${ours.poll} µs per poll it can answer at most
about ${perSecond(ours.poll)} polls/s, however idle the other core is; a finished create costs ${ours.create} µs across both threads, of which the
HTTP thread's share (about four fifths) sets its ceiling.` : `: HTTP, SQLite and the
worker share one JavaScript thread (\`worker.thread\` off), so at ${ours.create} µs per finished create and ${ours.poll} µs per poll (medians above) it can
finish at most about ${perSecond(ours.create)} creates/s or answer ${perSecond(ours.poll)} polls/s, however idle the other core is.`} The reference
spreads the same requests over two processes: its Node process (${node.create} µs per finished create, ${node.poll} µs per poll:
ceilings near ${perSecond(node.create)} and ${perSecond(node.poll)}/s) and redis-server (${redis.create} and ${redis.poll} µs), which runs on the other core; below
those ceilings its rate is set by the Redis round trips each request waits for (one per create, two per poll, more
for the worker), which is why it moves most with the machine's load. What mediagate does per request that the
reference does not: look up and check the API key; apply the rate limiter; bound the JSON body; price the request;
commit the request row with its ledger entry and the debit (creates arriving together share one COMMIT); log
and count every request (access log, Prometheus); on the worker, claim the request with a lease, call the provider
through its circuit breaker and commit the finish (status, output, settlement); on a poll, read the request's ledger
rows for \`credits\`, compute the ETag and send a response about twice the size. What the reference does that
mediagate does not: msgpack and Lua on every job (BullMQ's scripts keep the job hash, the wait and active lists,
the completed set and an events stream), two Redis round trips per poll. Per request, all processes counted, the
reference spends ${reference.create} µs on a finished create and ${reference.poll} µs on a poll. ${againstFloor} ${targetTwo}
`;
}

export const referenceSection: BenchSection = {
  name: 'reference',
  async run() {
    const rounds: Round[] = [];
    let redisClient = '';
    const runReference = async () => {
      const measured = await reference();
      redisClient = measured.redisClient;
      return measured.run;
    };
    for (let index = 0; index < roundCount; index += 1) {
      // Alternating the order keeps a drift of this shared machine's speed from favouring one side.
      const [first, second] = index % 2 === 0 ? [mediagate, runReference] : [runReference, mediagate];
      const one = await first();
      const other = await second();
      const [ours, theirs] = index % 2 === 0 ? [one, other] : [other, one];
      rounds.push({ mediagate: ours, reference: theirs, floors: await floors() });
    }
    return report(rounds, redisClient);
  },
};
