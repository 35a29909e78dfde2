/**
 * What a RabbitMQ message carries: one job, or the starts one turn of a process published, as one message.
 *
 * A job through a quorum queue costs the broker a log write and a sync shared by whatever arrived together, so at a
 * gateway's rate a message costs it several times what it costs at full speed (docs/performance-notes.md, section 3:
 * 0.44-0.56 ms of RabbitMQ's CPU per message at 960 messages/s, 1.1-1.2 ms per message at 96/s that carry ten
 * jobs each). The creates one admission batch answers publish their starts in the same turn; sent as one message
 * they cost the broker one publish, one confirm, one delivery and one ack (rabbitmq-publisher.ts gathers them,
 * rabbitmq-consumer.ts runs each job of a batch in its lane as if delivered alone).
 *
 * Only starts go together: they are due now and go to the same queue. A delayed job, a poll and a job carrying a trace
 * context (its publish span and the broker's are one chain per job) go alone, as before.
 */
import type { ConsumeMessage } from 'amqplib';
import { tracing } from '../observability/tracing.js';
import { withTraceparent, type Job } from './queue-port.js';

/**
 * The most jobs one message carries. A consumer's prefetch counts messages, so a worker may hold this many times its
 * prefetch in jobs (the extra ones wait in it for a slot); kept small so that jobs spread over workers all the same.
 */
export const maxJobsPerMessage = 16;

/**
 * W3C trace context of the job (Job.traceparent), under the header name the amqplib instrumentation also reads and
 * writes: when it is on, it replaces the value with its own publish span's, a child of ours in the same trace.
 */
export const traceparentHeader = 'traceparent';

type JobFields = Pick<Job, 'requestId' | 'poll' | 'dueAtMs' | 'known'>;

/**
 * What a message carries of a job. A start carries its admitted row (queue-port.ts); a poll's known row stays in the
 * worker that holds the poll. The trace context goes in a header (traceparentHeader).
 */
export function jobBody(job: Job): JobFields {
  if (job.poll !== undefined) return { requestId: job.requestId, poll: job.poll, dueAtMs: job.dueAtMs };
  return job.known !== undefined ? { requestId: job.requestId, known: job.known } : { requestId: job.requestId };
}

/** Whether `job` may go in one message with other starts of its turn (see above). */
export function joinsBatch(job: Job, delayMs: number): boolean {
  return delayMs === 0 && job.poll === undefined && job.traceparent === undefined;
}

/** The body of a message carrying several starts: `{ "jobs": [<job body>, ...] }`. */
export function batchBody(jobs: readonly Job[]): { jobs: JobFields[] } {
  return { jobs: jobs.map(jobBody) };
}

/**
 * The jobs `message` carries, one or several; undefined when it is malformed (not JSON, or a job without a request
 * id), which the consumer dead-letters whole.
 */
export function parseJobs(message: ConsumeMessage): Job[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(message.content.toString('utf8'));
  } catch {
    return undefined;
  }
  const header: unknown = message.properties.headers?.[traceparentHeader];
  const traceparent = tracing.nearest(typeof header === 'string' ? header : Buffer.isBuffer(header) ? header.toString('latin1') : undefined);
  const entries = typeof body === 'object' && body !== null && Array.isArray((body as { jobs?: unknown }).jobs) ? (body as { jobs: unknown[] }).jobs : [body];
  if (entries.length === 0) return undefined;
  const jobs: Job[] = [];
  for (const entry of entries) {
    const job = jobOf(entry);
    if (!job) return undefined;
    jobs.push(withTraceparent(job, traceparent));
  }
  return jobs;
}

function jobOf(entry: unknown): Job | undefined {
  if (typeof entry !== 'object' || entry === null) return undefined;
  const { requestId, poll, dueAtMs, known } = entry as Job;
  if (typeof requestId !== 'string' || requestId === '') return undefined;
  // Whole literals, not a spread of the optional field: on Node 20 a property added by a spread costs per message.
  if (!(Number.isSafeInteger(poll) && poll! >= 0)) return typeof known === 'string' ? { requestId, known } : { requestId };
  return Number.isSafeInteger(dueAtMs) ? { requestId, poll, dueAtMs } : { requestId, poll };
}
