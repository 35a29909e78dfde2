/**
 * One knowledge record per operation and per model, written from the manifests and the plugin registry: the
 * same data the REST API validates, prices and routes with, so the knowledge cannot disagree with the API.
 */
import type { Gateway } from '../../kernel/gateway.js';
import { renderExamples, type JsonSchema, type ModelRoute, type OperationDefinition } from '../../kernel/manifests/index.js';
import { describeCreditRule } from './credit-rule-text.js';
import type { KnowledgeRecord } from './knowledge-registry.js';
import { mediaInputs, producedKind } from './media-kinds.js';
import { modelAvailability } from './model-availability.js';
import { rulesForModel } from './model-rules.js';
import { recordId, recordUrl } from './record-urls.js';

export function operationRecords(gateway: Gateway, publicUrl: string): KnowledgeRecord[] {
  return gateway.registry.all().flatMap((definition) => [
    operationRecord(definition, publicUrl),
    ...Object.entries(definition.manifest.routing.models).map(([model, route]) => modelRecord(gateway, definition, model, route, publicUrl)),
  ]);
}

export const operationRecordId = (operation: string) => recordId('operation', operation);
export const modelRecordId = (operation: string, model: string) => recordId('model', `${operation}/${model}`);

function operationRecord(definition: OperationDefinition, publicUrl: string): KnowledgeRecord {
  const { manifest } = definition;
  const id = operationRecordId(manifest.operation);
  const models = Object.entries(manifest.routing.models);
  const text = [
    `# ${manifest.operation}`,
    manifest.summary,
    manifest.deprecated ? `**Deprecated** since ${manifest.deprecated.since}: ${manifest.deprecated.message}` : '',
    `Family: ${manifest.family}. Produces: ${producedKind(manifest)}. Create it with \`POST /api/v1/requests\` and \`{"operation": "${manifest.operation}", "input": {...}}\`; poll \`GET /api/v1/requests/{id}\`.`,
    '## Input',
    inputTable(manifest.input),
    '## Models',
    models.map(([model, route]) => `- \`${model}\`${model === manifest.routing.default_model ? ' (default)' : ''}: ${modelLine(route)}`).join('\n'),
    '## Credits',
    describeCreditRule(manifest.credits).map((line) => `- ${line}`).join('\n'),
    '## Polling',
    `First poll after ${manifest.polling.first_after_ms} ms (\`poll_after_ms\`); the request fails and is refunded after ${manifest.polling.give_up_after_ms / 1000} s in processing.`,
    ...(manifest.examples?.length ? ['## Examples', ...renderExamples(manifest, publicUrl).map((example) => '```json\n' + JSON.stringify({ operation: manifest.operation, input: example }, null, 2) + '\n```')] : []),
  ];
  return {
    id,
    kind: 'operation',
    title: `${manifest.operation}: ${manifest.summary}`,
    url: recordUrl(publicUrl, id),
    text: text.filter(Boolean).join('\n\n'),
    metadata: {
      operation: manifest.operation,
      family: manifest.family,
      produces: producedKind(manifest),
      media_inputs: mediaInputs(manifest),
      default_model: manifest.routing.default_model,
      models: models.map(([model]) => model),
      deprecated: manifest.deprecated !== undefined,
      tags: [manifest.family, producedKind(manifest), ...manifest.operation.split('.')],
    },
  };
}

function modelRecord(gateway: Gateway, definition: OperationDefinition, model: string, route: ModelRoute, publicUrl: string): KnowledgeRecord {
  const { manifest } = definition;
  const id = modelRecordId(manifest.operation, model);
  const availability = modelAvailability(gateway.plugins, manifest.operation, route);
  const rules = rulesForModel(manifest, model);
  const label = route.label ?? route.vendor_model;
  const text = [
    `# ${label} (\`${model}\`) for ${manifest.operation}`,
    `${modelLine(route)}.`,
    manifest.routing.model_field ? `Select it with \`input.${manifest.routing.model_field}: "${model}"\`${model === manifest.routing.default_model ? ' (it is the default)' : ''}.` : 'The only model of this operation.',
    route.deprecated ? `**Deprecated** since ${route.deprecated.since}: ${route.deprecated.message}` : '',
    `Availability at start: ${availability.state}, ${availability.reason}. Ask \`get_model_availability\` for the live state.`,
    rules.length ? '## Rules\n' + rules.map((rule) => `- ${rule}`).join('\n') : '',
    `Credits follow the rule of [${manifest.operation}](${recordUrl(publicUrl, operationRecordId(manifest.operation))}).`,
  ];
  return {
    id,
    kind: 'model',
    title: `${label} (${model}) — ${manifest.operation}`,
    url: recordUrl(publicUrl, id),
    text: text.filter(Boolean).join('\n\n'),
    metadata: {
      operation: manifest.operation,
      model,
      label,
      model_family: route.family ?? null,
      vendor_model: route.vendor_model,
      default: model === manifest.routing.default_model,
      rules,
      availability_at_start: availability.state,
      tags: [manifest.family, route.family ?? '', model].filter(Boolean),
    },
  };
}

function modelLine(route: ModelRoute): string {
  const served = route.plugin ? `served by the ${route.plugin} plugin` : `planned: the ${route.planned} plugin is not written yet`;
  const fallbacks = route.fallbacks?.length ? `, fallbacks ${route.fallbacks.join(', ')}` : '';
  const notes = [route.disabled ? `disabled: ${route.disabled}` : '', route.deprecated ? 'deprecated' : ''].filter(Boolean);
  return `${route.label ?? route.vendor_model} (vendor model ${route.vendor_model}), ${served}${fallbacks}${notes.length ? ` (${notes.join('; ')})` : ''}`;
}

function inputTable(input: JsonSchema): string {
  const required = new Set((input.required as string[] | undefined) ?? []);
  const rows = Object.entries((input.properties ?? {}) as Record<string, JsonSchema>).map(([field, schema]) => {
    const type = schema.type === 'array' ? `array of ${(schema.items as JsonSchema | undefined)?.type ?? 'value'}` : String(schema.type ?? 'value');
    return `| \`${field}\` | ${type} | ${required.has(field) ? 'yes' : 'no'} | ${limits(schema)} | ${oneLine(String(schema.description ?? ''))} |`;
  });
  return ['| field | type | required | allowed | description |', '|---|---|---|---|---|', ...rows].join('\n');
}

function limits(schema: JsonSchema): string {
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(schema.enum.map(String).join(', '));
  if (schema.minimum !== undefined) parts.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) parts.push(`≤ ${schema.maximum}`);
  if (schema.maxLength !== undefined) parts.push(`≤ ${schema.maxLength} chars`);
  if (schema.maxItems !== undefined) parts.push(`≤ ${schema.maxItems} items`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join('; ');
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
