/**
 * The worker's side of a cancel answered in another process. In production the API process that answers a client's
 * cancel is not the worker running the request's start (a local render, an upload): the canceller records the
 * cancel on the request (`cancel_requested_at_ms`) and announces the request id on the cancel notices, a fanout
 * every worker process listens to (queue/rabbitmq-change-feed.ts, topic `cancels`). A worker that runs a stoppable
 * start of a named request reads the request from the store and stops the start only when the store says a cancel
 * was asked for and the request is not finished: a notice alone, lost, repeated or forged on the broker, never
 * cancels anything. The stopped start then fails the request with the cancel's message and a full refund, exactly
 * as a cancel answered in the same process does (running-starts.ts), and the canceller, watching the row, answers.
 *
 * Notices for requests this process runs no start of cost a Map lookup and no query. Lost notices are covered
 * twice: the canceller repeats its notice while it waits, and after a reconnect (`missedSome`) every stoppable start
 * of this process is checked once.
 */
import type { Logger } from 'pino';
import type { ChangeFeed } from '../queue/index.js';
import type { RequestStore } from '../store/index.js';
import { stoppableStarts, stopStart } from './running-starts.js';

export class CancelNoticeListener {
  constructor(private readonly deps: { requests: Pick<RequestStore, 'withCancelRequested'>; log: Logger }) {}

  /** Listens to the cancel notices of every process from now on. */
  async listenTo(feed: ChangeFeed): Promise<void> {
    await feed.subscribe({
      changed: (requestIds) => void this.check(stoppableStarts(requestIds)),
      missedSome: () => void this.check(stoppableStarts()),
    });
  }

  /** Stops the starts among `requestIds` whose request the store says a client asked to cancel. */
  async check(requestIds: readonly string[]): Promise<void> {
    if (requestIds.length === 0) return;
    try {
      for (const id of await this.deps.requests.withCancelRequested(requestIds)) stopStart(id);
    } catch (error) {
      // The canceller repeats its notice while it waits; the next one reads again.
      this.deps.log.warn({ err: error, requestIds }, 'could not read the cancels asked for; the next notice tries again');
    }
  }
}
