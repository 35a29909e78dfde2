/**
 * Publishing: `publish` resolves only after the broker confirmed the persistent message (publisher
 * confirms on a ConfirmChannel, `mandatory` so an unroutable message is an error rather than silently
 * dropped). A publish waits for a lost connection up to `publishTimeoutMs` (a blip is bridged), but once the
 * broker has been gone for longer than that, publishes reject at once: an API process answers its creates
 * without waiting on a broker known to be down (the request row is the outbox, see
 * lifecycle/create-request.ts). Every rejection means "not known to be queued".
 */
import { randomUUID } from 'node:crypto';
import { jobPublishSpan, spanNames, tracing } from '../observability/tracing.js';
import { withTraceparent, type Job } from './queue-port.js';
import type { RabbitMqConnection } from './rabbitmq-connection.js';
import { connectionLostMessage, type PendingConfirm, type Session } from './rabbitmq-session.js';
import { planDelay, type DelayPlan, type Destination, type RabbitMqTopology } from './rabbitmq-topology.js';

/** Header carrying the part of a delay still to wait when a job comes out of the delay levels. */
export const remainingHeader = 'mediagate-remaining-ms';

/**
 * W3C trace context of the job (Job.traceparent), under the header name the amqplib instrumentation also reads and
 * writes: when it is on, it replaces the value with its own publish span's, a child of ours in the same trace.
 */
export const traceparentHeader = 'traceparent';

export class RabbitMqPublisher {
  constructor(
    private readonly connection: RabbitMqConnection,
    private readonly topology: RabbitMqTopology,
    private readonly publishTimeoutMs: number,
  ) {}

  publish(job: Job, options: { delayMs?: number } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    return tracing.inSpan(spanNames.publish, jobPublishSpan(job, delayMs, 'rabbitmq'), (span) => this.send(withTraceparent(job, span.traceparent), delayMs));
  }

  private async send(job: Job, delayMs: number): Promise<void> {
    const outageSinceMs = this.connection.outageSinceMs;
    const downForMs = outageSinceMs === undefined ? 0 : Date.now() - outageSinceMs;
    // Past one timeout an outage is not a blip: waiting for it again would only add latency to every caller.
    if (downForMs > this.publishTimeoutMs) throw new Error(`RabbitMQ is unreachable (down for ${downForMs} ms); not waiting for it`);
    const deadline = Date.now() + this.publishTimeoutMs;
    const session = await this.connection.waitForSession(deadline);
    await this.publishOn(session, job, planDelay(delayMs, destinationOf(job), this.topology), deadline);
  }

  /** Sends a job that came out of the delay levels with `remainingMs` still to wait through them again. */
  async continueWait(job: Job, remainingMs: number): Promise<void> {
    const deadline = Date.now() + this.publishTimeoutMs;
    const session = await this.connection.waitForSession(deadline);
    await this.publishOn(session, job, planDelay(remainingMs, destinationOf(job), this.topology), deadline);
  }

  private publishOn(session: Session, job: Job, delay: DelayPlan | undefined, deadline: number): Promise<void> {
    const exchange = delay ? delay.exchange : this.topology.workExchange;
    const routingKey = delay ? delay.routingKey : destinationOf(job);
    const headers = {
      ...(delay && delay.remainingMs > 0 ? { [remainingHeader]: delay.remainingMs } : {}),
      // Through the delay levels too: dead-lettering keeps a message's headers.
      ...(job.traceparent ? { [traceparentHeader]: job.traceparent } : {}),
    };
    const body = Buffer.from(JSON.stringify(messageOf(job)));
    const messageId = randomUUID();
    return new Promise<void>((resolve, reject) => {
      let settled = false;
      const entry: PendingConfirm = { fail: (error) => settle(error) };
      const timer = setTimeout(() => settle(new Error(`RabbitMQ did not confirm the publish within ${this.publishTimeoutMs} ms`)), Math.max(0, deadline - Date.now()));
      function settle(error?: Error): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        session.pending.delete(entry);
        session.returned.delete(messageId);
        if (error) reject(error);
        else resolve();
      }
      if (session.isLost) return settle(new Error('RabbitMQ connection lost before publishing'));
      session.pending.add(entry);
      try {
        session.publisher.publish(
          exchange,
          routingKey,
          body,
          { persistent: true, mandatory: true, messageId, contentType: 'application/json', headers },
          (error: unknown) => {
            // amqplib fails a closed channel's unconfirmed publishes with "channel closed" (before or after
            // the connection's own close event, depending on which side went first).
            if (error && (session.isLost || (error instanceof Error && error.message === 'channel closed'))) settle(new Error(connectionLostMessage));
            else if (error) settle(new Error(`RabbitMQ did not accept the publish: ${error instanceof Error ? error.message : String(error)}`));
            // The broker sends basic.return before the confirm of an unroutable mandatory message.
            else if (session.returned.has(messageId)) settle(new Error(`RabbitMQ could not route the job to a queue via ${exchange} (${routingKey}); is the topology deleted?`));
            else settle();
          },
        );
      } catch (error) {
        settle(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }
}

/** Polls go to the poll queue, everything else (starts) to the work queue. */
export function destinationOf(job: Job): Destination {
  return job.poll === undefined ? 'work' : 'poll';
}

/**
 * What a message carries of a job. A start carries its admitted row (queue-port.ts); a poll's known row stays in the
 * worker that holds the poll.
 */
function messageOf(job: Job): Pick<Job, 'requestId' | 'poll' | 'dueAtMs' | 'known'> {
  if (job.poll !== undefined) return { requestId: job.requestId, poll: job.poll, dueAtMs: job.dueAtMs };
  return job.known !== undefined ? { requestId: job.requestId, known: job.known } : { requestId: job.requestId };
}
