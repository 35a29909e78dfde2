/**
 * `poll_after_ms`: how long a client should wait before asking for a request again. It is the first check delay of
 * the polling strategy of the provider that serves the request (manifest `polling`, with `polling.providers.<id>`
 * laid over it): the plugin that has started it, or, before a worker has, the one routing will try first. The create
 * answer, the MCP create tool and the request object while it is queued or processing all ask here, so they agree.
 */
import { pollingFor, type ModelRoute, type OperationDefinition, type OperationRegistry } from '../manifests/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import { terminalStatuses, type RequestViewRecord } from '../store/index.js';

export class PollHints {
  constructor(
    private readonly registry: OperationRegistry,
    private readonly plugins: PluginRegistry,
  ) {}

  /** For a request about to be created for this route. */
  forRoute(definition: OperationDefinition, route: ModelRoute): number {
    return pollingFor(definition.manifest.polling, this.expectedProvider(definition, route)).first_after_ms;
  }

  /** For a request object: undefined once the request is terminal (there is nothing left to poll for). */
  forRecord(record: Pick<RequestViewRecord, 'operation' | 'status' | 'input' | 'output'>): number | undefined {
    if (terminalStatuses.has(record.status)) return undefined;
    const definition = this.registry.get(record.operation);
    if (!definition) return undefined;
    const serving = typeof record.output?.provider === 'string' ? record.output.provider : undefined;
    if (serving) return pollingFor(definition.manifest.polling, serving).first_after_ms;
    const route = definition.manifest.routing.models[definition.modelOf(record.input ?? {})];
    return route ? this.forRoute(definition, route) : definition.manifest.polling.first_after_ms;
  }

  /** The first plugin routing would try now (an open breaker does not count, as at create). */
  private expectedProvider(definition: OperationDefinition, route: ModelRoute): string | undefined {
    return this.plugins.candidates(definition.name, route)[0]?.plugin.id;
  }
}
