export { PluginRegistry, type LoadedPlugin, type BreakerSettings } from './plugin-registry.js';
