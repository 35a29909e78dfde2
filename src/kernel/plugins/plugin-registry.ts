/**
 * Loads provider plugins (one folder each, `index.ts` default-exporting `definePlugin(...)`), validates
 * each plugin's configuration against its own schema, and wraps every plugin in one opossum circuit
 * breaker. Plugins whose `isEnabled(config)` is false (e.g. no API key) stay loaded but are never routed to.
 * Which plugins may stand in for a route is the routing policy: with `syntheticFallback` off (production) a
 * synthetic plugin (`local`) is never a fallback, so a vendor's model is only ever served by a vendor.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import CircuitBreaker from 'opossum';
import { retiredPricingSetting } from '../credits/index.js';
import type { ModelRoute } from '../manifests/manifest-types.js';
import { compileSchema } from '../manifests/schema-compiler.js';
import type { ProviderPlugin } from '../plugin-sdk/contract.js';
import { ProviderError } from '../plugin-sdk/provider-error.js';

export interface BreakerSettings {
  timeout_ms: number;
  error_threshold_percentage: number;
  reset_timeout_ms: number;
  volume_threshold: number;
  rolling_count_timeout_ms: number;
}

export interface RoutingPolicy {
  /** Whether a synthetic plugin listed in a route's `fallbacks` may serve it (`routing.synthetic_fallback`). */
  syntheticFallback: boolean;
}

export interface LoadedPlugin {
  plugin: ProviderPlugin;
  config: Record<string, unknown>;
  enabled: boolean;
  breaker: CircuitBreaker<[() => Promise<unknown>], unknown>;
}

export class PluginRegistry {
  private readonly plugins = new Map<string, LoadedPlugin>();

  constructor(
    private readonly breakerSettings: BreakerSettings,
    /** Told when a breaker opens or closes (metrics, logs). */
    private readonly onBreakerChange?: (pluginId: string, open: boolean) => void,
    private readonly policy: RoutingPolicy = { syntheticFallback: true },
  ) {}

  /** Adds a plugin object; throws with every bad config setting named. */
  register(plugin: ProviderPlugin, rawConfig: Record<string, unknown> = {}): void {
    if (this.plugins.has(plugin.id)) throw new Error(`plugin ${plugin.id} is registered twice`);
    const config = structuredClone(rawConfig);
    const validate = compileSchema(plugin.configSchema);
    if (!validate(config)) {
      const problems = (validate.errors ?? []).map((error) => {
        const path = `providers.${plugin.id}${error.instancePath.replace(/\//g, '.')}`;
        if (error.keyword !== 'additionalProperties') return `${path} ${error.message}`;
        const key = (error.params as { additionalProperty: string }).additionalProperty;
        return retiredPricingSetting(`${path}.${key}`, key) ?? `${path} ${error.message} (${key})`;
      });
      throw new Error(`invalid configuration for plugin ${plugin.id}:\n  ${problems.join('\n  ')}`);
    }
    const settings = this.breakerSettings;
    const breaker = new CircuitBreaker(async (call: () => Promise<unknown>) => call(), {
      name: plugin.id,
      timeout: settings.timeout_ms,
      errorThresholdPercentage: settings.error_threshold_percentage,
      resetTimeout: settings.reset_timeout_ms,
      volumeThreshold: settings.volume_threshold,
      rollingCountTimeout: settings.rolling_count_timeout_ms,
      // A permanent vendor error (bad input) says nothing about the vendor's health: don't count it. A submission
      // whose outcome is unknown (a timeout or a 5xx after the bytes left) is not retried, but it does.
      errorFilter: (error: unknown) => ProviderError.is(error) && !error.retryable && !ProviderError.isOutcomeUnknown(error),
    });
    breaker.on('open', () => this.onBreakerChange?.(plugin.id, true));
    breaker.on('close', () => this.onBreakerChange?.(plugin.id, false));
    this.plugins.set(plugin.id, { plugin, config, enabled: plugin.isEnabled(config), breaker });
  }

  /** Imports every plugin folder under each directory (folders without an index.ts are skipped). */
  async loadFolders(directories: string[], configs: Record<string, Record<string, unknown>>): Promise<void> {
    for (const directory of directories) {
      const entries = await readdir(directory).catch(() => [] as string[]);
      for (const entry of entries.sort()) {
        const index = join(directory, entry, 'index.ts');
        if (!(await stat(index).then((info) => info.isFile(), () => false))) continue;
        const module = (await import(pathToFileURL(index).href)) as { default?: ProviderPlugin };
        if (!module.default?.id || !module.default.operations) throw new Error(`${index} does not default-export definePlugin({...})`);
        this.register(module.default, configs[module.default.id] ?? {});
      }
    }
  }

  get(id: string): LoadedPlugin | undefined {
    return this.plugins.get(id);
  }

  all(): LoadedPlugin[] {
    return [...this.plugins.values()];
  }

  /**
   * The plugins that can serve this route right now, in routing order (primary, then fallbacks). A planned
   * route has no primary; an empty list means the create is refused (503) before anything is charged.
   */
  candidates(operation: string, route: ModelRoute): LoadedPlugin[] {
    return this.eligible(route)
      .map((id) => this.plugins.get(id))
      .filter((loaded): loaded is LoadedPlugin => !!loaded && loaded.enabled && !!loaded.plugin.operations[operation]);
  }

  /** The plugin ids the routing policy lets serve this route, in routing order, whether configured or not. */
  eligible(route: ModelRoute): string[] {
    const fallbacks = (route.fallbacks ?? []).filter((id) => this.policy.syntheticFallback || !this.plugins.get(id)?.plugin.synthetic);
    return [...new Set([...(route.plugin === undefined ? [] : [route.plugin]), ...fallbacks])];
  }

  /**
   * Puts a plugin's breaker where the same plugin's breaker of another thread went (the embedded worker thread's:
   * worker-thread/), so this thread's health and availability answers say so; its own change is then told as usual.
   */
  mirrorBreaker(pluginId: string, open: boolean): void {
    const breaker = this.plugins.get(pluginId)?.breaker;
    if (!breaker) return;
    if (open && !breaker.opened) breaker.open();
    if (!open && !breaker.closed) breaker.close();
  }

  /** Breaker state per plugin, for the health endpoint and metrics. */
  breakerStates(): Record<string, { enabled: boolean; state: 'closed' | 'open' | 'half_open' }> {
    const states: Record<string, { enabled: boolean; state: 'closed' | 'open' | 'half_open' }> = {};
    for (const { plugin, enabled, breaker } of this.plugins.values()) {
      states[plugin.id] = { enabled, state: breaker.opened ? 'open' : breaker.halfOpen ? 'half_open' : 'closed' };
    }
    return states;
  }

  shutdown(): void {
    for (const { breaker } of this.plugins.values()) breaker.shutdown();
  }
}
