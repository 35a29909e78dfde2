/**
 * A manifest's schemas are written for the gateway's validator, which also reads ajv-errors' `errorMessage` (the
 * 422 text of a rule). That keyword is not OpenAPI 3.1 JSON Schema, so the document shows a copy without it; the
 * manifest keeps it. Any other keyword passes through unchanged: one the linter does not know fails
 * test/e2e/openapi-lint.test.ts rather than vanishing from the document while the gateway still enforces it.
 */
import type { Schema } from './schema-refs.js';

const validatorOnlyKeywords = new Set(['errorMessage']);

// Where JSON Schema 2020-12 (and OpenAPI 3.1) nest subschemas. Every other value is data (`enum`, `const`,
// `default`, `examples`, ...) and is copied as it is, even when it holds a key spelled like a keyword.
const schemaKeywords = new Set(['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems']);
const schemaListKeywords = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const schemaMapKeywords = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);

export function withoutValidatorKeywords(schema: Schema): Schema {
  const copy: Schema = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (validatorOnlyKeywords.has(keyword)) continue;
    if (schemaKeywords.has(keyword)) copy[keyword] = subschema(value);
    else if (schemaListKeywords.has(keyword) && Array.isArray(value)) copy[keyword] = value.map(subschema);
    else if (schemaMapKeywords.has(keyword) && isObject(value)) copy[keyword] = Object.fromEntries(Object.entries(value).map(([name, item]) => [name, subschema(item)]));
    else copy[keyword] = structuredClone(value);
  }
  return copy;
}

/** A subschema may be a boolean schema (`additionalProperties: false`). */
const subschema = (value: unknown): unknown => (isObject(value) ? withoutValidatorKeywords(value) : value);

const isObject = (value: unknown): value is Schema => typeof value === 'object' && value !== null && !Array.isArray(value);
