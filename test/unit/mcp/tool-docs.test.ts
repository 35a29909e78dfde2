/**
 * docs/mcp.md against the registered tools, both ways: every tool of `allTools` has its section with its access
 * and every input and output field, and the page documents no tool or field that does not exist. Data-driven over
 * `allTools`, so a tool added anywhere is covered (`npm run docs:mcp` regenerates the section).
 */
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { allTools } from '../../../src/mcp/tools/index.js';

interface DocumentedTool {
  name: string;
  access: string | undefined;
  inputs: string[];
  outputs: string[];
}

/** The `### \`tool\`` sections of the tool reference, with the field names of their Input and Output tables. */
function documentedTools(markdown: string): DocumentedTool[] {
  const reference = /<!-- tool-reference:start -->([\s\S]*)<!-- tool-reference:end -->/.exec(markdown);
  if (!reference) throw new Error('docs/mcp.md has no tool-reference section');
  return reference[1]
    .split(/^### /m)
    .slice(1)
    .map((section) => {
      const name = /^`([a-z0-9_]+)`/.exec(section)?.[1] ?? section.split('\n')[0];
      const [, afterInput = ''] = section.split(/^\*\*Input\*\*/m);
      const [inputPart, outputPart = ''] = afterInput.split(/^\*\*Output\*\*/m);
      const fieldsOf = (table: string) => [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((match) => match[1]);
      return { name, access: /access: (\w+)/.exec(section)?.[1], inputs: fieldsOf(inputPart), outputs: fieldsOf(outputPart) };
    });
}

describe('docs/mcp.md and the registered MCP tools', () => {
  const documented = documentedTools(readFileSync(new URL('../../../docs/mcp.md', import.meta.url), 'utf8'));
  const byName = new Map(documented.map((tool) => [tool.name, tool]));

  it('documents every registered tool with its access, input fields and output fields', () => {
    for (const tool of allTools) {
      expect(byName.get(tool.name), `docs/mcp.md has no section for ${tool.name}`).to.deep.equal({
        name: tool.name,
        access: tool.access,
        inputs: Object.keys(tool.inputSchema),
        outputs: Object.keys(tool.outputSchema),
      });
    }
  });

  it('documents no tool that is not registered, and each tool once', () => {
    const registered = new Set(allTools.map((tool) => tool.name));
    for (const tool of documented) expect(registered.has(tool.name), `docs/mcp.md documents ${tool.name}, which is not a registered tool`).to.equal(true);
    expect(documented.map((tool) => tool.name)).to.have.length(byName.size);
  });

  it('registers the 4 account tools of the spec, each needing an account', () => {
    const account = allTools.filter((tool) => tool.access === 'account').map((tool) => tool.name);
    expect(account).to.deep.equal(['api_status', 'estimate_generation_cost', 'create_generation_request', 'get_generation_request']);
  });

  it('registers the 16 workspace tools of the spec, each for OAuth workspace access', () => {
    const workspace = allTools.filter((tool) => tool.access === 'workspace').map((tool) => tool.name);
    expect(workspace).to.deep.equal([
      'list_creator_flow_projects', 'get_creator_flow_project', 'create_creator_flow_project', 'update_creator_flow_project', 'delete_creator_flow_project',
      'export_creator_flow_project', 'list_worlds', 'get_world', 'create_world', 'update_world', 'delete_world',
      'list_world_assets', 'get_world_asset', 'create_world_asset', 'update_world_asset', 'delete_world_asset',
    ]);
  });
});
