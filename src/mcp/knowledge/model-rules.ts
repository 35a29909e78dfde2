/**
 * The per-model rules of a manifest (resolution sets, duration sets, caps), read from its `allOf` conditions:
 * each `if` that selects models by the model field contributes the `errorMessage` texts of its `then`. These are
 * the very messages a 422 would carry, so a model sees the rule before it hits it.
 */
import type { JsonSchema, OperationManifest } from '../../kernel/manifests/index.js';

export function rulesForModel(manifest: OperationManifest, model: string): string[] {
  const field = manifest.routing.model_field;
  if (!field) return collectMessages(manifest.input.allOf);
  const rules: string[] = [];
  for (const condition of (manifest.input.allOf ?? []) as JsonSchema[]) {
    const selector = ((condition.if as JsonSchema | undefined)?.properties as Record<string, JsonSchema> | undefined)?.[field];
    if (selector && selects(selector, model)) rules.push(...collectMessages(condition.then));
  }
  return [...new Set(rules)];
}

/** Whether a JSON Schema on the model field accepts this model value (const, enum, not). */
function selects(schema: JsonSchema, model: string): boolean {
  if (schema.const !== undefined) return schema.const === model;
  if (Array.isArray(schema.enum)) return schema.enum.includes(model);
  if (schema.not && typeof schema.not === 'object') return !selects(schema.not as JsonSchema, model);
  return true;
}

function collectMessages(schema: unknown): string[] {
  if (!schema || typeof schema !== 'object') return [];
  if (Array.isArray(schema)) return schema.flatMap(collectMessages);
  const own = typeof (schema as JsonSchema).errorMessage === 'string' ? [(schema as JsonSchema).errorMessage as string] : [];
  return [...own, ...Object.entries(schema).filter(([key]) => key !== 'errorMessage').flatMap(([, value]) => collectMessages(value))];
}
