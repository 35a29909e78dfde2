/** `list_capabilities` and `get_api_operation`: what the gateway can make, and the REST contract of each operation. */
import * as z from 'zod/v4';
import { renderExamples } from '../../../kernel/manifests/index.js';
import { producedKind, mediaInputs } from '../../knowledge/media-kinds.js';
import { modelRecordId, operationRecordId } from '../../knowledge/operation-records.js';
import { recordUrl } from '../../knowledge/record-urls.js';
import { defineTool } from '../mcp-tool.js';
import { jsonObject, operationName, readOnly, requireOperation } from './public-tool-basics.js';

export const listCapabilitiesTool = defineTool({
  name: 'list_capabilities',
  title: 'List operations and models',
  description: 'Lists every operation this gateway serves, grouped by family (image, video, audio, 3d, prompt, partner2), with what each consumes and produces, its models and its default model. Start here to see what can be generated.',
  access: 'public',
  inputSchema: { family: z.string().optional().describe('Only this family, e.g. `video`.') },
  outputSchema: {
    families: z.array(
      z.object({
        family: z.string(),
        operations: z.array(
          z.object({
            operation: z.string(),
            summary: z.string(),
            consumes: z.array(z.string()),
            produces: z.string(),
            default_model: z.string(),
            models: z.array(z.object({ model: z.string(), label: z.string(), url: z.string() })),
            deprecated: z.boolean(),
            url: z.string(),
          }),
        ),
      }),
    ),
    operation_count: z.number().int(),
    model_count: z.number().int(),
  },
  annotations: readOnly,
  async handler({ family }, { gateway, publicUrl }) {
    const definitions = gateway.registry.all().filter((definition) => family === undefined || definition.manifest.family === family);
    const families = [...new Set(definitions.map((definition) => definition.manifest.family))].sort();
    const operations = definitions.map(({ manifest }) => ({
      family: manifest.family,
      operation: manifest.operation,
      summary: manifest.summary,
      consumes: [...new Set(['text', ...mediaInputs(manifest).flatMap((input) => input.kinds)])],
      produces: producedKind(manifest),
      default_model: manifest.routing.default_model,
      models: Object.entries(manifest.routing.models).map(([model, route]) => ({ model, label: route.label ?? route.vendor_model, url: recordUrl(publicUrl, modelRecordId(manifest.operation, model)) })),
      deprecated: manifest.deprecated !== undefined,
      url: recordUrl(publicUrl, operationRecordId(manifest.operation)),
    }));
    return {
      families: families.map((name) => ({ family: name, operations: operations.filter((entry) => entry.family === name).map(({ family: _family, ...entry }) => entry) })),
      operation_count: operations.length,
      model_count: operations.reduce((sum, entry) => sum + entry.models.length, 0),
    };
  },
});

export const getApiOperationTool = defineTool({
  name: 'get_api_operation',
  title: 'REST contract of an operation',
  description: 'Returns how to call one operation over the REST API: endpoint, the JSON Schema of `input` and of the success `output`, example create bodies, the estimate and poll endpoints and the polling delay. Use it to write client code or to build a valid input.',
  access: 'public',
  inputSchema: { operation: operationName },
  outputSchema: {
    operation: z.string(),
    summary: z.string(),
    endpoint: z.object({ method: z.literal('POST'), url: z.string(), body: z.string() }),
    estimate_endpoint: z.object({ method: z.literal('POST'), url: z.string() }),
    poll_endpoint: z.object({ method: z.literal('GET'), url: z.string() }),
    input_schema: jsonObject,
    output_schema: jsonObject,
    examples: z.array(jsonObject),
    poll_after_ms: z.number().int(),
    deprecated: z.object({ message: z.string(), replacement: z.string().optional() }).nullable(),
    openapi_url: z.string(),
    url: z.string(),
  },
  annotations: readOnly,
  async handler({ operation }, { gateway, publicUrl }) {
    const { manifest } = requireOperation(gateway.registry, operation);
    return {
      operation: manifest.operation,
      summary: manifest.summary,
      endpoint: { method: 'POST' as const, url: `${publicUrl}/api/v1/requests`, body: `{"operation": "${manifest.operation}", "input": {...}, "webhook_url"?: "https://..."} with header x-api-key` },
      estimate_endpoint: { method: 'POST' as const, url: `${publicUrl}/api/v1/estimates` },
      poll_endpoint: { method: 'GET' as const, url: `${publicUrl}/api/v1/requests/{id}` },
      input_schema: manifest.input,
      output_schema: manifest.output,
      examples: renderExamples(manifest, publicUrl).map((input) => ({ operation: manifest.operation, input })),
      poll_after_ms: manifest.polling.first_after_ms,
      deprecated: manifest.deprecated ? { message: manifest.deprecated.message, ...(manifest.deprecated.replacement ? { replacement: manifest.deprecated.replacement } : {}) } : null,
      openapi_url: `${publicUrl}/api/v1/openapi`,
      url: recordUrl(publicUrl, operationRecordId(manifest.operation)),
    };
  },
});
