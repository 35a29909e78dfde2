/** The schema names, `$ref`s and path parameter the OpenAPI builders share, so each is spelled in one place. */

export type Schema = Record<string, unknown>;

export type OperationSchemaKind = 'Create' | 'Output' | 'RequestObject' | 'RequestDetail';

export const schemaName = (operation: string, kind: OperationSchemaKind) => `${kind}_${operation.replace(/\./g, '_')}`;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/**
 * One variant per operation, told apart by the `operation` property: a `oneOf` with a discriminator whose mapping
 * names every variant, the form client generators (openapi-typescript, openapi-generator) and Redoc turn into a
 * union narrowed by `operation`.
 */
export function operationUnion(operations: string[], kind: OperationSchemaKind): Schema {
  return {
    oneOf: operations.map((operation) => ref(schemaName(operation, kind))),
    discriminator: {
      propertyName: 'operation',
      mapping: Object.fromEntries(operations.map((operation) => [operation, ref(schemaName(operation, kind)).$ref])),
    },
  };
}

export const requestIdParameter = () => ({ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } });
