/** `list_toolkits`: the MCP tool groups (public, account, workspace) and the REST API, with the tools each holds now. */
import * as z from 'zod/v4';
import { defineTool } from '../mcp-tool.js';
import { readOnly } from './public-tool-basics.js';

export const listToolkitsTool = defineTool({
  name: 'list_toolkits',
  title: 'List tool groups',
  description: 'Lists the ways to use this gateway: the public MCP tools (no credentials), the account tools (an API key), the workspace tools (OAuth) and the REST API, each with its tools, what it needs and how to connect.',
  access: 'public',
  inputSchema: {},
  outputSchema: {
    toolkits: z.array(z.object({ id: z.string(), title: z.string(), access: z.string(), tools: z.array(z.string()), description: z.string(), url: z.string() })),
  },
  annotations: readOnly,
  async handler(_args, { knowledge }) {
    return {
      toolkits: knowledge.all('toolkit').map((record) => ({
        id: record.id.slice('toolkit:'.length),
        title: record.title,
        access: String(record.metadata.access),
        tools: record.metadata.tools as string[],
        description: String(record.metadata.description),
        url: record.url,
      })),
    };
  },
});
