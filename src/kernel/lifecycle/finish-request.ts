/**
 * Finish: ONE transaction writes the terminal state and settles credits — a refund on failure, or an
 * adjustment to the exact cost on success (the manifest's credit rule re-evaluated with the usage the provider
 * measured, see kernel/credits/settlement.ts) — and queues the webhook; with nothing to settle or
 * notify, that transaction is the single terminal UPDATE. Only the lease holder finishes, so a redelivered job
 * or a second worker can never refund twice (and the ledger's unique index would refuse it anyway).
 * Retrying a finish after a lost COMMIT acknowledgement is safe for the same reason: the second try no
 * longer holds the lease (the first one cleared it) and changes nothing.
 */
import type { Logger } from 'pino';
import { settleOutput } from '../credits/index.js';
import type { OperationDefinition } from '../manifests/index.js';
import type { JsonObject } from '../plugin-sdk/index.js';
import { noProvider, type FinishOutcome, type GatewayMetrics } from '../observability/metrics.js';
import type { ArtifactLinker } from '../workspaces/artifact-links.js';
import type { ChangeNotices } from '../queue/index.js';
import { terminalStatuses, withTransientRetry, type AccountStore, type Executor, type RequestRecord, type RequestStore } from '../store/index.js';
import { cancelledMessage } from './running-starts.js';

export interface FinishDeps {
  requests: RequestStore;
  accounts: AccountStore;
  clock: { now(): number };
  log: Logger;
  metrics?: GatewayMetrics;
  /** Writes the webhook outbox row of a finished request, inside the finishing transaction. */
  outbox?: (tx: Executor, request: RequestRecord, eventType: 'request.succeeded' | 'request.failed', atMs: number) => Promise<void>;
  /** Links a succeeded request's artifacts to the workspace objects its input names, inside the finishing transaction. */
  workspaceLinks?: Pick<ArtifactLinker, 'wantsLinks' | 'linkAtFinish'>;
  /** Told of each committed finish, for the clients waiting on the request (long polls, event streams). */
  changes?: ChangeNotices;
}

export class RequestFinisher {
  constructor(private readonly deps: FinishDeps) {}

  async succeed(request: RequestRecord, worker: string, definition: OperationDefinition, reported: JsonObject): Promise<boolean> {
    const settlement = settleOutput(definition.manifest.credits, request, reported);
    const problems = 'problem' in settlement ? [settlement.problem] : definition.checkOutput(settlement.output);
    if ('problem' in settlement || problems.length > 0) {
      return this.fail(request, worker, `the provider returned malformed output: ${problems.slice(0, 3).join('; ')}`);
    }
    const { output } = settlement;
    const { requests, accounts, clock } = this.deps;
    const now = clock.now();
    const exactCost = settlement.exactCost !== request.billableCredits ? settlement.exactCost : undefined;
    const links = this.deps.workspaceLinks?.wantsLinks(request) ? this.deps.workspaceLinks : undefined;
    if (exactCost === undefined && !request.webhookUrl && !links) {
      // Nothing to settle and nobody to notify: the terminal UPDATE is the whole finish, a transaction by itself.
      // (The common case, and a third of a worker's round trips per request.)
      const finished = await withTransientRetry(() =>
        requests.finish(accounts.db, request.id, worker, { status: 'succeeded', output, errorMessage: null, completedAtMs: now }),
      );
      return this.record(request, 'succeeded', finished, now, output);
    }
    // What the committed settlement moved, for the metrics (set by the try that commits).
    let settled = 0;
    return withTransientRetry(() => accounts.db.transaction(async (trx) => {
      let billable = request.billableCredits;
      settled = 0;
      if (exactCost !== undefined) {
        const difference = exactCost - billable;
        if (difference < 0) {
          await accounts.credit(trx, request.accountId, -difference);
          billable = exactCost;
        } else if (await accounts.debit(trx, request.accountId, difference)) {
          billable = exactCost;
        }
        if (billable === exactCost) settled = difference;
        // When the balance cannot cover a higher exact cost we keep the quoted price: the client agreed to it.
        if (billable === exactCost) {
          await accounts.appendLedger(trx, { accountId: request.accountId, requestId: request.id, kind: 'adjust', amount: -difference, note: 'settled to measured usage', atMs: now });
        }
      }
      const finished = await requests.finish(trx, request.id, worker, { status: 'succeeded', output, errorMessage: null, completedAtMs: now, billableCredits: billable });
      if (!finished) throw new LostLease();
      await links?.linkAtFinish(trx, request, output, now);
      if (request.webhookUrl) await this.deps.outbox?.(trx, request, 'request.succeeded', now);
      return true;
    }))
      .then((finished) => {
        if (finished && settled !== 0) this.deps.metrics?.creditsSettledTo(request.operation, settled > 0 ? 'up' : 'down', Math.abs(settled));
        return this.record(request, 'succeeded', finished, now, output);
      })
      .catch((error) => {
        if (error instanceof LostLease) return false;
        throw error;
      });
  }

  async fail(request: RequestRecord, worker: string, message: string): Promise<boolean> {
    const { requests, accounts, clock, log } = this.deps;
    const now = clock.now();
    const output: JsonObject | null = request.output ? { ...request.output, status: 'failed' } : null;
    const done = await withTransientRetry(() =>
      accounts.db.transaction(async (trx) => {
        const finished = await requests.finish(trx, request.id, worker, { status: 'failed', output, errorMessage: message, completedAtMs: now });
        if (!finished) throw new LostLease();
        if (request.billableCredits > 0) {
          await accounts.credit(trx, request.accountId, request.billableCredits);
          await accounts.appendLedger(trx, { accountId: request.accountId, requestId: request.id, kind: 'refund', amount: request.billableCredits, atMs: now });
        }
        if (request.webhookUrl) await this.deps.outbox?.(trx, request, 'request.failed', now);
        return true;
      }),
    ).catch((error) => {
      if (error instanceof LostLease) return false;
      throw error;
    });
    if (done) {
      log.info({ requestId: request.id, operation: request.operation, reason: message }, 'request failed and was refunded');
      this.deps.metrics?.creditsGivenBack(request.operation, request.billableCredits);
    }
    return this.record(request, message === cancelledMessage ? 'cancelled' : 'failed', done, now, request.output);
  }

  /**
   * A job that exhausted its deliveries (the broker dead-lettered it): fail its request and refund it. Claiming first
   * keeps this exactly-once too. A request that finished meanwhile is left as it is (false). One a live worker holds
   * right now (a start under way, or a poll of its chain) throws: the dead letter is tried again after a pause, so
   * whether the request fails does not hang on the instant the dead letter arrived.
   */
  async failAbandoned(requestId: string, message: string, leaseMs: number): Promise<boolean> {
    const owner = 'dead-letter';
    const now = this.deps.clock.now();
    const claimed = (await this.deps.requests.claim(requestId, owner, now, leaseMs, 'start')) ?? (await this.deps.requests.claim(requestId, owner, now, leaseMs, 'poll'));
    if (claimed) return this.fail(claimed, owner, message);
    const current = await this.deps.requests.get(requestId);
    if (current && !terminalStatuses.has(current.status)) throw new Error(`request ${requestId} is held by a worker right now; its dead letter is tried again later`);
    return false;
  }

  /**
   * The provider label is the plugin the request was with when it finished: the one named in its output (the
   * served output, or the start attempt's), else the one holding its submission; `none` when none was called.
   */
  private record(request: RequestRecord, outcome: FinishOutcome, finished: boolean, now: number, output: JsonObject | null): boolean {
    if (finished) this.deps.changes?.announce(request.id);
    if (finished && this.deps.metrics) {
      const named = output?.provider;
      const provider = typeof named === 'string' ? named : (request.provider ?? noProvider);
      this.deps.metrics.requestFinished({ operation: request.operation, provider, model: request.model }, outcome, (now - request.createdAtMs) / 1000);
    }
    return finished;
  }
}

/** Thrown inside a finishing transaction when another worker already holds or finished the request. */
class LostLease extends Error {}
