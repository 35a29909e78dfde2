/**
 * The provider plugin contract (v1). A plugin is one folder under `plugins/` whose `index.ts`
 * default-exports `definePlugin({...})`. Async vendor jobs are split into `start` (returns a finished
 * output or an opaque task) and `status` (pending | done | failed), after vercel/ai's video model
 * contract, so any worker can resume a task after a restart: the task is stored on the request.
 */
import type { Logger } from 'pino';
import type { JsonSchema } from '../manifests/manifest-types.js';
import type { VendorHttp, VendorHttpOptions } from './vendor-http.js';

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

/** The model that the router picked for this request. */
export interface RoutedModel {
  /** Our model value as submitted (or defaulted), e.g. `nano-banana-pro`. */
  model: string;
  /** The vendor's own model name from the manifest. */
  vendorModel: string;
  /**
   * What `output.model` should say: the client's model value when the operation has a model field
   * (`model`, `model_id`), otherwise the vendor model name.
   */
  publicName: string;
}

/** Opaque, JSON-serialisable handle on a vendor job; stored on the request while it runs. */
export interface ProviderTask {
  taskId: string;
  /** Anything else the plugin needs to check status later (vendor endpoint, variant, ...). */
  state?: JsonObject;
}

/**
 * `done` is the operation's output, checked against its manifest. It may carry `usage` — what the vendor measured of
 * the job, e.g. `{ output_seconds: 9.98 }` (kernel/credits/usage.ts) — which the manifest's settle rule prices; a
 * plugin never reports credits.
 */
export type StartResult = { done: JsonObject } | { task: ProviderTask };
export type StatusResult = { pending: { progress?: number } } | { done: JsonObject } | { failed: string };

export interface HostedFile {
  /** Absolute public URL of the hosted copy (`{storage_url}/...`). */
  url: string;
  key: string;
  contentType: string;
  size: number;
}

/** Access to our own blob storage, as plugins need it. */
export interface PluginBlobs {
  /** Stores bytes under a fresh key for this request and returns the hosted file. */
  put(bytes: Buffer, contentType: string, extension: string): Promise<HostedFile>;
  /** Stores a file from disk (moved or copied) and returns the hosted file. */
  putFile(path: string, contentType: string, extension: string): Promise<HostedFile>;
  /**
   * Copies a vendor URL into our storage (vendor URLs expire; clients get ours), streamed through a temporary
   * file, so a large output never sits in memory.
   */
  rehost(url: string, options?: { contentType?: string; extension?: string; maxBytes?: number }): Promise<HostedFile>;
  /**
   * Reads a media URL given as input into memory (at most `maxBytes`). URLs of our own storage are read
   * straight from the store; other URLs are fetched through the SDK's guarded fetch (public addresses only).
   * `field` names the input in the client-visible error ("could not fetch video_url: ...").
   */
  fetchInput(url: string, options?: InputFetchOptions): Promise<{ bytes: Buffer; contentType: string }>;
  /** Like `fetchInput`, streamed to the file `path` (large sources: videos, long audio). */
  fetchInputToFile(url: string, path: string, options?: InputFetchOptions): Promise<{ size: number; contentType: string }>;
}

export interface InputFetchOptions {
  maxBytes?: number;
  /** The input field the URL came from, for error messages. */
  field?: string;
}

export interface PluginContext<Config = Record<string, unknown>> {
  /** An HTTP client for one vendor (timeouts, abort, retries with Retry-After, ProviderError mapping). */
  http(options: VendorHttpOptions): VendorHttp;
  requestId: string;
  operation: string;
  config: Config;
  blobs: PluginBlobs;
  log: Logger;
  /** Aborted when the kernel gives up on the call (timeout or shutdown). */
  signal: AbortSignal;
  clock: { now(): number };
  /** A scratch folder for this call, removed by the kernel afterwards. */
  scratchDir(): Promise<string>;
  /**
   * The plugin's own folder for what it must remember between calls (the local provider's library of the ids it
   * answered with): `<data_dir>/plugins/<plugin id>`, made on first use. It outlives the call and the process, and
   * every process with the same data folder sees the same one; it is not shared between machines.
   */
  stateDir(): Promise<string>;
}

export interface OperationHandler<Config = Record<string, unknown>> {
  start(input: JsonObject, ctx: PluginContext<Config>, route: RoutedModel): Promise<StartResult>;
  /**
   * Finds the job a `start` may have created when the kernel does not know whether the vendor took the
   * submission (timeout after the bytes left, connection reset, 5xx, or a worker lost mid-start): by the
   * vendor's lookup of our idempotency key, or by resending with that key where the vendor then answers with
   * the job it already has. `absent` proves there is no job (start may run again). Without `reconcile`, such a
   * request fails with a refund rather than risk a second job (docs/plugins.md, "At most one vendor job").
   */
  reconcile?(input: JsonObject, ctx: PluginContext<Config>, route: RoutedModel): Promise<StartResult | 'absent'>;
  status?(task: ProviderTask, ctx: PluginContext<Config>, route: RoutedModel): Promise<StatusResult>;
  cancel?(task: ProviderTask, ctx: PluginContext<Config>, route: RoutedModel): Promise<void>;
}

export interface ProviderPlugin<Config = Record<string, unknown>> {
  /** Stable id used in manifests' routing tables and in `output.provider`. */
  id: string;
  /** JSON Schema of the plugin's configuration (`providers.<id>` in config); validated at start. */
  configSchema: JsonSchema;
  /**
   * Whether the plugin can serve requests with this configuration (e.g. an API key is present).
   * Plugins that are not enabled are skipped by the router.
   */
  isEnabled(config: Config): boolean;
  /**
   * The plugin makes stand-in media itself instead of calling a vendor's model (the offline `local` plugin).
   * It is never a fallback for a vendor's model when `routing.synthetic_fallback` is false (production).
   */
  synthetic?: boolean;
  operations: Record<string, OperationHandler<Config>>;
}

export function definePlugin<Config>(plugin: ProviderPlugin<Config>): ProviderPlugin<Config> {
  return plugin;
}
