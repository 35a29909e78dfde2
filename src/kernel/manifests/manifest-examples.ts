/**
 * A manifest example names the gateway's own sample media as `{public_url}/samples/<name>`: the base differs per
 * deployment, so the manifest holds a placeholder and every place that shows an example (the OpenAPI document, the
 * MCP knowledge and tools) renders it with `server.public_url`, so that an example can be sent exactly as shown.
 */
import type { OperationManifest } from './manifest-types.js';

export const PUBLIC_URL_PLACEHOLDER = '{public_url}';

export function renderExamples(manifest: OperationManifest, publicUrl: string): Record<string, unknown>[] {
  const base = publicUrl.replace(/\/+$/, '');
  return (manifest.examples ?? []).map((example) => renderValue(example, base) as Record<string, unknown>);
}

function renderValue(value: unknown, base: string): unknown {
  if (typeof value === 'string') return value.replaceAll(PUBLIC_URL_PLACEHOLDER, base);
  if (Array.isArray(value)) return value.map((item) => renderValue(item, base));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderValue(item, base)]));
  return value;
}
