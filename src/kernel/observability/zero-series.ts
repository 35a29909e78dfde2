/**
 * The series every fresh gateway exposes at 0 before anything happens, so that `rate()`, ratios and alerts
 * see a failure counter's first increment (a series born at 1 has no rate) and dashboards show every known
 * operation and provider from the first scrape. The label sets come from the manifests and the plugin
 * registry, never from traffic, and only what this process can actually see is listed: the operations'
 * models, and the providers that are enabled and serve them (a provider without its key is never called).
 * Histograms are zeroed per operation and per provider only (not per model), which keeps a fresh gateway's
 * series count to a few thousand (docs/metrics.md, "Cardinality").
 */
import type { OperationRegistry } from '../manifests/index.js';
import type { PluginRegistry } from '../plugins/index.js';
import {
  backlogStates,
  finishOutcomes,
  noProvider,
  providerCallKinds,
  providerCallOutcomes,
  publishOutcomes,
  rateLimitBuckets,
  settleDirections,
  sweeperActions,
  webhookOutcomes,
  type GatewayMetrics,
  type ProviderCallKind,
} from './metrics.js';

/**
 * The providers this process may call, with the kinds of call each can receive: enabled plugins that a route
 * of a known operation lists (`start` always; `status`, `cancel`, `reconcile` where a handler has them).
 */
export function callableProviders(operations: OperationRegistry, plugins: PluginRegistry): Map<string, Set<ProviderCallKind>> {
  const callable = new Map<string, Set<ProviderCallKind>>();
  for (const definition of operations.all()) {
    for (const route of Object.values(definition.manifest.routing.models)) {
      for (const loaded of plugins.candidates(definition.name, route)) {
        const kinds = callable.get(loaded.plugin.id) ?? new Set<ProviderCallKind>(['start']);
        const handler = loaded.plugin.operations[definition.name];
        for (const kind of providerCallKinds) if (kind !== 'start' && handler[kind]) kinds.add(kind);
        callable.set(loaded.plugin.id, kinds);
      }
    }
  }
  return callable;
}

export function zeroSeries(metrics: GatewayMetrics, operations: OperationRegistry, plugins: PluginRegistry): void {
  for (const definition of operations.all()) {
    const operation = definition.name;
    metrics.creditsDebited.inc({ operation }, 0);
    metrics.creditsRefunded.inc({ operation }, 0);
    for (const direction of settleDirections) metrics.creditsSettled.inc({ operation, direction }, 0);
    metrics.queueWait.zero({ operation });
    for (const outcome of finishOutcomes) metrics.requestDuration.zero({ operation, outcome });
    const fallbackPairs = new Set<string>();
    for (const [model, route] of Object.entries(definition.manifest.routing.models)) {
      metrics.requestsCreated.inc({ operation, model }, 0);
      // Refused by every provider, cancelled while queued, given up: no provider served it.
      for (const outcome of ['failed', 'cancelled'] as const) metrics.requestsFinished.inc({ operation, provider: noProvider, model, outcome }, 0);
      const candidates = plugins.candidates(operation, route).map((loaded) => loaded.plugin.id);
      for (const provider of candidates) {
        for (const outcome of finishOutcomes) metrics.requestsFinished.inc({ operation, provider, model, outcome }, 0);
      }
      // A fallback is counted from the first provider a start tried to the one that took the request.
      for (const to of candidates.slice(1)) fallbackPairs.add(`${candidates[0]}\u0000${to}`);
    }
    for (const pair of fallbackPairs) {
      const [fromProvider, toProvider] = pair.split('\u0000');
      metrics.providerFallbacks.inc({ operation, from_provider: fromProvider, to_provider: toProvider }, 0);
    }
  }
  for (const [provider, kinds] of callableProviders(operations, plugins)) {
    metrics.vendorTasksInFlight.set({ provider }, 0);
    if (kinds.has('status')) metrics.vendorPollLateness.zero({ provider });
    for (const call of kinds) {
      metrics.providerCallDuration.zero({ provider, call });
      for (const outcome of providerCallOutcomes) metrics.providerCalls.inc({ provider, call, outcome }, 0);
    }
  }
  for (const state of backlogStates) {
    metrics.backlog.set({ state }, 0);
    metrics.oldestAge.set({ state }, 0);
  }
  for (const outcome of webhookOutcomes) {
    metrics.webhookDeliveries.inc({ outcome }, 0);
    metrics.webhookDeliveryDuration.zero({ outcome });
  }
  for (const bucket of rateLimitBuckets) metrics.rateLimitRejections.inc({ bucket }, 0);
  for (const outcome of publishOutcomes) metrics.brokerPublishes.inc({ outcome }, 0);
  for (const action of sweeperActions) metrics.sweeperActions.inc({ action }, 0);
}
