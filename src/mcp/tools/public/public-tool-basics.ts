/** What every public tool shares: read-only annotations, and kernel lookups that fail as tool errors. */
import type { ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod/v4';
import type { OperationDefinition, OperationRegistry } from '../../../kernel/manifests/index.js';
import { ToolError } from '../mcp-tool.js';

/** Public tools only read the gateway's own published knowledge: nothing outside it, nothing written. */
export const readOnly: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

export const operationName = z.string().min(1).describe('An operation name such as `video.generate` (see list_capabilities).');
export const jsonObject = z.record(z.string(), z.unknown());

export function requireOperation(registry: OperationRegistry, operation: string): OperationDefinition {
  const definition = registry.get(operation);
  if (!definition) throw new ToolError('MG_UNKNOWN_OPERATION', `unknown operation ${operation}; valid: ${registry.names().join(', ')}`, { errors: [{ path: '/operation', message: `unknown operation ${operation}` }] });
  return definition;
}

export function requireModel(definition: OperationDefinition, model: string): void {
  if (definition.manifest.routing.models[model]) return;
  const valid = Object.keys(definition.manifest.routing.models).join(', ');
  throw new ToolError('MG_VALIDATION_FAILED', `model ${model} is not a model of ${definition.name}; valid: ${valid}`, { errors: [{ path: '/model', message: `must be one of ${valid}` }] });
}
