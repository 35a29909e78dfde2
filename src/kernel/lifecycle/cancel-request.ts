/**
 * Cancel: the client gives up on a request that is not finished. The canceller takes the request the way a
 * worker would (a conditional claim), asks the vendor to cancel its task where the plugin can, and fails
 * the request with a clear message and a full refund in the finishing transaction. A request a worker holds
 * right now cannot be taken: the client is told to retry in a moment (409), never left half-cancelled.
 */
import type { Logger } from 'pino';
import { ApiError } from '../errors/index.js';
import type { OperationRegistry } from '../manifests/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import { terminalStatuses, type RequestRecord, type RequestStore } from '../store/index.js';
import { callProvider, type ProviderCallDeps } from './call-provider.js';
import type { RequestFinisher } from './finish-request.js';

export const cancelledMessage = 'the request was cancelled by the client';

export class RequestCanceller {
  constructor(
    private readonly deps: ProviderCallDeps & {
      requests: RequestStore;
      registry: OperationRegistry;
      plugins: PluginRegistry;
      finisher: RequestFinisher;
      leaseMs: number;
      log: Logger;
    },
  ) {}

  async cancel(request: RequestRecord): Promise<void> {
    if (terminalStatuses.has(request.status)) {
      throw new ApiError('MG_REQUEST_ALREADY_FINISHED', `request ${request.id} already ${request.status}; only queued or processing requests can be cancelled`);
    }
    const owner = 'cancel';
    const { requests, clock, leaseMs } = this.deps;
    const claimed = (await requests.claim(request.id, owner, clock.now(), leaseMs, 'start')) ?? (await requests.claim(request.id, owner, clock.now(), leaseMs, 'poll'));
    if (!claimed) {
      const now = await requests.get(request.id);
      if (now && terminalStatuses.has(now.status)) throw new ApiError('MG_REQUEST_ALREADY_FINISHED', `request ${request.id} already ${now.status}`);
      throw new ApiError('MG_REQUEST_BUSY', `request ${request.id} is being worked on right now; retry the cancel in a moment`, { headers: { 'Retry-After': '1' } });
    }
    await this.cancelVendorTask(claimed);
    await this.deps.finisher.fail(claimed, owner, cancelledMessage);
  }

  /** Best effort: a vendor that cannot cancel keeps rendering, but the client is no longer charged for it. */
  private async cancelVendorTask(request: RequestRecord): Promise<void> {
    const loaded = request.provider ? this.deps.plugins.get(request.provider) : undefined;
    const handler = loaded?.plugin.operations[request.operation];
    const definition = this.deps.registry.get(request.operation);
    if (!request.task || !loaded || !handler?.cancel || !definition) return;
    const route = { model: request.model, vendorModel: definition.manifest.routing.models[request.model]?.vendor_model ?? request.model, publicName: definition.publicModelName(request.model) };
    try {
      await callProvider(this.deps, loaded, { requestId: request.id, operation: request.operation, route, timeoutMs: 30_000 }, (context) => handler.cancel!(request.task!, context, route));
    } catch (error) {
      this.deps.log.warn({ requestId: request.id, provider: loaded.plugin.id, err: (error as Error).message }, 'vendor did not confirm the cancel');
    }
  }
}
