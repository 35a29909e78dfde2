/** The schema names, `$ref`s and path parameter the OpenAPI builders share, so each is spelled in one place. */

export type Schema = Record<string, unknown>;

export const schemaName = (operation: string, kind: 'Create' | 'Output') => `${kind}_${operation.replace(/\./g, '_')}`;
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const requestIdParameter = () => ({ name: 'requestId', in: 'path', required: true, schema: { type: 'string' } });
