/**
 * Publishing: `publish` resolves only after the broker confirmed the persistent message (publisher
 * confirms on a ConfirmChannel, `mandatory` so an unroutable message is an error rather than silently
 * dropped). A publish waits for a lost connection up to `publishTimeoutMs` (a blip is bridged), but once the
 * broker has been gone for longer than that, publishes reject at once: an API process answers its creates
 * without waiting on a broker known to be down (the request row is the outbox, see
 * lifecycle/create-request.ts). Every rejection means "not known to be queued".
 *
 * The starts published in one turn go as one message, sent once the turn is over (job-messages.ts; gathered by the
 * store's MicroBatcher, as admissions and group commits are): each caller's publish settles with that message's confirm.
 */
import { randomUUID } from 'node:crypto';
import { jobPublishSpan, spanNames, tracing } from '../observability/tracing.js';
import { MicroBatcher } from '../store/micro-batcher.js';
import { batchBody, jobBody, joinsBatch, maxJobsPerMessage, traceparentHeader } from './job-messages.js';
import { withTraceparent, type Job } from './queue-port.js';
import type { RabbitMqConnection } from './rabbitmq-connection.js';
import { connectionLostMessage, type PendingConfirm, type Session } from './rabbitmq-session.js';
import { planDelay, type DelayPlan, type Destination, type RabbitMqTopology } from './rabbitmq-topology.js';

/** Header carrying the part of a delay still to wait when a job comes out of the delay levels. */
export const remainingHeader = 'mediagate-remaining-ms';

export class RabbitMqPublisher {
  /**
   * A turn's starts, sent once the turn is over as messages of up to maxJobsPerMessage; as many at once as the turn
   * fills, so none waits for another's confirm.
   */
  private readonly starts = new MicroBatcher<Job, void>(
    async (jobs) => {
      await (jobs.length === 1 ? this.send(jobs[0], 0) : this.sendBatch(jobs));
      return jobs.map(() => ({ ok: true, value: undefined }));
    },
    { parallel: Number.POSITIVE_INFINITY, maxBatch: maxJobsPerMessage },
  );

  constructor(
    private readonly connection: RabbitMqConnection,
    private readonly topology: RabbitMqTopology,
    private readonly publishTimeoutMs: number,
  ) {}

  /** `alone`: never in one message with other jobs (a job handed back after it failed in one: see the consumer). */
  publish(job: Job, options: { delayMs?: number; alone?: boolean } = {}): Promise<void> {
    const delayMs = options.delayMs ?? 0;
    return tracing.inSpan(spanNames.publish, jobPublishSpan(job, delayMs, 'rabbitmq'), (span) => {
      const traced = withTraceparent(job, span.traceparent);
      return !options.alone && joinsBatch(traced, delayMs) ? this.starts.submit(traced) : this.send(traced, delayMs);
    });
  }

  private async send(job: Job, delayMs: number): Promise<void> {
    const { session, deadline } = await this.sessionFor();
    await this.publishOn(session, job, planDelay(delayMs, destinationOf(job), this.topology), deadline);
  }

  private async sendBatch(jobs: Job[]): Promise<void> {
    const { session, deadline } = await this.sessionFor();
    await this.sendMessage(session, this.topology.workExchange, destinationOf(jobs[0]), Buffer.from(JSON.stringify(batchBody(jobs))), {}, deadline);
  }

  /** A live session and the deadline of a publish on it; rejects at once when the broker is known to be down. */
  private async sessionFor(): Promise<{ session: Session; deadline: number }> {
    const outageSinceMs = this.connection.outageSinceMs;
    const downForMs = outageSinceMs === undefined ? 0 : Date.now() - outageSinceMs;
    // Past one timeout an outage is not a blip: waiting for it again would only add latency to every caller.
    if (downForMs > this.publishTimeoutMs) throw new Error(`RabbitMQ is unreachable (down for ${downForMs} ms); not waiting for it`);
    const deadline = Date.now() + this.publishTimeoutMs;
    return { session: await this.connection.waitForSession(deadline), deadline };
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
    return this.sendMessage(session, exchange, routingKey, Buffer.from(JSON.stringify(jobBody(job))), headers, deadline);
  }

  /** Publishes one persistent message; resolves on the broker's confirm. */
  private sendMessage(session: Session, exchange: string, routingKey: string, body: Buffer, headers: Record<string, unknown>, deadline: number): Promise<void> {
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
