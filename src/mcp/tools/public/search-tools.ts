/** `search` and `fetch`: the shapes ChatGPT connectors and deep research expect, over the knowledge registry. */
import * as z from 'zod/v4';
import { knowledgeKinds } from '../../knowledge/knowledge-registry.js';
import { InvalidCursorError } from '../../knowledge/searchable-registry.js';
import { defineTool, ToolError } from '../mcp-tool.js';
import { jsonObject, readOnly } from './public-tool-basics.js';

export const searchTool = defineTool({
  name: 'search',
  title: 'Search the mediagate knowledge base',
  description:
    'Full-text search over everything public about this media-generation gateway: operations, models, credit rules, workflows, error codes, API decisions and guides. Returns up to 8 results (id, title, url) ranked by relevance; pass `nextCursor` back as `cursor` for more. Use `fetch` with an id to read a result. Forgives typos and partial words.',
  access: 'public',
  inputSchema: {
    query: z.string().min(1).max(500).describe('What to look for, in plain words ("lip sync a video", "4K image models").'),
    cursor: z.string().optional().describe('The `nextCursor` of a previous call with the same query.'),
    kinds: z.array(z.enum(knowledgeKinds)).optional().describe('Only these kinds of records.'),
  },
  outputSchema: {
    results: z.array(z.object({ id: z.string(), title: z.string(), url: z.string() })),
    nextCursor: z.string().optional(),
  },
  annotations: readOnly,
  async handler({ query, cursor, kinds }, { knowledge }) {
    try {
      const { results, nextCursor } = knowledge.search(query, { cursor, kinds });
      const page = results.map(({ id, title, url }) => ({ id, title, url }));
      return nextCursor === undefined ? { results: page } : { results: page, nextCursor };
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ToolError('MG_VALIDATION_FAILED', error.message, { errors: [{ path: '/cursor', message: 'is not a cursor of this search' }] });
      throw error;
    }
  },
});

export const fetchTool = defineTool({
  name: 'fetch',
  title: 'Read a knowledge record',
  description: 'Returns the full text (Markdown) of one record found by `search` or named by another tool, with its public URL and metadata. Ids look like `operation:video.generate`, `model:image.generate/nano-banana-pro`, `error:MG_VALIDATION_FAILED`.',
  access: 'public',
  inputSchema: { id: z.string().min(1).max(300).describe('A record id from `search`.') },
  outputSchema: { id: z.string(), title: z.string(), text: z.string(), url: z.string(), metadata: jsonObject },
  annotations: readOnly,
  async handler({ id }, { knowledge }) {
    const record = knowledge.get(id);
    if (!record) throw new ToolError('MG_NOT_FOUND', `no knowledge record ${id}: use search to find ids`, { errors: [{ path: '/id', message: 'no such record' }] });
    return { id: record.id, title: record.title, text: record.text, url: record.url, metadata: record.metadata };
  },
});
