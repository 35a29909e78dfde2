/**
 * The start check between manifests and plugins: every plugin a model route names (its `plugin` and every
 * fallback) must be loaded and serve that route's operation. A route that names a missing plugin would
 * otherwise be found out only by the first paying client, as a 503 or a silent synthetic fallback. Routes
 * whose plugin is only `planned` are exempt for that plugin (it is still to be written), not for their fallbacks.
 */
import type { LoadedManifest } from '../manifests/load-manifests.js';
import { ManifestError } from '../manifests/manifest-error.js';
import type { PluginRegistry } from './plugin-registry.js';

/** Throws a ManifestError naming the manifest file, the model and the plugin of the first broken route. */
export function checkRoutes(manifests: readonly LoadedManifest[], plugins: PluginRegistry): void {
  for (const { manifest, file } of manifests) {
    for (const [model, route] of Object.entries(manifest.routing.models)) {
      const named = [
        ...(route.plugin === undefined ? [] : [{ pointer: 'plugin', pluginId: route.plugin }]),
        ...(route.fallbacks ?? []).map((pluginId, index) => ({ pointer: `fallbacks/${index}`, pluginId })),
      ];
      for (const { pointer, pluginId } of named) {
        const problem = servingProblem(plugins, pluginId, manifest.operation);
        if (!problem) continue;
        const remedy = pointer === 'plugin' ? ` (mark the model \`planned: ${pluginId}\` until it does)` : '';
        throw new ManifestError(file, `/routing/models/${model}/${pointer}`, `model ${model} names plugin ${pluginId}, which ${problem}${remedy}`);
      }
    }
  }
}

function servingProblem(plugins: PluginRegistry, pluginId: string, operation: string): string | undefined {
  const loaded = plugins.get(pluginId);
  if (!loaded) return 'does not exist in any plugin folder';
  if (!loaded.plugin.operations[operation]) return `does not serve ${operation}`;
  return undefined;
}
