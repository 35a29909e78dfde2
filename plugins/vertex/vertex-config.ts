/**
 * The `vertex` plugin's settings (`providers.vertex` in config, or `MEDIAGATE_PROVIDER_VERTEX_<KEY>` in the
 * environment) and where they point: the regional Vertex AI endpoint of one Google Cloud project, reached as
 * a service account. Unlike the API-key vendors there is no key to send: a service-account key signs the
 * assertion that buys a short-lived access token (service-account.ts).
 */
import type { JsonSchema } from '../../src/kernel/manifests/manifest-types.js';
import type { OperationHandler, PluginContext } from '../../src/kernel/plugin-sdk/index.js';

export const PROVIDER_ID = 'vertex';

export interface VertexConfig {
  /** The Google Cloud project billed for the calls (its id, or its number). */
  project_id?: string | number;
  /** Vertex AI region, e.g. `us-central1`, `europe-west4`, or `global`. */
  location?: string;
  /** The service-account JSON key file's contents. Never logged or returned. */
  credentials_json?: string;
  /** Path of the service-account JSON key file, read at every token exchange (a rotated key is picked up). */
  credentials_file?: string;
  /** Replaces the regional endpoint (a proxy, or a multi-region `rep` endpoint); paths stay relative to it. */
  base_url?: string;
  /** Per vendor call. */
  timeout_ms?: number;
}

export type VertexContext = PluginContext<VertexConfig>;
export type VertexHandler = OperationHandler<VertexConfig>;

const DEFAULT_LOCATION = 'us-central1';
/** Imagen answers a 2K image in tens of seconds; the SDK's 60 s default leaves too little room. */
export const DEFAULT_TIMEOUT_MS = 120_000;

export const vertexConfigSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    // A number is a project number (the environment turns digits into one); a string is a project id.
    project_id: { type: ['string', 'integer'], pattern: '^[a-z0-9][a-z0-9.:-]*$' },
    // The location becomes part of a host name: letters, digits and dashes only.
    location: { type: 'string', pattern: '^[a-z0-9-]+$', default: DEFAULT_LOCATION },
    credentials_json: { type: 'string', minLength: 1 },
    credentials_file: { type: 'string', minLength: 1 },
    base_url: { type: 'string', format: 'uri', pattern: '^https?://' },
    timeout_ms: { type: 'integer', minimum: 1000, maximum: 900_000, default: DEFAULT_TIMEOUT_MS },
  },
  // One key source, so that nobody wonders which of two keys is in use.
  not: { required: ['credentials_json', 'credentials_file'] },
  errorMessage: { not: 'set credentials_json or credentials_file, not both' },
};

export function isVertexEnabled(config: VertexConfig): boolean {
  const project = config.project_id;
  const hasProject = typeof project === 'number' || (typeof project === 'string' && project.length > 0);
  return hasProject && Boolean(config.credentials_json || config.credentials_file);
}

function locationOf(config: VertexConfig): string {
  return config.location ?? DEFAULT_LOCATION;
}

/**
 * Vertex AI serves each region at `https://{location}-aiplatform.googleapis.com` and the global location at
 * `https://aiplatform.googleapis.com` (as Google's own SDK picks them: googleapis/js-genai src/_api_client.ts).
 */
export function vertexBaseUrl(config: VertexConfig): string {
  if (config.base_url) return config.base_url;
  const location = locationOf(config);
  return location === 'global' ? 'https://aiplatform.googleapis.com' : `https://${location}-aiplatform.googleapis.com`;
}

/** The publisher-model path every Vertex AI model method hangs off, relative so that a `base_url` prefix is kept. */
export function publisherModelPath(config: VertexConfig, vendorModel: string): string {
  const project = encodeURIComponent(String(config.project_id ?? ''));
  const location = encodeURIComponent(locationOf(config));
  return `v1/projects/${project}/locations/${location}/publishers/google/models/${encodeURIComponent(vendorModel)}`;
}
