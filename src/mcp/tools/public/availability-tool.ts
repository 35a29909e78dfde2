/** `get_model_availability`: whether each model can be served now, read from the plugin registry at call time. */
import * as z from 'zod/v4';
import { modelAvailability } from '../../knowledge/model-availability.js';
import { modelRecordId } from '../../knowledge/operation-records.js';
import { recordUrl } from '../../knowledge/record-urls.js';
import { defineTool } from '../mcp-tool.js';
import { readOnly, requireModel, requireOperation } from './public-tool-basics.js';

const availabilityShape = z.object({
  operation: z.string(),
  model: z.string(),
  label: z.string(),
  state: z.enum(['available', 'degraded', 'unavailable', 'disabled']),
  served_by: z.string().nullable(),
  primary_plugin: z.string().nullable(),
  planned: z.string().nullable(),
  candidates: z.array(z.object({ plugin: z.string(), breaker: z.enum(['closed', 'open', 'half_open']), synthetic: z.boolean() })),
  reason: z.string(),
  url: z.string(),
});

export const getModelAvailabilityTool = defineTool({
  name: 'get_model_availability',
  title: 'Live model availability',
  description: 'Says, right now, whether each model can be served: `available` (and by which provider, noting when the offline stand-in serves it), `degraded` (its providers\' circuit breakers are open: requests wait), `unavailable` (no provider configured, or its plugin is only planned) or `disabled`. Filter by operation and model.',
  access: 'public',
  inputSchema: {
    operation: z.string().optional().describe('Only this operation, e.g. `video.generate`.'),
    model: z.string().optional().describe('Only this model (needs `operation`).'),
  },
  outputSchema: { models: z.array(availabilityShape) },
  annotations: readOnly,
  async handler({ operation, model }, { gateway, publicUrl }) {
    const definitions = operation === undefined ? gateway.registry.all() : [requireOperation(gateway.registry, operation)];
    if (model !== undefined && operation !== undefined) requireModel(definitions[0], model);
    return {
      models: definitions.flatMap(({ manifest }) =>
        Object.entries(manifest.routing.models)
          .filter(([name]) => model === undefined || name === model)
          .map(([name, route]) => ({
            operation: manifest.operation,
            model: name,
            label: route.label ?? route.vendor_model,
            ...modelAvailability(gateway.plugins, manifest.operation, route),
            url: recordUrl(publicUrl, modelRecordId(manifest.operation, name)),
          })),
      ),
    };
  },
});
