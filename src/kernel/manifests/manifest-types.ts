/**
 * The shape of one operation manifest (`manifests/operations/<operation>.yaml`).
 * Everything the gateway knows about an operation lives here; the HTTP API, the OpenAPI document,
 * validation, pricing and routing are derived from it. The runtime shape is enforced by
 * `manifest-meta-schema.ts` before any of these types are trusted.
 */
import type { UsageMeasure } from '../credits/usage.js';

export type JsonSchema = Record<string, unknown>;

export interface OperationManifest {
  /** Value of `operation` in the create envelope, e.g. `image.generate`. */
  operation: string;
  summary: string;
  /** Grouping used by docs and MCP knowledge tools (image, video, audio, 3d, prompt, partner2). */
  family: string;
  /** Set on legacy operations that still work but should not be used by new integrations. */
  deprecated?: DeprecationNotice;
  /** JSON Schema 2020-12 of `input`, property names exactly as in the spec. */
  input: JsonSchema;
  /** JSON Schema of the success output; provider output is validated against it before it is stored. */
  output: JsonSchema;
  /**
   * Conditional defaults that plain JSON Schema `default` cannot express, applied in order before
   * validation to fields the client left out (e.g. image model A's edit resolution depends on the
   * aspect ratio; music `provider: elevenlabs` implies `model: music_v2`).
   */
  defaults?: ConditionalDefault[];
  credits: CreditRule;
  routing: RoutingTable;
  polling: PollingStrategy;
  /** Example inputs for docs, OpenAPI and smoke tests; each must validate against `input`. */
  examples?: Record<string, unknown>[];
  /**
   * Input fields that name workspace objects (kernel/workspaces): the caller must be able to write them at create
   * (checked before the debit), and a successful request's hosted artifacts are linked to them.
   */
  workspace_links?: Record<string, WorkspaceLinkTarget>;
}

export type WorkspaceLinkTarget = 'workspace' | 'project' | 'world' | 'asset:character' | 'asset:object' | 'asset:location' | 'asset:zone';

export interface DeprecationNotice {
  /** Shown in the `Deprecation`/`Link` headers and the OpenAPI document. */
  message: string;
  /** The operation or model value to use instead. */
  replacement?: string;
  /** When it was deprecated (`YYYY-MM-DD`, UTC): the RFC 9745 `Deprecation` header carries it as an sf-date. */
  since: string;
  /** When it stops being served, if that is planned (`YYYY-MM-DD`, UTC): sent as the RFC 8594 `Sunset` header. */
  sunset?: string;
}

export interface ConditionalDefault {
  /** Every entry must hold: a scalar means equality, `{ present: true|false }` tests presence. */
  when: Record<string, string | number | boolean | { present: boolean }>;
  set: Record<string, unknown>;
}

/**
 * Declarative price of one request, in credits; no code is evaluated.
 *   credits = clamp(ceil((base + Σ per[i]) × Π multiply[j]), min, max)
 * `per` terms add `rate × value` of a numeric (or array-length) input field;
 * `multiply` terms multiply by a lookup of an input value, or by the numeric value itself.
 */
export interface CreditRule {
  base: number;
  per?: CreditPerTerm[];
  multiply?: CreditMultiplyTerm[];
  min?: number;
  max?: number;
  /** How a finished request is re-priced from the usage its provider measured; without it the quote is final. */
  settle?: CreditSettleRule;
}

/**
 * The settled price is this same rule over the stored input with each `replace` field set to the measured value
 * (e.g. the declared `duration_seconds` replaced by the `output_seconds` the vendor billed). A field is priced by a
 * `per` term (by value) or a numeric `multiply` term; a measure the provider did not report leaves its field alone.
 */
export interface CreditSettleRule {
  /** Top-level input field -> the measure that replaces it. */
  replace: Record<string, UsageMeasure>;
}

export interface CreditPerTerm {
  /** Input field (dot path for nested fields, e.g. `camera_control.zoom`). */
  field: string;
  rate: number;
  /** Value used when the field is absent. */
  default?: number;
  /** `length` prices an array by its number of items instead of a numeric value. */
  measure?: 'value' | 'length';
}

export interface CreditMultiplyTerm {
  field: string;
  /** Lookup table from input value to factor; values missing from it use `default`. */
  map?: Record<string, number>;
  /** Multiply by the numeric field value itself (e.g. a count). */
  numeric?: boolean;
  default: number;
}

export interface RoutingTable {
  /** Input field that selects the model; absent on operations without a model choice. */
  model_field?: string;
  default_model: string;
  models: Record<string, ModelRoute>;
}

/**
 * One model value of an operation. It names either the vendor plugin that serves it (`plugin`) or, while that
 * plugin is still to be written, the plugin it will get (`planned`); never both. A planned model is served only
 * by its fallbacks: the offline `local` plugin in the embedded default, nobody (503) in production.
 */
export type ModelRoute = ModelRouteDetails & (ServedRoute | PlannedRoute);

export interface ServedRoute {
  /** Plugin that serves this model when its configuration is present. */
  plugin: string;
  planned?: never;
}

export interface PlannedRoute {
  /**
   * The plugin this model will get once it is written (issue "Every model real"). Listed in the OpenAPI
   * document as `planned:`; the start check does not require it to exist yet.
   */
  planned: string;
  plugin?: never;
}

export interface ModelRouteDetails {
  /** The vendor's own name for the model, passed to the plugin. */
  vendor_model: string;
  /** Human name used in docs ("Nano Banana Pro"). */
  label?: string;
  /** Model family for docs and MCP (e.g. "Wan", "Sora"); several model values may share one. */
  family?: string;
  /**
   * Plugins tried in order when `plugin` is not configured or fails with a transient error. A synthetic plugin
   * (`local`) listed here is skipped when `routing.synthetic_fallback` is false (production).
   */
  fallbacks?: string[];
  /** Present when the model is switched off: requests get 422 with this message, nothing is charged. */
  disabled?: string;
  /** Present on legacy model values: still served, answered with a `Deprecation` header. */
  deprecated?: DeprecationNotice;
}

export interface PollingStrategy {
  /** Returned to clients as `poll_after_ms`, and the delay before the first provider status check. */
  first_after_ms: number;
  every_ms: number;
  backoff: number;
  max_every_ms: number;
  /** After this long in `processing` the request fails and is refunded. */
  give_up_after_ms: number;
  /**
   * Per plugin id, the timings that differ when that plugin serves the operation (e.g. `local`, which renders the
   * whole job inside `start`, is told to clients as `poll_after_ms` of its typical render time). See pollingFor().
   */
  providers?: Record<string, ProviderPolling>;
}

export type ProviderPolling = Partial<Pick<PollingStrategy, 'first_after_ms' | 'every_ms' | 'backoff' | 'max_every_ms'>>;
