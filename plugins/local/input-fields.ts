/**
 * Typed reads of operation input. The manifest has already validated the shape, but the plugin is
 * also driven directly by tests and must not trust `JsonValue` blindly.
 */
import type { JsonObject, JsonValue } from '../../src/kernel/plugin-sdk/index.js';

export function readString(input: JsonObject, name: string): string | undefined {
  const value = input[name];
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return trimmed === '' ? undefined : trimmed;
  }
  if (typeof value === 'number') return String(value);
  return undefined;
}

/** Accepts numbers and numeric strings ("5", "2x" for upscale factors). */
export function readNumber(input: JsonObject, name: string): number | undefined {
  return toNumber(input[name]);
}

export function toNumber(value: JsonValue | undefined): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const parsed = Number.parseFloat(value.replace(/x$/i, ''));
    return Number.isFinite(parsed) ? parsed : undefined;
  }
  return undefined;
}

export function readBoolean(input: JsonObject, name: string): boolean | undefined {
  const value = input[name];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

export function readStringList(input: JsonObject, name: string): string[] {
  const value = input[name];
  if (!Array.isArray(value)) return [];
  return value.filter((item): item is string => typeof item === 'string' && item.trim() !== '');
}

export function readObject(input: JsonObject, name: string): JsonObject | undefined {
  const value = input[name];
  return isJsonObject(value) ? value : undefined;
}

export function readObjectList(input: JsonObject, name: string): JsonObject[] {
  const value = input[name];
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Durations bound every render's cost. The manifests enforce the real limits; this only keeps a
 * direct caller from asking the plugin for an hour of video.
 */
const MIN_DURATION_SECONDS = 0.5;
const MAX_DURATION_SECONDS = 600;

export function readDuration(input: JsonObject, name: string, fallback: number): number {
  const value = readNumber(input, name);
  if (value === undefined || value <= 0) return fallback;
  return Math.min(MAX_DURATION_SECONDS, Math.max(MIN_DURATION_SECONDS, value));
}
