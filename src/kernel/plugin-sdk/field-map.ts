/**
 * Declarative input mapping, one table per vendor endpoint (after Portkey's provider parameter maps):
 * our field -> the vendor's field (a dot path), with an optional transform and default. Plugins describe
 * the mapping as data and call `mapFields`; nothing else in a plugin renames fields.
 */
import type { JsonObject, JsonValue } from './contract.js';
import { ProviderError } from './provider-error.js';

export interface FieldRule {
  /** Dot path in the vendor body, e.g. `voice_settings.stability`. */
  to: string;
  /** Converts our value (e.g. `16:9` -> `1280x720`); returning undefined leaves the field out. */
  transform?: (value: JsonValue, input: JsonObject) => JsonValue | undefined;
  /** Used when our field is absent. */
  default?: JsonValue;
}

export type FieldMap = Record<string, FieldRule | string>;

export function mapFields(input: JsonObject, map: FieldMap, base: JsonObject = {}): JsonObject {
  const out: JsonObject = structuredClone(base);
  for (const [ours, rule] of Object.entries(map)) {
    const { to, transform, default: fallback } = typeof rule === 'string' ? { to: rule, transform: undefined, default: undefined } : rule;
    const raw = input[ours] ?? fallback;
    if (raw === undefined) continue;
    const value = transform ? transform(raw, input) : raw;
    if (value === undefined) continue;
    setPath(out, to, value);
  }
  return out;
}

function setPath(target: JsonObject, path: string, value: JsonValue): void {
  const steps = path.split('.');
  let current = target;
  for (const step of steps.slice(0, -1)) {
    if (typeof current[step] !== 'object' || current[step] === null || Array.isArray(current[step])) current[step] = {};
    current = current[step] as JsonObject;
  }
  current[steps.at(-1)!] = value;
}

/** Reads a dot path out of a vendor response; undefined when any step is missing. */
export function pick(data: unknown, path: string): unknown {
  let current = data;
  for (const step of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[/^\d+$/.test(step) && Array.isArray(current) ? Number(step) : step];
  }
  return current;
}

/** A non-blank string at a dot path of a vendor response, trimmed; undefined for anything else. */
export function textAt(data: unknown, path: string): string | undefined {
  const value = pick(data, path);
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** A required field of a vendor response: missing means the vendor broke its contract (permanent failure). */
export function requireField<T>(data: unknown, path: string, provider: string, expected: 'string' | 'number' | 'array' | 'object' = 'string'): T {
  const value = pick(data, path);
  const ok = expected === 'array' ? Array.isArray(value) : expected === 'object' ? value !== null && typeof value === 'object' : typeof value === expected;
  if (!ok) throw new MalformedVendorResponse(provider, path, expected);
  return value as T;
}



export class MalformedVendorResponse extends ProviderError {
  constructor(provider: string, path: string, expected: string) {
    super(`${provider}: malformed response: ${path} is missing or not a ${expected}`, { provider, retryable: false, vendorCode: 'malformed_response' });
  }
}
