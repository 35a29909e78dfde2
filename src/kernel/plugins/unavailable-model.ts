/**
 * The 503 a create gets when no plugin may serve its model right now: it says what an operator can do about
 * it (which provider to configure), or that there is nothing to configure yet (the model's plugin is planned).
 */
import { ApiError } from '../errors/index.js';
import type { ModelRoute } from '../manifests/manifest-types.js';

/** `eligible` are the plugin ids the routing policy allows for the route (PluginRegistry.eligible). */
export function unavailableModelError(model: string, route: ModelRoute, eligible: readonly string[]): ApiError {
  const planned = route.planned === undefined ? '' : `its vendor plugin (${route.planned}) is planned but not written yet`;
  if (eligible.length === 0) return new ApiError('MG_PROVIDER_UNAVAILABLE', `model ${model} is not available here: ${planned || 'it names no provider'}`);
  const how = eligible.map((id) => `${id} (providers.${id}.* or MEDIAGATE_PROVIDER_${id.toUpperCase()}_*)`).join(', ');
  return new ApiError('MG_PROVIDER_UNAVAILABLE', `model ${model} needs one of these providers configured: ${how}${planned ? `; ${planned}` : ''}`);
}
