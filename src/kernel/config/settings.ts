/**
 * Configuration: `config/default.yaml`, then `config/<MEDIAGATE_ENV>.yaml` if present, then environment
 * variables. Validated once at start; every bad setting is reported by name in one error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { compileSchema } from '../manifests/schema-compiler.js';
import { settingsSchema, type Settings } from './settings-schema.js';

export { mcpOfferingSchema, type McpOffering, type McpSettings, type OAuthSettings, type Settings } from './settings-schema.js';

/** Environment variable -> setting path and how to read it. */
const environmentOverrides: [string, string, 'string' | 'integer' | 'boolean' | 'list'][] = [
  ['PORT', 'server.port', 'integer'],
  ['MEDIAGATE_HOST', 'server.host', 'string'],
  ['MEDIAGATE_PUBLIC_URL', 'server.public_url', 'string'],
  ['MEDIAGATE_HEADERS_TIMEOUT_MS', 'server.headers_timeout_ms', 'integer'],
  ['MEDIAGATE_BODY_TIMEOUT_MS', 'server.body_timeout_ms', 'integer'],
  ['MEDIAGATE_METRICS_PORT', 'metrics.port', 'integer'],
  ['MEDIAGATE_METRICS_TOKEN', 'metrics.bearer_token', 'string'],
  ['MEDIAGATE_METRICS_REFRESH_INTERVAL_MS', 'metrics.refresh_interval_ms', 'integer'],
  ['MEDIAGATE_DATA_DIR', 'data_dir', 'string'],
  ['MEDIAGATE_DATABASE_URL', 'database.url', 'string'],
  ['MEDIAGATE_DATABASE_POOL_MAX', 'database.pool_max', 'integer'],
  ['MEDIAGATE_AMQP_URL', 'queue.url', 'string'],
  ['MEDIAGATE_AMQP_PREFIX', 'queue.prefix', 'string'],
  ['MEDIAGATE_AMQP_PUBLISH_TIMEOUT_MS', 'queue.publish_timeout_ms', 'integer'],
  ['MEDIAGATE_AMQP_HOLD_POLLS_UP_TO_MS', 'queue.hold_polls_up_to_ms', 'integer'],
  ['MEDIAGATE_BLOB_URL', 'blobs.url', 'string'],
  ['MEDIAGATE_S3_ENDPOINT', 'blobs.s3_endpoint', 'string'],
  ['MEDIAGATE_WORKER_HEALTH_PORT', 'worker.health_port', 'integer'],
  ['MEDIAGATE_WORKER_CONCURRENCY', 'worker.concurrency', 'integer'],
  ['MEDIAGATE_WORKER_POLL_CONCURRENCY', 'worker.poll_concurrency', 'integer'],
  ['MEDIAGATE_WORKER_THREAD', 'worker.thread', 'boolean'],
  ['MEDIAGATE_WORKER_LEASE_MS', 'worker.lease_ms', 'integer'],
  ['MEDIAGATE_SWEEP_INTERVAL_MS', 'worker.sweep_interval_ms', 'integer'],
  ['MEDIAGATE_PLUGIN_DIRS', 'plugin_dirs', 'list'],
  ['MEDIAGATE_MANIFEST_DIRS', 'manifest_dirs', 'list'],
  ['MEDIAGATE_LOG_LEVEL', 'log.level', 'string'],
  ['MEDIAGATE_FFMPEG_PATH', 'media.ffmpeg_path', 'string'],
  ['MEDIAGATE_FFPROBE_PATH', 'media.ffprobe_path', 'string'],
  ['MEDIAGATE_RETENTION_DAYS', 'retention.days', 'integer'],
  ['MEDIAGATE_OUTBOUND_ALLOW_HOSTS', 'outbound.allow_hosts', 'list'],
  ['MEDIAGATE_RATE_LIMIT_CREATES_PER_MINUTE', 'rate_limits.creates_per_minute', 'integer'],
  ['MEDIAGATE_RATE_LIMIT_READS_PER_MINUTE', 'rate_limits.reads_per_minute', 'integer'],
  ['MEDIAGATE_WATCHES_MAX_PER_PROCESS', 'watches.max_per_process', 'integer'],
  ['MEDIAGATE_WATCHES_RECHECK_INTERVAL_MS', 'watches.recheck_interval_ms', 'integer'],
  // The spec names this one without our prefix (SERVICE-SPEC "MCP server endpoints").
  ['MCP_REGISTRY_AUTH_RECORD', 'mcp.registry_auth_record', 'string'],
  ['MEDIAGATE_MCP_REGISTRY_NAME', 'mcp.registry_name', 'string'],
  ['MEDIAGATE_MCP_ALLOWED_ORIGINS', 'mcp.allowed_origins', 'list'],
  ['MEDIAGATE_MCP_ALLOWED_HOSTS', 'mcp.allowed_hosts', 'list'],
  ['MEDIAGATE_MCP_KNOWLEDGE_DIRS', 'mcp.knowledge_dirs', 'list'],
  ['MEDIAGATE_OAUTH_APPROVED_REDIRECT_URIS', 'oauth.approved_redirect_uris', 'list'],
  ['MEDIAGATE_OAUTH_COOKIE_KEYS', 'oauth.cookie_keys', 'list'],
];

export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

export const projectRoot = resolve(new URL('../../..', import.meta.url).pathname);

export function loadSettings(options: { env?: NodeJS.ProcessEnv; configDir?: string; overrides?: DeepPartial<Settings> } = {}): Settings {
  const env = options.env ?? process.env;
  const configDir = options.configDir ?? join(projectRoot, 'config');
  let settings = parse(readFileSync(join(configDir, 'default.yaml'), 'utf8')) as Record<string, unknown>;
  const profile = env.MEDIAGATE_ENV;
  if (profile) {
    const file = join(configDir, `${profile}.yaml`);
    if (!existsSync(file)) throw new SettingsError(`MEDIAGATE_ENV=${profile} but ${file} does not exist`);
    settings = merge(settings, parse(readFileSync(file, 'utf8')) ?? {});
  }
  const problems: string[] = [];
  for (const [variable, path, kind] of environmentOverrides) {
    const raw = env[variable];
    if (raw === undefined || raw === '') continue;
    let value: unknown = raw;
    if (kind === 'integer') {
      value = /^-?\d+$/.test(raw.trim()) ? Number(raw) : NaN;
      if (Number.isNaN(value)) problems.push(`${variable}=${raw} must be an integer`);
    } else if (kind === 'boolean') {
      const word = raw.trim();
      value = word === 'true' ? true : word === 'false' ? false : undefined;
      if (value === undefined) problems.push(`${variable}=${raw} must be true or false`);
    } else if (kind === 'list') {
      value = raw.split(',').map((item) => item.trim()).filter(Boolean);
    }
    setPath(settings, path, value);
  }
  // MEDIAGATE_PROVIDER_<ID>_<SETTING>=value -> providers.<id>.<setting> (e.g. MEDIAGATE_PROVIDER_OPENAI_API_KEY):
  // vendor keys come from the environment, never from a committed file.
  for (const [variable, raw] of Object.entries(env)) {
    const match = /^MEDIAGATE_PROVIDER_([A-Z0-9]+)_([A-Z0-9_]+)$/.exec(variable);
    if (!match || raw === undefined || raw === '') continue;
    const value = raw === 'true' ? true : raw === 'false' ? false : /^\d+$/.test(raw) ? Number(raw) : raw;
    setPath(settings, `providers.${match[1].toLowerCase()}.${match[2].toLowerCase()}`, value);
  }
  if (options.overrides) settings = merge(settings, options.overrides as Record<string, unknown>);
  const validate = compileSchema(settingsSchema, { useDefaults: false });
  if (!validate(settings)) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'anyOf' || error.keyword === 'if') continue;
      const path = error.instancePath.slice(1).replace(/\//g, '.') || '(root)';
      const extra = error.keyword === 'additionalProperties' ? ` (${(error.params as { additionalProperty: string }).additionalProperty})` : '';
      problems.push(`${path} ${error.message}${extra}`);
    }
  }
  const server = (settings as { server?: { host?: string; public_url?: string } }).server;
  if (server && !server.public_url && (server.host === '0.0.0.0' || server.host === '::')) {
    problems.push(`server.public_url (MEDIAGATE_PUBLIC_URL) must be set when listening on ${server.host}: it is the base of every URL the API hands out`);
  }
  if (problems.length > 0) throw new SettingsError(`invalid configuration:\n  ${[...new Set(problems)].join('\n  ')}`);
  const result = settings as unknown as Settings;
  result.data_dir = resolve(result.data_dir);
  result.mcp.knowledge_dirs = result.mcp.knowledge_dirs.map((directory) => resolve(projectRoot, directory));
  if (!result.database.url) result.database.url = `sqlite:${join(result.data_dir, 'mediagate.sqlite')}`;
  if (!result.server.public_url) result.server.public_url = `http://${result.server.host}:${result.server.port}`;
  result.server.public_url = result.server.public_url.replace(/\/+$/, '');
  return result;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? (T[K] extends unknown[] ? T[K] : DeepPartial<T[K]>) : T[K] };

function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = result[key];
    result[key] =
      value && typeof value === 'object' && !Array.isArray(value) && current && typeof current === 'object' && !Array.isArray(current)
        ? merge(current as Record<string, unknown>, value as Record<string, unknown>)
        : value;
  }
  return result;
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split('.');
  let current = target;
  for (const step of steps.slice(0, -1)) {
    if (!current[step] || typeof current[step] !== 'object') current[step] = {};
    current = current[step] as Record<string, unknown>;
  }
  current[steps.at(-1)!] = value;
}
