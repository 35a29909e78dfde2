/**
 * `recommend_workflow` and `compare_alternatives`: reasoning over the manifests (media in and out, models,
 * credit rules, per-model rules) and the plugin registry, never over canned answers.
 */
import * as z from 'zod/v4';
import { modelAvailability } from '../../knowledge/model-availability.js';
import { rulesForModel } from '../../knowledge/model-rules.js';
import { modelRecordId, operationRecordId } from '../../knowledge/operation-records.js';
import { priceExample } from '../../knowledge/price-example.js';
import { recordUrl } from '../../knowledge/record-urls.js';
import { planWorkflow } from '../../knowledge/workflow-planner.js';
import { defineTool } from '../mcp-tool.js';
import { jsonObject, operationName, readOnly, requireOperation } from './public-tool-basics.js';

export const recommendWorkflowTool = defineTool({
  name: 'recommend_workflow',
  title: 'Plan a goal as operations',
  description: 'Turns a goal ("talking head from a photo", "captioned clip", "3D model of my sneaker from photos") into ordered steps: which operation and default model makes each medium, where each input comes from (your media or an earlier step\'s output URL), and an estimated credit total priced with the gateway\'s own credit rules. `reasoning` says why each step was chosen. Nothing is created or charged.',
  access: 'public',
  inputSchema: { goal: z.string().min(3).max(500).describe('What you want to make, and from what ("from a photo", "from my video").') },
  outputSchema: {
    goal: z.string(),
    workflow: z.object({ id: z.string(), title: z.string(), url: z.string() }).nullable(),
    available_media: z.array(z.string()),
    steps: z.array(
      z.object({
        step: z.number().int(),
        operation: z.string(),
        model: z.string(),
        produces: z.string(),
        inputs: z.record(z.string(), z.string()),
        estimated_credits: z.number().int().nullable(),
        priced_input: jsonObject,
        url: z.string(),
      }),
    ),
    estimated_total_credits: z.number().int().nullable(),
    reasoning: z.array(z.string()),
  },
  annotations: readOnly,
  async handler({ goal }, { gateway, knowledge, publicUrl }) {
    const plan = planWorkflow(goal, gateway.registry, knowledge.all('workflow'));
    return { ...plan, steps: plan.steps.map((step) => ({ ...step, url: recordUrl(publicUrl, operationRecordId(step.operation)) })) };
  },
});

export const compareAlternativesTool = defineTool({
  name: 'compare_alternatives',
  title: 'Compare the models of an operation',
  description: 'Compares every model of one operation for your input (e.g. video.generate with {"duration": 10, "resolution": "1080p"}): the credits each would cost, the rules that refuse it (e.g. "Kling renders 5 or 10 seconds"), its live availability and its per-model limits; cheapest accepted model first. Nothing is created or charged.',
  access: 'public',
  inputSchema: {
    operation: operationName,
    input: jsonObject.optional().describe('Input to price every model with, e.g. {"duration": 10, "resolution": "1080p"}.'),
  },
  outputSchema: {
    operation: z.string(),
    model_field: z.string().nullable(),
    alternatives: z.array(
      z.object({
        model: z.string(),
        label: z.string(),
        model_family: z.string().nullable(),
        credits: z.number().int().nullable(),
        refused_because: z.array(z.string()),
        rules: z.array(z.string()),
        availability: z.enum(['available', 'degraded', 'unavailable', 'disabled']),
        served_by: z.string().nullable(),
        deprecated: z.boolean(),
        url: z.string(),
      }),
    ),
    cheapest: z.string().nullable(),
  },
  annotations: readOnly,
  async handler({ operation, input }, { gateway, publicUrl }) {
    const definition = requireOperation(gateway.registry, operation);
    const { manifest } = definition;
    const field = manifest.routing.model_field ?? null;
    const alternatives = Object.entries(manifest.routing.models).map(([model, route]) => {
      const priced = priceExample(definition, field ? { ...input, [field]: model } : { ...input });
      const availability = modelAvailability(gateway.plugins, operation, route);
      return {
        model,
        label: route.label ?? route.vendor_model,
        model_family: route.family ?? null,
        credits: priced.credits,
        refused_because: (priced.errors ?? []).map((error) => `${error.path}: ${error.message}`),
        rules: rulesForModel(manifest, model),
        availability: availability.state,
        served_by: availability.served_by,
        deprecated: route.deprecated !== undefined,
        url: recordUrl(publicUrl, modelRecordId(operation, model)),
      };
    });
    // Accepted models by price, then the refused ones; the sort is stable, so ties keep the manifest's order.
    alternatives.sort((a, b) => (a.credits ?? Number.POSITIVE_INFINITY) - (b.credits ?? Number.POSITIVE_INFINITY));
    return { operation, model_field: field, alternatives, cheapest: alternatives.find((entry) => entry.credits !== null && entry.availability !== 'disabled')?.model ?? null };
  },
});
