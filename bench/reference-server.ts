/**
 * The reference (issue 18, target 5): the server a team would hand-roll instead of running mediagate, built the
 * usual way — Koa + @koa/router + ajv + BullMQ on Redis — with the gateway's request shapes:
 *
 *   POST /api/v1/requests      {operation, input} validated by ajv (test.echo's input schema), one BullMQ job,
 *                              202 with the gateway's accepted response
 *   GET  /api/v1/requests/:id  its state (BullMQ's getState script), then the job (HGETALL), as a request object
 *
 * and a BullMQ worker in the same process that finishes each job at once, like the gateway's instant test
 * provider. It does none of the gateway's duties: no authentication, credits, ledger, idempotency or metrics, and
 * no durable write (the bench's Redis keeps jobs in memory: no AOF, no snapshots). It tells its parent which Redis
 * client it uses once it listens; SIGTERM removes its queue from Redis.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type JSONSchemaType } from 'ajv';
import { createIORedisClient, Queue, RedisConnection, Worker, type Job, type JobState, type RedisOptions } from 'bullmq';
import Koa from 'koa';
import { Router } from '@koa/router';
import getRawBody from 'raw-body';
import { parse } from 'yaml';
import { Redis } from 'ioredis';

type Input = { message: string; size?: 'small' | 'large'; script?: Record<string, unknown> };
type CreateBody = { operation: 'test.echo'; input: Input };
type Output = { status: 'succeeded'; echo: string };

// The gateway validates test.echo's input with this manifest's schema; the reference compiles the same one, so
// both sides pay for the same validation.
const manifest = parse(readFileSync(new URL('../test/fixtures/manifests/test.echo.yaml', import.meta.url), 'utf8')) as {
  input: JSONSchemaType<Input>;
  polling: { first_after_ms: number };
};
const validateCreate = new Ajv({ allErrors: true, useDefaults: true }).compile<CreateBody>({
  type: 'object',
  additionalProperties: false,
  required: ['operation', 'input'],
  properties: { operation: { type: 'string', const: 'test.echo' }, input: manifest.input },
} as JSONSchemaType<CreateBody>);

// BullMQ 6 leaves the Redis driver to the application (ioredis and node-redis are optional peer dependencies);
// ioredis is its documented default and what a team would pick.
RedisConnection.clientFactory = (options: RedisOptions) => createIORedisClient(new Redis(options));

const connection = { host: process.env.REDIS_HOST ?? '127.0.0.1', port: Number(process.env.REDIS_PORT ?? 6379) };
// One queue per process, so runs never share keys; SIGTERM obliterates it.
const queueName = `mediagate-bench-reference-${process.pid}`;
const publicUrl = `http://127.0.0.1:${process.env.PORT}`;
const queue = new Queue<Input, Output>(queueName, {
  connection,
  // Finished jobs stay readable for polling for a day, as a team would bound Redis memory (BullMQ keeps every
  // finished job by default).
  defaultJobOptions: { removeOnComplete: { age: 86_400 }, removeOnFail: { age: 86_400 } },
});
const worker = new Worker<Input, Output>(queueName, async (job) => ({ status: 'succeeded', echo: job.data.message }), {
  connection,
  concurrency: Number(process.env.REFERENCE_WORKER_CONCURRENCY ?? 16),
});

const statuses: Record<JobState | 'unknown', 'queued' | 'processing' | 'succeeded' | 'failed'> = {
  waiting: 'queued',
  delayed: 'queued',
  prioritized: 'queued',
  'waiting-children': 'queued',
  unknown: 'queued',
  active: 'processing',
  completed: 'succeeded',
  failed: 'failed',
};

function requestObject(job: Job<Input, Output>, state: JobState | 'unknown') {
  const status = statuses[state];
  const terminal = status === 'succeeded' || status === 'failed';
  return {
    id: job.id,
    operation: job.name,
    status,
    createdAtMs: job.timestamp,
    startedAtMs: job.processedOn ?? null,
    completedAtMs: terminal ? job.finishedOn ?? null : null,
    errorMessage: status === 'failed' ? job.failedReason : null,
    output: job.returnvalue ?? {},
    input: job.data,
    urls: { get: `${publicUrl}/api/v1/requests/${job.id}` },
    ...(terminal ? {} : { poll_after_ms: manifest.polling.first_after_ms }),
  };
}

const router = new Router();
router.post('/api/v1/requests', async (ctx) => {
  let body: unknown;
  try {
    body = JSON.parse(await getRawBody(ctx.req, { limit: '1mb', encoding: 'utf8' }));
  } catch {
    ctx.status = 400;
    ctx.body = { error: 'the body is not JSON' };
    return;
  }
  if (!validateCreate(body)) {
    ctx.status = 422;
    ctx.body = { error: 'invalid request', details: validateCreate.errors };
    return;
  }
  const job = await queue.add(body.operation, body.input);
  ctx.status = 202;
  ctx.body = { id: job.id, status: 'queued', operation: body.operation, poll_after_ms: manifest.polling.first_after_ms, urls: { get: `${publicUrl}/api/v1/requests/${job.id}` } };
});
router.get('/api/v1/requests/:requestId', async (ctx) => {
  // The state first, then the job: the job's hash is then at least as new as the state it is reported under (read the
  // other way round, a job read while waiting could be reported as completed with no start or finish time).
  const state = await queue.getJobState(ctx.params.requestId);
  const job = await queue.getJob(ctx.params.requestId);
  if (!job) {
    ctx.status = 404;
    ctx.body = { error: 'no such request' };
    return;
  }
  ctx.set('Cache-Control', 'no-store');
  ctx.body = requestObject(job, state);
});

const app = new Koa();
app.use(router.routes());
await queue.waitUntilReady();
await worker.waitUntilReady();
const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.('ioredis'));

process.on('SIGTERM', () => {
  server.close();
  void (async () => {
    await worker.close();
    await queue.obliterate({ force: true });
    await queue.close();
    process.exit(0);
  })();
});
