/** `get_pricing_context`: an operation's credit rule in words, and the price of an example input. */
import * as z from 'zod/v4';
import { describeCreditRule } from '../../knowledge/credit-rule-text.js';
import { operationRecordId } from '../../knowledge/operation-records.js';
import { priceExample } from '../../knowledge/price-example.js';
import { recordUrl } from '../../knowledge/record-urls.js';
import { defineTool, ToolError } from '../mcp-tool.js';
import { jsonObject, operationName, readOnly, requireModel, requireOperation } from './public-tool-basics.js';

export const getPricingContextTool = defineTool({
  name: 'get_pricing_context',
  title: 'Explain and estimate credits',
  description: 'Explains how an operation is priced in credits (its declarative rule: base, per-unit terms, multipliers, minimum) and prices an example input exactly as a create would, without creating anything or reading any account. Give `input` (and optionally `model`) to price your own parameters; required fields you leave out get placeholders, which never change the price.',
  access: 'public',
  inputSchema: {
    operation: operationName,
    model: z.string().optional().describe('A model of the operation; default: the operation\'s default model.'),
    input: jsonObject.optional().describe('Operation input to price, e.g. {"duration": 10, "resolution": "720p"}.'),
  },
  outputSchema: {
    operation: z.string(),
    model: z.string(),
    rule: jsonObject,
    explanation: z.array(z.string()),
    priced_input: jsonObject,
    credits: z.number().int(),
    url: z.string(),
  },
  annotations: readOnly,
  async handler({ operation, model, input }, { gateway, publicUrl }) {
    const definition = requireOperation(gateway.registry, operation);
    const given: Record<string, unknown> = { ...input };
    const field = definition.manifest.routing.model_field;
    if (model !== undefined) {
      requireModel(definition, model);
      if (field) given[field] = model;
    }
    const priced = priceExample(definition, given);
    if (priced.credits === null) throw new ToolError('MG_VALIDATION_FAILED', `input does not validate for ${operation}`, { errors: priced.errors });
    return {
      operation,
      model: priced.model,
      rule: { ...definition.manifest.credits },
      explanation: describeCreditRule(definition.manifest.credits),
      priced_input: priced.input,
      credits: priced.credits,
      url: recordUrl(publicUrl, operationRecordId(operation)),
    };
  },
});
