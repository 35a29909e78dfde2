/**
 * Cancel: the client gives up on a request that is not finished. The canceller takes the request the way a
 * worker would (a conditional claim), asks the vendor to cancel its task where the plugin can, and fails
 * the request with a clear message and a full refund in the finishing transaction.
 *
 * A request a worker holds right now cannot be taken. Its start, when it has not begun a vendor submission (a
 * local render, an upload), is stopped: that worker then fails the request with the same message and refund. In
 * this process the start is stopped directly; in another (production's workers) the cancel is recorded on the
 * request and announced on the cancel notices, and the worker running the start stops it once the store confirms
 * the cancel (cancel-notices.ts). Meanwhile the canceller waits a few seconds for the worker to let go (a poll is
 * short, a stopped start fails the request) and then takes it; a worker still busy after that (a vendor
 * submission under way) leaves the client told to retry in a moment (409), never with a request half-cancelled.
 */
import type { Logger } from 'pino';
import { ApiError } from '../errors/index.js';
import type { OperationRegistry } from '../manifests/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import type { ChangeNotices } from '../queue/index.js';
import { terminalStatuses, type RequestRecord, type RequestStore } from '../store/index.js';
import { callProvider, type ProviderCallDeps } from './call-provider.js';
import type { RequestFinisher } from './finish-request.js';
import { cancelledMessage, stopStart } from './running-starts.js';

export { cancelledMessage };

/** How long a cancel waits for the worker holding the request; past it, the client is asked to retry. */
const HELD_REQUEST_WAIT_MS = 5_000;

/** The lease owner a cancel claims as. */
const owner = 'cancel';

export class RequestCanceller {
  constructor(
    private readonly deps: ProviderCallDeps & {
      requests: RequestStore;
      registry: OperationRegistry;
      plugins: PluginRegistry;
      finisher: RequestFinisher;
      leaseMs: number;
      log: Logger;
      /** Where workers in other processes hear of cancels (production); absent when every worker is in this process. */
      cancelNotices?: ChangeNotices;
    },
  ) {}

  async cancel(request: RequestRecord): Promise<void> {
    if (terminalStatuses.has(request.status)) {
      throw new ApiError('MG_REQUEST_ALREADY_FINISHED', `request ${request.id} already ${request.status}; only queued or processing requests can be cancelled`);
    }
    const claimed = await this.take(request.id);
    if (claimed === 'failed by its worker') return;
    await this.cancelVendorTask(claimed);
    await this.deps.finisher.fail(claimed, owner, cancelledMessage);
  }

  /**
   * Claims the request like a worker would; while a worker holds it, stops its start (directly in this process,
   * through the store and the cancel notices in another) and polls the row (the store is the truth) until the
   * claim succeeds or the request is finished.
   */
  private async take(id: string): Promise<RequestRecord | 'failed by its worker'> {
    const { requests, clock, leaseMs, cancelNotices } = this.deps;
    // Real time, not the injected clock: this bounds how long the client's HTTP call is held.
    const until = performance.now() + HELD_REQUEST_WAIT_MS;
    let stopped = false;
    let recorded = false;
    for (let delay = 10; ; delay = Math.min(250, delay * 2)) {
      const claimed = (await requests.claim(id, owner, clock.now(), leaseMs, 'start')) ?? (await requests.claim(id, owner, clock.now(), leaseMs, 'poll'));
      if (claimed) return claimed;
      const now = await requests.get(id);
      if (now && terminalStatuses.has(now.status)) {
        if ((stopped || recorded) && now.status === 'failed' && now.errorMessage === cancelledMessage) return 'failed by its worker';
        throw new ApiError('MG_REQUEST_ALREADY_FINISHED', `request ${id} already ${now.status}`);
      }
      stopped = stopStart(id) || stopped;
      if (!stopped && cancelNotices) {
        recorded ||= await requests.requestCancel(id, clock.now());
        // Repeated while waiting: a notice may be lost (change-feed.ts), and a worker acts only on the first that finds the start.
        if (recorded) cancelNotices.announce(id);
      }
      if (performance.now() >= until) {
        throw new ApiError('MG_REQUEST_BUSY', `request ${id} is being worked on right now; retry the cancel in a moment`, { headers: { 'Retry-After': '1' } });
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  /** Best effort: a vendor that cannot cancel keeps rendering, but the client is no longer charged for it. */
  private async cancelVendorTask(request: RequestRecord): Promise<void> {
    const loaded = request.provider ? this.deps.plugins.get(request.provider) : undefined;
    const handler = loaded?.plugin.operations[request.operation];
    const definition = this.deps.registry.get(request.operation);
    if (!request.task || !loaded || !handler?.cancel || !definition) return;
    const route = { model: request.model, vendorModel: definition.manifest.routing.models[request.model]?.vendor_model ?? request.model, publicName: definition.publicModelName(request.model) };
    try {
      await callProvider(this.deps, loaded, { kind: 'cancel', requestId: request.id, operation: request.operation, route, timeoutMs: 30_000 }, (context) => handler.cancel!(request.task!, context, route));
    } catch (error) {
      this.deps.log.warn({ requestId: request.id, provider: loaded.plugin.id, err: (error as Error).message }, 'vendor did not confirm the cancel');
    }
  }
}
