/**
 * Knowledge records from the project's own prose: one per documented decision (`apiDecisions`, the text the
 * OpenAPI document also carries), one per error code (the catalogue plus its row in docs/errors.md), one per
 * guide (docs/*.md and the README, split at `##` headings when long).
 */
import { readdir, readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { projectRoot } from '../../kernel/config/index.js';
import { errorCatalogue, errorTypeUri, type ErrorCode } from '../../kernel/errors/index.js';
import { apiDecisions } from '../../http/openapi/decisions.js';
import type { KnowledgeRecord } from './knowledge-registry.js';
import { recordId, recordUrl, slugify } from './record-urls.js';

/** A document longer than this many lines is published one `##` section per record. */
const splitAboveLines = 60;

export function decisionRecords(publicUrl: string): KnowledgeRecord[] {
  // Each decision is one top-level bullet opening with a bold lead-in; continuation lines are indented.
  const bullets = apiDecisions.split(/\n(?=- \*\*)/).filter((chunk) => chunk.startsWith('- **'));
  return bullets.map((bullet) => {
    const lead = /^- \*\*(.+?)\*\*/.exec(bullet)![1];
    const id = recordId('decision', slugify(lead));
    const text = bullet.replace(/^- /, '').replace(/\n\s+/g, ' ').trim();
    return { id, kind: 'decision', title: `Decision: ${lead}`, url: recordUrl(publicUrl, id), text, metadata: { source: 'src/http/openapi/decisions.ts', tags: ['decision', lead.toLowerCase()] } };
  });
}

export async function errorRecords(publicUrl: string): Promise<KnowledgeRecord[]> {
  const page = await readFile(join(projectRoot, 'docs/errors.md'), 'utf8');
  const whenByCode = new Map([...page.matchAll(/^\| `(MG_[A-Z_]+)` \| \d{3} \| (.+) \|$/gm)].map((match) => [match[1], match[2].trim()]));
  return (Object.keys(errorCatalogue) as ErrorCode[]).map((code) => {
    const { status, title } = errorCatalogue[code];
    const id = recordId('error', code);
    const when = whenByCode.get(code) ?? '';
    const text = [`# ${code}`, `HTTP ${status}: ${title}.`, when, `Problem \`type\`: ${errorTypeUri(code)}. Branch on \`code\`, not on \`title\` or \`detail\`.`].filter(Boolean).join('\n\n');
    return { id, kind: 'error', title: `${code} (${status}): ${title}`, url: recordUrl(publicUrl, id), text, metadata: { code, status, source: 'docs/errors.md', tags: ['error', String(status)] } };
  });
}

export async function guideRecords(publicUrl: string): Promise<KnowledgeRecord[]> {
  const docsDir = join(projectRoot, 'docs');
  const files = (await readdir(docsDir)).filter((name) => name.endsWith('.md')).sort().map((name) => join(docsDir, name));
  files.push(join(projectRoot, 'README.md'));
  const records: KnowledgeRecord[] = [];
  for (const file of files) records.push(...guideRecordsOf(basename(file, '.md').toLowerCase(), await readFile(file, 'utf8'), publicUrl, file.slice(projectRoot.length + 1)));
  return records;
}

function guideRecordsOf(name: string, markdown: string, publicUrl: string, source: string): KnowledgeRecord[] {
  const docTitle = /^# (.+)$/m.exec(markdown)?.[1].trim() ?? name;
  const sections = splitSections(markdown);
  if (markdown.split('\n').length <= splitAboveLines || sections.length < 2) {
    const id = recordId('guide', name);
    return [{ id, kind: 'guide', title: docTitle, url: recordUrl(publicUrl, id), text: markdown.trim(), metadata: { source, tags: ['guide', name] } }];
  }
  const seen = new Set<string>();
  return sections.map(({ heading, body }) => {
    let slug = slugify(heading);
    while (seen.has(slug)) slug += '-more';
    seen.add(slug);
    const id = recordId('guide', `${name}/${slug}`);
    return { id, kind: 'guide', title: `${docTitle}: ${heading}`, url: recordUrl(publicUrl, id), text: body.trim(), metadata: { source, section: heading, tags: ['guide', name] } };
  });
}

/** `##` sections (code fences respected); the text before the first one is the "Overview" section. */
function splitSections(markdown: string): { heading: string; body: string }[] {
  const sections: { heading: string; lines: string[] }[] = [{ heading: 'Overview', lines: [] }];
  let inFence = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inFence = !inFence;
    if (!inFence && line.startsWith('## ')) sections.push({ heading: line.slice(3).trim(), lines: [] });
    sections.at(-1)!.lines.push(line);
  }
  return sections
    .map(({ heading, lines }) => ({ heading, body: lines.join('\n') }))
    .filter(({ body }) => body.replace(/^#.*$/gm, '').trim() !== '');
}
