/**
 * Runs one vendor plugin the way the worker does — through its circuit breaker, with the real plugin
 * context (vendor HTTP client, blob hosting into a temp folder) — so a nock test exercises everything but
 * the network. Retry waits are recorded instead of slept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { LocalFolderBlobs } from '../../src/kernel/blobs/index.js';
import { projectRoot } from '../../src/kernel/config/index.js';
import { callProvider } from '../../src/kernel/lifecycle/call-provider.js';
import { loadManifests, OperationRegistry } from '../../src/kernel/manifests/index.js';
import type { JsonObject, ProviderPlugin, ProviderTask, RoutedModel, StartResult, StatusResult } from '../../src/kernel/plugin-sdk/index.js';
import { PluginRegistry, type BreakerSettings } from '../../src/kernel/plugins/index.js';
import { newId } from '../../src/kernel/store/index.js';

export const harnessPublicUrl = 'http://gateway.test';

export interface PluginHarness {
  /** Waits the vendor client would have slept between retries (ms), in order. */
  sleeps: number[];
  blobs: LocalFolderBlobs;
  start(operation: string, input: JsonObject, model?: string): Promise<StartResult>;
  status(operation: string, task: ProviderTask, model?: string): Promise<StatusResult>;
  /** The route the worker would build for a model value of the operation's manifest. */
  route(operation: string, model?: string): RoutedModel;
  /** Problems of an output against the operation's manifest output schema (empty = valid). */
  checkOutput(operation: string, output: unknown): string[];
  breakerState(): 'closed' | 'open' | 'half_open';
  /** Bytes of a file the plugin hosted, by its hosted URL. */
  hostedBytes(url: string): Promise<Buffer>;
  close(): Promise<void>;
}

export async function createPluginHarness(plugin: ProviderPlugin<any>, config: Record<string, unknown>, breaker: Partial<BreakerSettings> = {}): Promise<PluginHarness> {
  const dir = await mkdtemp(join(tmpdir(), `mediagate-${plugin.id}-`));
  const blobs = new LocalFolderBlobs(dir);
  const plugins = new PluginRegistry({ timeout_ms: 30_000, error_threshold_percentage: 50, reset_timeout_ms: 60_000, volume_threshold: 3, rolling_count_timeout_ms: 10_000, ...breaker });
  plugins.register(plugin as ProviderPlugin, config);
  const loaded = plugins.get(plugin.id)!;
  const registry = new OperationRegistry(await loadManifests([join(projectRoot, 'manifests/operations')]));
  const sleeps: number[] = [];
  const deps = { blobs, publicUrl: harnessPublicUrl, pluginStateRoot: join(dir, 'plugin-state'), log: pino({ level: 'silent' }), clock: { now: () => Date.now() }, retrySleep: async (ms: number) => void sleeps.push(ms) };

  const route = (operation: string, model?: string): RoutedModel => {
    const definition = registry.get(operation);
    if (!definition) throw new Error(`no manifest for ${operation}`);
    const value = model ?? definition.manifest.routing.default_model;
    const entry = definition.manifest.routing.models[value];
    if (!entry) throw new Error(`${operation} has no model ${value}`);
    return { model: value, vendorModel: entry.vendor_model, publicName: definition.publicModelName(value) };
  };
  const call = <T>(operation: string, model: string | undefined, invoke: Parameters<typeof callProvider<T>>[3]) =>
    callProvider<T>(deps, loaded, { requestId: newId('req'), operation, route: route(operation, model), timeoutMs: 30_000 }, invoke);

  return {
    sleeps,
    blobs,
    route,
    start: (operation, input, model) => call(operation, model, (context) => plugin.operations[operation].start(input, context, route(operation, model))),
    status: (operation, task, model) => call(operation, model, (context) => plugin.operations[operation].status!(task, context, route(operation, model))),
    checkOutput: (operation, output) => registry.get(operation)!.checkOutput(output),
    breakerState: () => plugins.breakerStates()[plugin.id].state,
    hostedBytes: (url) => blobs.readAll(url.slice(`${harnessPublicUrl}/files/`.length)),
    async close() {
      plugins.shutdown();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
