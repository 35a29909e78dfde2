import type { ConditionalDefault } from './manifest-types.js';

/**
 * Applies a manifest's conditional defaults in order: each entry whose `when` holds sets the fields
 * of `set` that are still absent, so the first matching entry wins per field and client values win always.
 */
export function applyConditionalDefaults(input: Record<string, unknown>, defaults: ConditionalDefault[] = []): void {
  for (const entry of defaults) {
    if (!Object.entries(entry.when).every(([field, condition]) => holds(input[field], condition))) continue;
    for (const [field, value] of Object.entries(entry.set)) {
      if (input[field] === undefined) input[field] = structuredClone(value);
    }
  }
}

function holds(value: unknown, condition: ConditionalDefault['when'][string]): boolean {
  if (typeof condition === 'object') return (value !== undefined && value !== null) === condition.present;
  return value === condition;
}
