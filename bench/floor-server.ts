/**
 * Floors: hand-written minimal servers on the gateway's own stack (Koa, @koa/router, better-sqlite3), each
 * doing the least that a poll or a create must do and nothing else: no auth, validation, pricing, metrics or
 * worker. They answer with the gateway's response shapes, so the bench can tell how much of the gap to the
 * bare-Koa baseline is the stack itself and how much is the gateway's own work.
 *
 *   FLOOR=poll-shape   the poll route and its response body, no database
 *   FLOOR=poll-sqlite  the same plus one prepared point read of a request row (WAL, as the gateway opens it)
 *   FLOOR=create-sqlite  read the JSON body, insert one row (writes of a tick share a transaction), answer 202
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import Koa from 'koa';
import { Router } from '@koa/router';

const floor = process.env.FLOOR ?? 'poll-shape';
const folder = mkdtempSync(join(tmpdir(), 'mediagate-floor-'));
const db = new Database(join(folder, 'floor.sqlite'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec(`CREATE TABLE requests (id varchar(40) PRIMARY KEY, api_key_id varchar(40) NOT NULL, operation varchar(100) NOT NULL,
  status varchar(16) NOT NULL, billable_credits integer NOT NULL, input text, output text, error_message text,
  created_at_ms bigint NOT NULL, started_at_ms bigint, completed_at_ms bigint, data_removed_at_ms bigint)`);
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

// Writes of one tick share a transaction, as the gateway's group commit does.
let pendingRows: unknown[][] = [];
let pendingAnswers: (() => void)[] = [];
const flush = db.transaction((rows: unknown[][]) => {
  for (const values of rows) insert.run(...values);
});
function write(values: unknown[]): Promise<void> {
  return new Promise((resolve) => {
    if (pendingRows.length === 0) {
      setImmediate(() => {
        const rows = pendingRows;
        const answers = pendingAnswers;
        pendingRows = [];
        pendingAnswers = [];
        flush(rows);
        for (const answer of answers) answer();
      });
    }
    pendingRows.push(values);
    pendingAnswers.push(resolve);
  });
}

const router = new Router();
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
  await write([id, 'key_floor', body.operation, 'queued', 2, JSON.stringify(body.input), null, Date.now()]);
  ctx.status = 202;
  ctx.body = { id, status: 'queued', operation: body.operation, poll_after_ms: 20, urls: { get: `${publicUrl}/api/v1/requests/${id}` } };
});

const app = new Koa();
app.use(router.routes());
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.(seededId));
process.on('SIGTERM', () =>
  server.close(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
    process.exit(0);
  }),
);
