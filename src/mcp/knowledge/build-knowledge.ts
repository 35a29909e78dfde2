/**
 * Builds the knowledge registry at start from the project's own sources (see knowledge-registry.ts): the
 * manifests and plugin registry, the documented decisions, the error catalogue, docs/ and the README, and the
 * knowledge folders of `mcp.knowledge_dirs` plus the offerings of `mcp.offerings`. A bad knowledge file, a
 * workflow naming an unknown operation or a checkout link off our origin stops the start with the cause named.
 */
import type { Gateway } from '../../kernel/gateway.js';
import { allTools } from '../tools/index.js';
import { KnowledgeFileError, readKnowledgeFiles, type KnowledgeOffering, type KnowledgeWorkflow } from './knowledge-files.js';
import { offeringRecord, pageRecord, resolveOffering, toolkitRecord, workflowRecord } from './knowledge-file-records.js';
import { knowledgeKinds, type KnowledgeRegistry } from './knowledge-registry.js';
import { operationRecords } from './operation-records.js';
import { decisionRecords, errorRecords, guideRecords } from './project-doc-records.js';
import { SearchableKnowledgeRegistry } from './searchable-registry.js';

export async function buildKnowledgeRegistry({ gateway, publicUrl }: { gateway: Gateway; publicUrl: string }): Promise<KnowledgeRegistry> {
  const { knowledge_dirs: directories, offerings: configuredOfferings } = gateway.settings.mcp;
  const files = await readKnowledgeFiles(directories);
  for (const workflow of files.workflows) checkWorkflowOperations(workflow, gateway);
  // Offerings of the configuration replace those of the knowledge files with the same id.
  const offerings = new Map<string, KnowledgeOffering>(files.offerings.map((offering) => [offering.id, offering]));
  for (const offering of configuredOfferings) offerings.set(offering.id, { tags: [], ...offering, source: 'mcp.offerings' });

  const registry = new SearchableKnowledgeRegistry([
    ...operationRecords(gateway, publicUrl),
    ...decisionRecords(publicUrl),
    ...(await errorRecords(publicUrl)),
    ...(await guideRecords(publicUrl)),
    ...files.pages.map((page) => pageRecord(page, publicUrl)),
    ...files.workflows.map((workflow) => workflowRecord(workflow, publicUrl)),
    ...[...offerings.values()].map((offering) => offeringRecord(resolveOffering(offering, publicUrl), publicUrl)),
    ...files.toolkits.map((toolkit) => toolkitRecord(toolkit, allTools, publicUrl)),
  ]);
  const byKind = Object.fromEntries(knowledgeKinds.map((kind) => [kind, registry.all(kind).length]));
  gateway.log.info({ records: registry.size, byKind, directories }, 'knowledge registry built');
  return registry;
}

function checkWorkflowOperations(workflow: KnowledgeWorkflow, gateway: Gateway): void {
  const named = [workflow.final_operation, ...workflow.prefer, ...Object.keys(workflow.assume)];
  const unknown = named.filter((operation) => !gateway.registry.get(operation));
  if (unknown.length > 0) throw new KnowledgeFileError(`${workflow.source}: workflow ${workflow.id} names unknown operations: ${unknown.join(', ')}`);
}
