/**
 * The schema every manifest must satisfy before the gateway starts. A broken manifest stops the
 * process with the file name and the JSON pointer of the fault (see load-manifests.ts).
 */
import { usageMeasures } from '../credits/usage.js';

const deprecation = {
  type: 'object',
  additionalProperties: false,
  required: ['message', 'since'],
  properties: {
    message: { type: 'string', minLength: 1 },
    replacement: { type: 'string' },
    since: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
    sunset: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
  },
};

const pluginId = { type: 'string', pattern: '^[a-z0-9-]+$' };

const schemaObject = { type: 'object', required: ['type'], properties: { type: { const: 'object' } } };

export const manifestMetaSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['operation', 'summary', 'family', 'input', 'output', 'credits', 'routing', 'polling'],
  properties: {
    operation: { type: 'string', pattern: '^[a-z0-9_]+(\\.[a-z0-9_]+)+$' },
    summary: { type: 'string', minLength: 1 },
    family: { type: 'string', minLength: 1 },
    deprecated: deprecation,
    input: {
      ...schemaObject,
      required: ['type', 'properties', 'additionalProperties'],
      properties: { type: { const: 'object' }, additionalProperties: { const: false }, properties: { type: 'object' } },
    },
    output: schemaObject,
    defaults: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['when', 'set'],
        properties: {
          when: {
            type: 'object',
            additionalProperties: {
              anyOf: [
                { type: ['string', 'number', 'boolean'] },
                { type: 'object', additionalProperties: false, required: ['present'], properties: { present: { type: 'boolean' } } },
              ],
            },
          },
          set: { type: 'object', minProperties: 1 },
        },
      },
    },
    credits: {
      type: 'object',
      additionalProperties: false,
      required: ['base'],
      properties: {
        base: { type: 'number', minimum: 0 },
        min: { type: 'integer', minimum: 0 },
        max: { type: 'integer', minimum: 0 },
        per: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['field', 'rate'],
            properties: {
              field: { type: 'string' },
              rate: { type: 'number', minimum: 0 },
              default: { type: 'number' },
              measure: { enum: ['value', 'length'] },
            },
          },
        },
        multiply: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['field', 'default'],
            properties: {
              field: { type: 'string' },
              map: { type: 'object', additionalProperties: { type: 'number', minimum: 0 } },
              numeric: { type: 'boolean' },
              default: { type: 'number', minimum: 0 },
            },
          },
        },
        // Priced field -> the usage measure that replaces it when the request is settled (load-manifests.ts checks
        // that each field is one the rule prices by value).
        settle: {
          type: 'object',
          additionalProperties: false,
          required: ['replace'],
          properties: {
            replace: { type: 'object', minProperties: 1, propertyNames: { pattern: '^[a-z0-9_]+$' }, additionalProperties: { enum: [...usageMeasures] } },
          },
        },
      },
    },
    routing: {
      type: 'object',
      additionalProperties: false,
      required: ['default_model', 'models'],
      properties: {
        model_field: { type: 'string' },
        default_model: { type: 'string' },
        models: {
          type: 'object',
          minProperties: 1,
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            required: ['vendor_model'],
            // Served by `plugin`, or waiting for the `planned` plugin to be written: exactly one of the two.
            oneOf: [{ required: ['plugin'] }, { required: ['planned'] }],
            properties: {
              vendor_model: { type: 'string', minLength: 1 },
              label: { type: 'string' },
              family: { type: 'string' },
              plugin: pluginId,
              planned: pluginId,
              fallbacks: { type: 'array', items: pluginId },
              disabled: { type: 'string', minLength: 1 },
              deprecated: deprecation,
            },
          },
        },
      },
    },
    polling: {
      type: 'object',
      additionalProperties: false,
      required: ['first_after_ms', 'every_ms', 'backoff', 'max_every_ms', 'give_up_after_ms'],
      properties: {
        first_after_ms: { type: 'integer', minimum: 0 },
        every_ms: { type: 'integer', minimum: 1 },
        backoff: { type: 'number', minimum: 1 },
        max_every_ms: { type: 'integer', minimum: 1 },
        give_up_after_ms: { type: 'integer', minimum: 1 },
        // Per plugin id: the timings that differ when that plugin serves the operation (polling-strategy.ts).
        providers: {
          type: 'object',
          additionalProperties: {
            type: 'object',
            additionalProperties: false,
            minProperties: 1,
            properties: {
              first_after_ms: { type: 'integer', minimum: 0 },
              every_ms: { type: 'integer', minimum: 1 },
              backoff: { type: 'number', minimum: 1 },
              max_every_ms: { type: 'integer', minimum: 1 },
            },
          },
        },
      },
    },
    examples: { type: 'array', items: { type: 'object' } },
    // Input fields naming workspace objects: checked at create, linked to the artifacts at success.
    workspace_links: {
      type: 'object',
      additionalProperties: { enum: ['workspace', 'project', 'world', 'asset:character', 'asset:object', 'asset:location', 'asset:zone'] },
    },
  },
} as const;
