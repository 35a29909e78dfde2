/**
 * Whether a model can be served right now, from the plugin registry's live state: which plugins the routing
 * policy allows, which of them are configured, and whose circuit breaker is open. Read at call time by
 * `get_model_availability`; the knowledge records carry the same answer as it was at start.
 */
import type { ModelRoute } from '../../kernel/manifests/index.js';
import type { PluginRegistry } from '../../kernel/plugins/index.js';

export type AvailabilityState = 'available' | 'degraded' | 'unavailable' | 'disabled';

export interface ModelAvailability {
  /** `available`: a configured plugin with a closed breaker serves it; `degraded`: every such breaker is open. */
  state: AvailabilityState;
  /** The plugin that would serve a create now (the first configured one whose breaker is not open). */
  served_by: string | null;
  /** The vendor plugin named by the manifest, or null for a planned route. */
  primary_plugin: string | null;
  /** The vendor plugin this model will get once it is written (`planned:` routes). */
  planned: string | null;
  /** Configured plugins the routing policy allows, in routing order, with their breaker state. */
  candidates: { plugin: string; breaker: 'closed' | 'open' | 'half_open'; synthetic: boolean }[];
  reason: string;
}

export function modelAvailability(plugins: PluginRegistry, operation: string, route: ModelRoute): ModelAvailability {
  const primary = route.plugin ?? null;
  const planned = route.planned ?? null;
  if (route.disabled) return { state: 'disabled', served_by: null, primary_plugin: primary, planned, candidates: [], reason: route.disabled };
  const breakers = plugins.breakerStates();
  const candidates = plugins.candidates(operation, route).map(({ plugin }) => ({
    plugin: plugin.id,
    breaker: breakers[plugin.id]?.state ?? 'closed',
    synthetic: plugin.synthetic === true,
  }));
  const serving = candidates.find((candidate) => candidate.breaker !== 'open');
  if (candidates.length === 0) {
    const why = planned ? `its vendor plugin (${planned}) is planned but not written yet` : `no configured provider may serve it (needs ${plugins.eligible(route).join(' or ') || 'a plugin'})`;
    return { state: 'unavailable', served_by: null, primary_plugin: primary, planned, candidates, reason: why };
  }
  if (!serving) return { state: 'degraded', served_by: null, primary_plugin: primary, planned, candidates, reason: 'every provider that serves it has an open circuit breaker: requests wait until one recovers' };
  const standIn = serving.plugin !== primary ? ` (standing in for ${primary ?? `the planned ${planned} plugin`})` : '';
  return { state: 'available', served_by: serving.plugin, primary_plugin: primary, planned, candidates, reason: `served by ${serving.plugin}${standIn}` };
}
