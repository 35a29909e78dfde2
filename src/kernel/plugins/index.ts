export { PluginRegistry, type LoadedPlugin, type BreakerSettings, type RoutingPolicy } from './plugin-registry.js';
export { checkRoutes } from './route-check.js';
export { unavailableModelError } from './unavailable-model.js';
