/**
 * Validates values against the schemas of a served OpenAPI document with ajv (JSON Schema 2020-12, as the gateway
 * validates): `validatorAt('#/components/schemas/RequestDetail')` follows the document's `$ref`s. `discriminator`
 * is left to `oneOf`, which tells the variants apart by their `operation` const anyway.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface DocumentValidator {
  validatorAt(pointer: string): ValidateFunction;
  /** `[]` when `value` fits the schema at `pointer`, else ajv's messages. */
  problems(pointer: string, value: unknown): string[];
}

export function documentValidator(document: object): DocumentValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(document, 'openapi');
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (pointer: string) => {
    let validate = compiled.get(pointer);
    if (!validate) compiled.set(pointer, (validate = ajv.compile({ $ref: `openapi${pointer}` })));
    return validate;
  };
  return {
    validatorAt,
    problems(pointer, value) {
      const validate = validatorAt(pointer);
      return validate(value) ? [] : (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
    },
  };
}
