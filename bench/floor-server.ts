/**
 * Floors: hand-written minimal servers on the gateway's own stack (Koa, @koa/router, better-sqlite3), each
 * doing the least that a poll or a create must do and nothing else: no auth, validation, pricing, metrics or
 * worker. They answer with the gateway's response shapes, so the bench can tell how much of the gap to the
 * bare-Koa baseline is the stack itself and how much is the gateway's own work.
 *
 *   FLOOR=poll-shape   the poll route and its response body, no database
 *   FLOOR=poll-sqlite  the same plus one prepared point read of a request row (WAL, as the gateway opens it)
 *   FLOOR=poll-guarded  the same plus what any authenticated, metered, conditional poll adds, written as plainly as
 *                     possible: an API key checked by its SHA-256 in a map, a generated X-Request-Id, a Prometheus
 *                     counter and histogram per answer, an ETag from the state (If-None-Match -> 304), and the
 *                     gateway's whole answer (poll_after_ms and the credits block, its ledger rows kept in memory)
 *   FLOOR=create-sqlite  read the JSON body, insert one row (writes of a tick share a transaction), answer 202
 *   FLOOR=create-guarded  the same plus what any create of a credit-charging job gateway must do, as plainly as
 *                     possible: the API key, the metrics and the request id as poll-guarded, the input validated by
 *                     ajv against test.echo's manifest schema, the debit and a ledger row committed with the request,
 *                     and a worker in the process that claims the job and finishes it (one write each, batched per
 *                     tick like the admissions)
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { readFileSync } from 'node:fs';
import { Router } from '@koa/router';
import { Ajv } from 'ajv';
import { Counter, Histogram, Registry } from 'prom-client';
import { parse } from 'yaml';

const floor = process.env.FLOOR ?? 'poll-shape';
const folder = mkdtempSync(join(tmpdir(), 'mediagate-floor-'));
const db = new Database(join(folder, 'floor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE requests (id varchar(40) PRIMARY KEY, api_key_id varchar(40) NOT NULL, operation varchar(100) NOT NULL,
  status varchar(16) NOT NULL, billable_credits integer NOT NULL, input text, output text, error_message text,
  created_at_ms bigint NOT NULL, started_at_ms bigint, completed_at_ms bigint, data_removed_at_ms bigint)`);
db.exec(`CREATE TABLE accounts (id varchar(40) PRIMARY KEY, credits_balance integer NOT NULL);
  CREATE TABLE credit_ledger (id integer PRIMARY KEY, account_id varchar(40) NOT NULL, request_id varchar(40) NOT NULL, kind varchar(16) NOT NULL,
    amount integer NOT NULL, created_at_ms bigint NOT NULL);
  INSERT INTO accounts VALUES ('acct_floor', 1000000000000);`);
const insert = db.prepare('INSERT INTO requests (id, api_key_id, operation, status, billable_credits, input, output, created_at_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
const seededId = 'req_0mwsh787ctorza6i303pbjsaf';
insert.run(seededId, 'key_floor', 'test.echo', 'succeeded', 2, '{"message":"benchmark"}', '{"status":"succeeded","echo":"benchmark"}', Date.now());
const read = db.prepare(
  'SELECT id, operation, status, billable_credits, input, output, error_message, created_at_ms, started_at_ms, completed_at_ms, data_removed_at_ms FROM requests WHERE id = ? AND api_key_id = ?',
);
const publicUrl = `http://127.0.0.1:${process.env.PORT}`;

type Row = Record<string, unknown>;
// The poll-shape floor answers this row, read once here instead of per request.
const stored = read.get(seededId, 'key_floor') as Row;

function requestObject(row: Row) {
  return {
    id: row.id,
    operation: row.operation,
    status: row.status,
    billableCredits: row.billable_credits,
    createdAtMs: row.created_at_ms,
    startedAtMs: row.started_at_ms,
    completedAtMs: row.completed_at_ms,
    errorMessage: null,
    output: JSON.parse(String(row.output)),
    input: JSON.parse(String(row.input)),
    dataRemovedAtMs: row.data_removed_at_ms,
    urls: { get: `${publicUrl}/api/v1/requests/${row.id}` },
  };
}

// poll-guarded: one API key, checked as a gateway keeps keys (their SHA-256, never the key itself).
const floorKey = 'mg_floor_key';
const keysByHash = new Map([[createHash('sha256').update(floorKey).digest('base64url'), { apiKeyId: 'key_floor', accountId: 'acct_floor', scopes: ['requests:read', 'requests:write'] }]]);
const registry = new Registry();
const answered = new Counter({ name: 'floor_http_requests_total', help: 'answers', labelNames: ['method', 'route', 'status'], registers: [registry] });
const latency = new Histogram({
  name: 'floor_http_request_duration_seconds',
  help: 'latency',
  labelNames: ['method', 'route', 'status'],
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});
// The seeded request's ledger: a finished request's entries never change, so the gateway keeps them too.
const ledgerEntries = [{ kind: 'debit', amount: -2, note: null, atMs: Number(stored.created_at_ms) }];
const stateTag = (row: Row) =>
  createHash('sha1')
    .update(JSON.stringify([row.status, row.billable_credits, row.started_at_ms, row.completed_at_ms, row.data_removed_at_ms, row.error_message, row.output]))
    .digest('base64url')
    .slice(0, 22);

async function guard(ctx: Koa.Context, next: Koa.Next): Promise<void> {
  const startedAt = performance.now();
  ctx.set('X-Request-Id', randomUUID());
  try {
    const presented = ctx.get('x-api-key');
    const key = presented ? keysByHash.get(createHash('sha256').update(presented).digest('base64url')) : undefined;
    if (!key?.scopes.includes(ctx.method === 'GET' ? 'requests:read' : 'requests:write')) {
      ctx.status = 401;
      ctx.body = { error: { code: 'MG_UNAUTHENTICATED' } };
      return;
    }
    ctx.state.apiKeyId = key.apiKeyId;
    ctx.state.accountId = key.accountId;
    await next();
  } finally {
    const route = String((ctx as Koa.Context & { _matchedRoute?: string })._matchedRoute ?? 'unmatched');
    answered.labels(ctx.method, route, String(ctx.status)).inc();
    latency.labels(ctx.method, route, String(ctx.status)).observe((performance.now() - startedAt) / 1000);
  }
}

function guardedPoll(ctx: Koa.Context): void {
  const row = read.get(ctx.params.requestId, ctx.state.apiKeyId) as Row | undefined;
  if (!row) return void (ctx.status = 404);
  const tag = stateTag(row);
  ctx.set('ETag', `W/"${tag}"`);
  ctx.set('Cache-Control', 'private, no-cache');
  ctx.vary('Prefer');
  if (ctx.get('if-none-match') === `W/"${tag}"`) return void (ctx.status = 304);
  const charged = -ledgerEntries.reduce((sum, entry) => sum + Math.min(entry.amount, 0), 0);
  const refunded = ledgerEntries.reduce((sum, entry) => sum + Math.max(entry.amount, 0), 0);
  ctx.body = { ...requestObject(row), poll_after_ms: 20, credits: { charged, refunded, net: charged - refunded, entries: ledgerEntries } };
}

// Writes of one tick share a transaction, as the gateway's group commit does.
let pendingWrites: (() => void)[] = [];
let pendingAnswers: (() => void)[] = [];
const flush = db.transaction((writes: (() => void)[]) => {
  for (const work of writes) work();
});
function write(work: () => void): Promise<void> {
  return new Promise((resolve) => {
    if (pendingWrites.length === 0) {
      setImmediate(() => {
        const writes = pendingWrites;
        const answers = pendingAnswers;
        pendingWrites = [];
        pendingAnswers = [];
        flush(writes);
        for (const answer of answers) answer();
      });
    }
    pendingWrites.push(work);
    pendingAnswers.push(resolve);
  });
}

// create-guarded: test.echo's input schema from its manifest, as the gateway and the reference server validate it.
const echoInput = (parse(readFileSync(new URL('../test/fixtures/manifests/test.echo.yaml', import.meta.url), 'utf8')) as { input: object }).input;
const validateCreate = new Ajv({ allErrors: true, useDefaults: true }).compile({
  type: 'object',
  additionalProperties: false,
  required: ['operation', 'input'],
  properties: { operation: { type: 'string', const: 'test.echo' }, input: echoInput },
});
const debit = db.prepare('UPDATE accounts SET credits_balance = credits_balance - ? WHERE id = ? AND credits_balance >= ?');
const appendLedger = db.prepare('INSERT INTO credit_ledger (account_id, request_id, kind, amount, created_at_ms) VALUES (?, ?, ?, ?, ?)');
const claim = db.prepare(`UPDATE requests SET status = 'processing', started_at_ms = ? WHERE id = ? AND status = 'queued'`);
const finish = db.prepare(`UPDATE requests SET status = 'succeeded', output = ?, completed_at_ms = ? WHERE id = ? AND status = 'processing'`);

/** The in-process worker of create-guarded: claims the job, runs the instant provider, finishes it. */
async function work(id: string, input: { message: string }): Promise<void> {
  await write(() => claim.run(Date.now(), id));
  const output = JSON.stringify({ status: 'succeeded', echo: input.message });
  await write(() => finish.run(output, Date.now(), id));
}

async function guardedCreate(ctx: Koa.Context): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { operation: string; input: { message: string } };
  if (!validateCreate(body)) {
    ctx.status = 422;
    ctx.body = { error: { code: 'MG_VALIDATION_FAILED', errors: validateCreate.errors } };
    return;
  }
  const id = `req_${randomUUID().replaceAll('-', '')}`;
  const now = Date.now();
  let charged = false;
  await write(() => {
    charged = debit.run(2, ctx.state.accountId, 2).changes === 1;
    if (!charged) return;
    insert.run(id, ctx.state.apiKeyId, body.operation, 'queued', 2, JSON.stringify(body.input), null, now);
    appendLedger.run(ctx.state.accountId, id, 'debit', -2, now);
  });
  if (!charged) {
    ctx.status = 402;
    ctx.body = { error: { code: 'MG_INSUFFICIENT_CREDITS' } };
    return;
  }
  void work(id, body.input);
  ctx.status = 202;
  ctx.body = { id, status: 'queued', operation: body.operation, poll_after_ms: 20, urls: { get: `${publicUrl}/api/v1/requests/${id}` } };
}

const router = new Router();
if (floor === 'poll-guarded') router.get('/api/v1/requests/:requestId', guard, guardedPoll);
if (floor === 'create-guarded') router.post('/api/v1/requests', guard, guardedCreate);
router.get('/api/v1/requests/:requestId', (ctx) => {
  const row = floor === 'poll-sqlite' ? (read.get(ctx.params.requestId, 'key_floor') as Row | undefined) : stored;
  if (!row) return void (ctx.status = 404);
  ctx.set('Cache-Control', 'no-store');
  ctx.body = requestObject(row);
});
router.post('/api/v1/requests', async (ctx) => {
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { operation: string; input: unknown };
  const id = `req_${randomUUID().replaceAll('-', '')}`;
  await write(() => insert.run(id, 'key_floor', body.operation, 'queued', 2, JSON.stringify(body.input), null, Date.now()));
  ctx.status = 202;
  ctx.body = { id, status: 'queued', operation: body.operation, poll_after_ms: 20, urls: { get: `${publicUrl}/api/v1/requests/${id}` } };
});

const app = new Koa();
app.proxy = true;
app.use(router.routes());
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.(floor.endsWith('-guarded') ? `${seededId} ${floorKey}` : seededId));
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  }),
);
