/**
 * Records from the knowledge folders: pages as written, and workflows, offerings and toolkits rendered to
 * Markdown from their YAML so that `fetch` and the docs page read the same text.
 */
import type { McpTool } from '../tools/mcp-tool.js';
import { firstPartyUrl } from './first-party-url.js';
import type { KnowledgeOffering, KnowledgePage, KnowledgeToolkit, KnowledgeWorkflow } from './knowledge-files.js';
import type { KnowledgeRecord } from './knowledge-registry.js';
import { operationRecordId } from './operation-records.js';
import { recordId, recordUrl } from './record-urls.js';

export function pageRecord(page: KnowledgePage, publicUrl: string): KnowledgeRecord {
  const id = recordId(page.kind, page.id);
  return { id, kind: page.kind, title: page.title, url: recordUrl(publicUrl, id), text: page.markdown, metadata: { source: page.source, tags: page.tags } };
}

export function workflowRecord(workflow: KnowledgeWorkflow, publicUrl: string): KnowledgeRecord {
  const id = recordId('workflow', workflow.id);
  const operationLink = (operation: string) => `[${operation}](${recordUrl(publicUrl, operationRecordId(operation))})`;
  const text = [
    `# ${workflow.title}`,
    workflow.summary,
    `Ends with ${operationLink(workflow.final_operation)}.${workflow.prefer.length ? ` Prefers ${workflow.prefer.map(operationLink).join(', ')} for the intermediate media.` : ''}`,
    'Ask `recommend_workflow` with your goal for the steps, the models and the estimated credits, computed from the manifests.',
  ];
  return {
    id,
    kind: 'workflow',
    title: workflow.title,
    url: recordUrl(publicUrl, id),
    text: text.join('\n\n'),
    metadata: { final_operation: workflow.final_operation, prefer: workflow.prefer, assume: workflow.assume, source: workflow.source, tags: workflow.tags },
  };
}

/** The offering with its checkout link made absolute; throws ForeignUrlError for a link off the public origin. */
export function resolveOffering(offering: KnowledgeOffering, publicUrl: string): KnowledgeOffering {
  if (offering.checkout_url === undefined) return offering;
  return { ...offering, checkout_url: firstPartyUrl(offering.checkout_url, publicUrl, `offering ${offering.id} (${offering.source}) checkout_url`) };
}

export function offeringRecord(offering: KnowledgeOffering, publicUrl: string): KnowledgeRecord {
  const id = recordId('offering', offering.id);
  const text = [
    `# ${offering.title}`,
    offering.description,
    offering.price ? `Price: ${offering.price}.` : '',
    offering.credits !== undefined ? `Credits: ${offering.credits}.` : '',
    offering.checkout_url ? `Checkout: ${offering.checkout_url} (ask \`get_checkout_link\`).` : 'No checkout: nothing to buy here.',
  ];
  return {
    id,
    kind: 'offering',
    title: offering.title,
    url: recordUrl(publicUrl, id),
    text: text.filter(Boolean).join('\n\n'),
    metadata: { offering_id: offering.id, description: offering.description, price: offering.price ?? null, credits: offering.credits ?? null, checkout_url: offering.checkout_url ?? null, source: offering.source, tags: offering.tags },
  };
}

export function toolkitRecord(toolkit: KnowledgeToolkit, tools: readonly McpTool[], publicUrl: string): KnowledgeRecord {
  const id = recordId('toolkit', toolkit.id);
  const names = toolkitToolNames(toolkit, tools);
  const text = [
    `# ${toolkit.title}`,
    toolkit.description,
    toolkit.access === 'rest' ? `OpenAPI document: ${publicUrl}/api/v1/openapi` : names.length ? `Tools: ${names.map((name) => `\`${name}\``).join(', ')}.` : 'No tools in this group yet.',
    `## How to use\n\n${toolkit.how_to_use.replaceAll('{public_url}', publicUrl)}`,
  ];
  return { id, kind: 'toolkit', title: toolkit.title, url: recordUrl(publicUrl, id), text: text.join('\n\n'), metadata: { access: toolkit.access, description: toolkit.description, tools: names, source: toolkit.source, tags: ['toolkit', toolkit.access] } };
}

/** The registered tools of the toolkit's access group (none for the REST API). */
export function toolkitToolNames(toolkit: Pick<KnowledgeToolkit, 'access'>, tools: readonly McpTool[]): string[] {
  return tools.filter((tool) => tool.access === toolkit.access).map((tool) => tool.name);
}
