/**
 * The shape of the configuration: the `Settings` type every module reads and the JSON Schema that validates
 * it at start (settings.ts loads, layers and validates; this file only describes).
 */
import type { BreakerSettings } from '../plugins/index.js';
import type { WebhookSettings } from '../webhooks/index.js';
import type { MediaToolSettings } from '../plugin-sdk/media-tool-binaries.js';
import type { LifecycleSettings, RequestWatchSettings, RetentionSettings } from '../lifecycle/index.js';

export interface Settings {
  server: {
    host: string;
    port: number;
    public_url: string;
    body_limit_bytes: number;
    /** Bounds checked on every JSON body before validation (json-limits.ts). */
    json_max_depth: number;
    json_max_string_length: number;
    /** Slow clients: time to send the headers, then time to send the body, before a 408. */
    headers_timeout_ms: number;
    body_timeout_ms: number;
  };
  /**
   * `/metrics`: on its own port, and/or behind a bearer token; with neither, loopback peers only.
   * `refresh_interval_ms`: how often the gauges read from the store are refreshed (0 = never).
   */
  metrics: { port: number; bearer_token: string; refresh_interval_ms: number };
  data_dir: string;
  database: { url: string; pool_max: number };
  queue: { url: string; prefix: string; delivery_limit: number; publish_timeout_ms: number; hold_polls_up_to_ms: number };
  blobs: { url: string; s3_endpoint: string; s3_region: string };
  worker: LifecycleSettings & { concurrency: number; poll_concurrency: number; thread: boolean; health_port: number; shutdown_timeout_ms: number };
  breaker: BreakerSettings;
  routing: { synthetic_fallback: boolean };
  retention: RetentionSettings;
  webhooks: WebhookSettings;
  /** Fetches of client- or vendor-supplied URLs (source media, vendor outputs, webhooks). */
  outbound: { allow_hosts: string[] };
  rate_limits: { creates_per_minute: number; reads_per_minute: number };
  /** Long polls (`Prefer: wait` on a poll) and event streams each API process holds, and the change notices that wake them. */
  watches: RequestWatchSettings & { keepalive_interval_ms: number; max_stream_ms: number; notice_batch_ms: number };
  plugin_dirs: string[];
  manifest_dirs: string[];
  providers: Record<string, Record<string, unknown>>;
  dev_account: { email: string; plan: string; credits: number };
  log: { level: string };
  media: MediaToolSettings;
  mcp: McpSettings;
  oauth: OAuthSettings;
}

/** The OAuth authorization server for MCP account linking (`src/http/oauth`). */
export interface OAuthSettings {
  /** Exact redirect URIs hosted clients may register (loopback ones need no listing). */
  approved_redirect_uris: string[];
  /** Life of an access token: short, so a revoked link stops working soon even where tokens are cached. */
  access_token_ttl_seconds: number;
  /** Life of a refresh token (each use rotates it). */
  refresh_token_ttl_seconds: number;
  /** Keys signing the authorization server's cookies; empty: generated at first start and kept in the store. */
  cookie_keys: string[];
}

/** The MCP server (`src/mcp`): identity, registry metadata and DNS-rebinding allow-lists. */
export interface McpSettings {
  /** `serverInfo.name` in `initialize` and the name on `GET /mcp`. */
  server_name: string;
  /** `name` of `/mcp/server.json`: reverse-DNS namespace / server name, as the MCP registry requires. */
  registry_name: string;
  /** `description` of `/mcp/server.json` (the registry allows at most 100 characters). */
  description: string;
  /** Served as text/plain at `/.well-known/mcp-registry-auth` (`MCP_REGISTRY_AUTH_RECORD`); empty: 404. */
  registry_auth_record: string;
  /** Origins a browser may call /mcp from; empty: the public URL's origin and the loopback origins. */
  allowed_origins: string[];
  /** Host headers /mcp answers to; empty: the public URL's host and the loopback names. */
  allowed_hosts: string[];
  /** Folders of knowledge pages and YAML (workflows, offerings, toolkits); relative ones are under the project. */
  knowledge_dirs: string[];
  /** Offerings the public tools list, beside those of the knowledge folders (same id: this one wins). */
  offerings: McpOffering[];
}

/** Something an operator sells; its checkout link must be a path or a URL on the public URL's origin. */
export interface McpOffering {
  id: string;
  title: string;
  description: string;
  price?: string;
  credits?: number;
  checkout_url?: string;
  tags?: string[];
}

const positiveInteger = { type: 'integer', minimum: 1 };
/** One offering (`mcp.offerings`, and the `offerings` lists of knowledge files, which use the same schema). */
export const mcpOfferingSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'title', 'description'],
  properties: {
    id: { type: 'string', pattern: '^[a-z0-9][a-z0-9._-]*$' },
    title: { type: 'string', minLength: 1 },
    description: { type: 'string', minLength: 1 },
    price: { type: 'string', minLength: 1 },
    credits: { type: 'integer', minimum: 0 },
    checkout_url: { type: 'string', minLength: 1 },
    tags: { type: 'array', items: { type: 'string', minLength: 1 } },
  },
};
export const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['server', 'metrics', 'data_dir', 'database', 'queue', 'blobs', 'worker', 'breaker', 'routing', 'retention', 'webhooks', 'outbound', 'rate_limits', 'watches', 'providers', 'dev_account', 'log', 'media', 'mcp', 'oauth'],
  properties: {
    server: {
      type: 'object',
      additionalProperties: false,
      required: ['host', 'port', 'public_url', 'body_limit_bytes', 'json_max_depth', 'json_max_string_length', 'headers_timeout_ms', 'body_timeout_ms'],
      properties: {
        host: { type: 'string', minLength: 1 },
        port: { type: 'integer', minimum: 0, maximum: 65535 },
        public_url: { anyOf: [{ const: '' }, { type: 'string', format: 'uri', pattern: '^https?://' }] },
        body_limit_bytes: positiveInteger,
        json_max_depth: positiveInteger,
        json_max_string_length: positiveInteger,
        headers_timeout_ms: positiveInteger,
        body_timeout_ms: positiveInteger,
      },
    },
    metrics: {
      type: 'object',
      additionalProperties: false,
      required: ['port', 'bearer_token', 'refresh_interval_ms'],
      properties: { port: { type: 'integer', minimum: 0, maximum: 65535 }, bearer_token: { type: 'string' }, refresh_interval_ms: { type: 'integer', minimum: 0 } },
    },
    data_dir: { type: 'string', minLength: 1 },
    database: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'pool_max'],
      properties: { url: { type: 'string', pattern: '^$|^sqlite:|^mysql://' }, pool_max: positiveInteger },
    },
    queue: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 'prefix', 'delivery_limit', 'publish_timeout_ms', 'hold_polls_up_to_ms'],
      properties: {
        url: { type: 'string', pattern: '^$|^amqps?://' },
        prefix: { type: 'string', pattern: '^[A-Za-z0-9_.-]+$' },
        delivery_limit: positiveInteger,
        publish_timeout_ms: positiveInteger,
        hold_polls_up_to_ms: { type: 'integer', minimum: 0 },
      },
    },
    blobs: {
      type: 'object',
      additionalProperties: false,
      required: ['url', 's3_endpoint', 's3_region'],
      properties: {
        url: { type: 'string' },
        s3_endpoint: { anyOf: [{ const: '' }, { type: 'string', format: 'uri', pattern: '^https?://' }] },
        s3_region: { type: 'string' },
      },
    },
    worker: {
      type: 'object',
      additionalProperties: false,
      required: ['concurrency', 'poll_concurrency', 'thread', 'lease_ms', 'max_attempts', 'sweep_interval_ms', 'requeue_after_ms', 'retry_after_ms', 'start_record_after_ms', 'health_port', 'shutdown_timeout_ms'],
      properties: {
        concurrency: positiveInteger,
        poll_concurrency: positiveInteger,
        thread: { type: 'boolean' },
        health_port: { type: 'integer', minimum: 0, maximum: 65535 },
        shutdown_timeout_ms: positiveInteger,
        lease_ms: positiveInteger,
        max_attempts: positiveInteger,
        sweep_interval_ms: positiveInteger,
        requeue_after_ms: { type: 'integer', minimum: 0 },
        retry_after_ms: positiveInteger,
        start_record_after_ms: { type: 'integer', minimum: 0 },
      },
    },
    breaker: {
      type: 'object',
      additionalProperties: false,
      required: ['timeout_ms', 'error_threshold_percentage', 'reset_timeout_ms', 'volume_threshold', 'rolling_count_timeout_ms'],
      properties: {
        timeout_ms: positiveInteger,
        error_threshold_percentage: { type: 'number', minimum: 1, maximum: 100 },
        reset_timeout_ms: positiveInteger,
        volume_threshold: { type: 'integer', minimum: 0 },
        rolling_count_timeout_ms: positiveInteger,
      },
    },
    retention: {
      type: 'object',
      additionalProperties: false,
      required: ['days', 'interval_ms', 'batch_size'],
      properties: { days: { type: 'number', exclusiveMinimum: 0 }, interval_ms: positiveInteger, batch_size: positiveInteger },
    },
    rate_limits: {
      type: 'object',
      additionalProperties: false,
      required: ['creates_per_minute', 'reads_per_minute'],
      properties: { creates_per_minute: { type: 'integer', minimum: 0 }, reads_per_minute: { type: 'integer', minimum: 0 } },
    },
    watches: {
      type: 'object',
      additionalProperties: false,
      required: ['max_per_process', 'recheck_interval_ms', 'keepalive_interval_ms', 'max_stream_ms', 'notice_batch_ms'],
      properties: {
        max_per_process: { type: 'integer', minimum: 0 },
        recheck_interval_ms: { type: 'integer', minimum: 100 },
        keepalive_interval_ms: { type: 'integer', minimum: 1000 },
        max_stream_ms: { type: 'integer', minimum: 1000 },
        notice_batch_ms: { type: 'integer', minimum: 0, maximum: 1000 },
      },
    },
    webhooks: {
      type: 'object',
      additionalProperties: false,
      required: ['require_https', 'timeout_ms', 'poll_interval_ms', 'retry_schedule_ms', 'rotation_grace_ms', 'test_sends_per_minute'],
      properties: {
        require_https: { type: 'boolean' },
        timeout_ms: positiveInteger,
        poll_interval_ms: positiveInteger,
        retry_schedule_ms: { type: 'array', minItems: 1, items: positiveInteger },
        rotation_grace_ms: { type: 'integer', minimum: 0 },
        test_sends_per_minute: { type: 'integer', minimum: 0 },
      },
    },
    outbound: {
      type: 'object',
      additionalProperties: false,
      required: ['allow_hosts'],
      properties: { allow_hosts: { type: 'array', items: { type: 'string', minLength: 1 } } },
    },
    routing: {
      type: 'object',
      additionalProperties: false,
      required: ['synthetic_fallback'],
      properties: { synthetic_fallback: { type: 'boolean' } },
    },
    plugin_dirs: { type: 'array', items: { type: 'string' } },
    manifest_dirs: { type: 'array', items: { type: 'string' } },
    providers: { type: 'object', additionalProperties: { type: 'object' } },
    dev_account: {
      type: 'object',
      additionalProperties: false,
      required: ['email', 'plan', 'credits'],
      properties: { email: { type: 'string', format: 'email' }, plan: { type: 'string' }, credits: { type: 'integer', minimum: 0 } },
    },
    media: {
      type: 'object',
      additionalProperties: false,
      required: ['ffmpeg_path', 'ffprobe_path', 'allow_bundled_ffmpeg'],
      properties: { ffmpeg_path: { type: 'string' }, ffprobe_path: { type: 'string' }, allow_bundled_ffmpeg: { type: 'boolean' } },
    },
    log: {
      type: 'object',
      additionalProperties: false,
      required: ['level'],
      properties: { level: { enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] } },
    },
    mcp: {
      type: 'object',
      additionalProperties: false,
      required: ['server_name', 'registry_name', 'description', 'registry_auth_record', 'allowed_origins', 'allowed_hosts'],
      properties: {
        server_name: { type: 'string', minLength: 1 },
        // The registry's own rules for server.json (server.schema.json, 2025-12-11).
        registry_name: { type: 'string', minLength: 3, maxLength: 200, pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$' },
        description: { type: 'string', minLength: 1, maxLength: 100 },
        registry_auth_record: { type: 'string', maxLength: 4096 },
        allowed_origins: { type: 'array', items: { type: 'string', pattern: '^https?://[^/]+$' } },
        allowed_hosts: { type: 'array', items: { type: 'string', minLength: 1 } },
        knowledge_dirs: { type: 'array', items: { type: 'string', minLength: 1 } },
        offerings: { type: 'array', items: mcpOfferingSchema },
      },
    },
    oauth: {
      type: 'object',
      additionalProperties: false,
      required: ['approved_redirect_uris', 'access_token_ttl_seconds', 'refresh_token_ttl_seconds', 'cookie_keys'],
      properties: {
        // Exact https URIs: a hosted client's callback is compared character for character.
        approved_redirect_uris: { type: 'array', items: { type: 'string', pattern: '^https://[^\\s#]+$' } },
        access_token_ttl_seconds: { type: 'integer', minimum: 60, maximum: 86400 },
        refresh_token_ttl_seconds: { type: 'integer', minimum: 3600 },
        cookie_keys: { type: 'array', items: { type: 'string', minLength: 32 } },
      },
    },
  },
};
