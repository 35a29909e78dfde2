/**
 * Writes the tool reference of `docs/mcp.md` (between its `tool-reference` markers) from the registered tools,
 * so the page cannot drift from `allTools`: `npm run docs:mcp`. `test/unit/mcp/tool-docs.test.ts` checks the
 * page against the tools both ways, whether the section was generated or edited by hand.
 */
import { readFile, writeFile } from 'node:fs/promises';
import * as z from 'zod/v4';
import { allTools, type McpTool } from '../src/mcp/tools/index.js';

const docsFile = new URL('../docs/mcp.md', import.meta.url);
const start = '<!-- tool-reference:start -->';
const end = '<!-- tool-reference:end -->';

/** A JSON Schema node as zod's `toJSONSchema` writes it (the parts a reader needs). */
interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  required?: string[];
  description?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

function renderToolReference(tools: readonly McpTool[]): string {
  return tools.map(renderTool).join('\n');
}

function renderTool(tool: McpTool): string {
  const input = z.toJSONSchema(z.object(tool.inputSchema), { io: 'input' }) as SchemaNode;
  const output = z.toJSONSchema(z.object(tool.outputSchema), { io: 'output' }) as SchemaNode;
  return [
    `### \`${tool.name}\``,
    '',
    `**${tool.title}** · access: ${tool.access}${tool.annotations?.readOnlyHint ? ' · read-only' : ''}`,
    '',
    oneParagraph(tool.description),
    '',
    '**Input**',
    '',
    fieldTable(input, 'No arguments.'),
    '',
    '**Output** (`structuredContent`, also sent as one JSON text item)',
    '',
    fieldTable(output, 'An empty object.'),
    '',
  ].join('\n');
}

function fieldTable(schema: SchemaNode, whenEmpty: string): string {
  const fields = Object.entries(schema.properties ?? {});
  if (fields.length === 0) return whenEmpty;
  const required = new Set(schema.required ?? []);
  const rows = fields.map(([name, field]) => `| \`${name}\` | ${cell(typeText(field))} | ${required.has(name) ? 'yes' : 'no'} | ${cell(field.description ?? '')} |`);
  return ['| field | type | required | description |', '|---|---|---|---|', ...rows].join('\n');
}

/** A short type a person reads: `string (1-255 chars)`, `one of: a, b`, `number or null`, `array of string`. */
function typeText(node: SchemaNode): string {
  if (node.const !== undefined) return `\`${JSON.stringify(node.const)}\``;
  if (node.enum) return `one of: ${node.enum.map((value) => `\`${String(value)}\``).join(', ')}`;
  if (node.anyOf) return node.anyOf.map(typeText).join(' or ');
  const types = Array.isArray(node.type) ? node.type : [node.type ?? 'any'];
  return types
    .map((type) => {
      if (type === 'array') return `array of ${node.items ? typeText(node.items) : 'any'}`;
      if (type === 'object' && node.properties) return `object {${Object.keys(node.properties).join(', ')}}`;
      const bounds = boundsText(node, type);
      return bounds ? `${type} (${bounds})` : type;
    })
    .join(' or ');
}

function boundsText(node: SchemaNode, type: string): string {
  if (type === 'string') return rangeText(node.minLength, node.maxLength, ' chars');
  // zod's `.int()` bounds every integer by the safe range: not worth saying.
  const maximum = node.maximum !== undefined && node.maximum >= Number.MAX_SAFE_INTEGER ? undefined : node.maximum;
  const minimum = node.minimum !== undefined && node.minimum <= Number.MIN_SAFE_INTEGER ? undefined : node.minimum;
  if (type === 'number' || type === 'integer') return rangeText(minimum, maximum, '');
  return '';
}

function rangeText(minimum: number | undefined, maximum: number | undefined, unit: string): string {
  if (minimum !== undefined && maximum !== undefined) return `${minimum}-${maximum}${unit}`;
  if (minimum !== undefined) return `>= ${minimum}${unit}`;
  if (maximum !== undefined) return `<= ${maximum}${unit}`;
  return '';
}

const cell = (text: string) => oneParagraph(text).replace(/\|/g, '\\|');
const oneParagraph = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

async function main(): Promise<void> {
  const page = await readFile(docsFile, 'utf8');
  const from = page.indexOf(start);
  const to = page.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/mcp.md has no ${start} ... ${end} section`);
  const updated = `${page.slice(0, from + start.length)}\n\n${renderToolReference(allTools)}\n${page.slice(to)}`;
  await writeFile(docsFile, updated);
  process.stdout.write(`docs/mcp.md: ${allTools.length} tools\n`);
}

await main();
