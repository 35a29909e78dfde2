/**
 * The operator-extendable `knowledge/` folders (`mcp.knowledge_dirs`): Markdown pages with front matter
 * (`id`, `kind`, `title`, `tags`) and YAML files holding `workflows`, `offerings` and `toolkits` lists. Every
 * file is checked against its schema at start; a fault stops the start with the file and field named. A later
 * folder replaces an entry of an earlier one with the same id, so an operator can override what we ship.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { mcpOfferingSchema, type McpOffering } from '../../kernel/config/settings.js';
import { compileSchema, type SchemaValidator } from '../../kernel/manifests/schema-compiler.js';
import { knowledgeKinds, type KnowledgeKind } from './knowledge-registry.js';

export interface KnowledgePage {
  id: string;
  kind: KnowledgeKind;
  title: string;
  tags: string[];
  markdown: string;
  source: string;
}

/** A goal the planner recognises, and how to reach it; the steps themselves come from the manifests. */
export interface KnowledgeWorkflow {
  id: string;
  title: string;
  summary: string;
  /** Phrases a goal may contain ("talking head", "avatar"): the planner's keyword match. */
  tags: string[];
  /** The operation whose result is the goal. */
  final_operation: string;
  /** Operations to choose when several can make an intermediate medium (e.g. narration.generate for audio). */
  prefer: string[];
  /** Example input per operation used to estimate credits (e.g. a 5 s video). */
  assume: Record<string, Record<string, unknown>>;
  source: string;
}

/** An offering (the `mcp.offerings` shape) with where it was read from. */
export interface KnowledgeOffering extends McpOffering {
  tags: string[];
  source: string;
}

export interface KnowledgeToolkit {
  id: string;
  title: string;
  /** The tool `access` group it describes (`public`, `account`, `workspace`), or `rest` for the HTTP API. */
  access: 'public' | 'account' | 'workspace' | 'rest';
  description: string;
  how_to_use: string;
  source: string;
}

export interface KnowledgeFiles {
  pages: KnowledgePage[];
  workflows: KnowledgeWorkflow[];
  offerings: KnowledgeOffering[];
  toolkits: KnowledgeToolkit[];
}

export class KnowledgeFileError extends Error {
  override readonly name = 'KnowledgeFileError';
}

const slug = { type: 'string', pattern: '^[a-z0-9][a-z0-9._/-]*$' };
const text = { type: 'string', minLength: 1 };
const tags = { type: 'array', items: text, default: [] };
const list = (item: object) => ({ type: 'array', items: item });
const yamlSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    workflows: list({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'title', 'summary', 'tags', 'final_operation'],
      properties: {
        id: slug, title: text, summary: text, tags: { ...tags, minItems: 1 }, final_operation: text,
        prefer: { type: 'array', items: text, default: [] },
        assume: { type: 'object', additionalProperties: { type: 'object' }, default: {} },
      },
    }),
    offerings: list(mcpOfferingSchema),
    toolkits: list({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'title', 'access', 'description', 'how_to_use'],
      properties: { id: slug, title: text, access: { enum: ['public', 'account', 'workspace', 'rest'] }, description: text, how_to_use: text },
    }),
  },
};
const frontMatterSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'kind', 'title'],
  properties: { id: slug, kind: { enum: knowledgeKinds }, title: text, tags },
};

const checkYaml = compileSchema(yamlSchema);
const checkFrontMatter = compileSchema(frontMatterSchema);

export async function readKnowledgeFiles(directories: readonly string[]): Promise<KnowledgeFiles> {
  const found: { [K in keyof KnowledgeFiles]: Map<string, KnowledgeFiles[K][number]> } = { pages: new Map(), workflows: new Map(), offerings: new Map(), toolkits: new Map() };
  for (const directory of directories) {
    for (const file of await listFiles(directory)) {
      const source = relative(process.cwd(), file) || file;
      const content = await readFile(file, 'utf8');
      if (file.endsWith('.md')) {
        const page = readPage(content, source);
        found.pages.set(`${page.kind}:${page.id}`, page);
      } else {
        const data = checked(checkYaml, parseYaml(content, source), source) as Partial<Record<'workflows' | 'offerings' | 'toolkits', { id: string }[]>>;
        for (const workflow of data.workflows ?? []) found.workflows.set(workflow.id, { ...(workflow as Omit<KnowledgeWorkflow, 'source'>), source });
        for (const offering of data.offerings ?? []) found.offerings.set(offering.id, { ...(offering as Omit<KnowledgeOffering, 'source'>), tags: (offering as Partial<KnowledgeOffering>).tags ?? [], source });
        for (const toolkit of data.toolkits ?? []) found.toolkits.set(toolkit.id, { ...(toolkit as Omit<KnowledgeToolkit, 'source'>), source });
      }
    }
  }
  return { pages: [...found.pages.values()], workflows: [...found.workflows.values()], offerings: [...found.offerings.values()], toolkits: [...found.toolkits.values()] };
}

/** Every .md/.yaml/.yml below a folder, sorted so that the load order (and thus overrides) is stable. */
async function listFiles(directory: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(directory, { withFileTypes: true, recursive: true });
  } catch (error) {
    throw new KnowledgeFileError(`mcp.knowledge_dirs: cannot read ${directory}: ${(error as Error).message}`);
  }
  return entries
    .filter((entry) => entry.isFile() && /\.(md|ya?ml)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function readPage(content: string, source: string): KnowledgePage {
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(content);
  if (!match) throw new KnowledgeFileError(`${source}: a knowledge page starts with front matter (--- id, kind, title, tags ---)`);
  const front = checked(checkFrontMatter, parseYaml(match[1], source), source) as { id: string; kind: KnowledgeKind; title: string; tags: string[] };
  return { ...front, markdown: match[2].trim(), source };
}

function parseYaml(content: string, source: string): unknown {
  try {
    return parse(content) ?? {};
  } catch (error) {
    throw new KnowledgeFileError(`${source}: not valid YAML: ${(error as Error).message}`);
  }
}

function checked(validate: SchemaValidator, data: unknown, source: string): unknown {
  if (validate(data)) return data;
  const problems = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  throw new KnowledgeFileError(`${source}: ${problems.join('; ')}`);
}
