/**
 * Every public MCP tool through the official SDK client over real HTTP, anonymously: each answers with
 * structured content (also as one JSON text item), never an error, and every URL it hands out is a page the
 * gateway serves. The tools' detailed answers are asserted in test/unit/mcp/knowledge-and-public-tools.test.ts;
 * this suite proves the transport, the registration and the absence of credentials work together.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { expect } from 'chai';
import { publicTools } from '../../src/mcp/tools/public/index.js';
import { startTestService, type TestService } from '../support/test-service.js';

/** One representative call per public tool. */
const calls: Record<string, Record<string, unknown>> = {
  search: { query: 'lip sync a video' },
  fetch: { id: 'operation:lipsync.generate' },
  list_capabilities: { family: 'video' },
  recommend_workflow: { goal: 'a talking head from a photo' },
  compare_alternatives: { operation: 'video.generate', input: { duration: 10, resolution: '1080p' } },
  get_pricing_context: { operation: 'image.generate', model: 'gpt-image-1', input: { prompt: 'a lighthouse', resolution: '1K' } },
  list_offerings: {},
  get_checkout_link: { offering_id: 'credits-1000' },
  get_model_availability: { operation: 'video.generate' },
  list_toolkits: {},
  get_api_operation: { operation: 'narration.generate' },
};

describe('MCP public tools through the SDK client', () => {
  let service: TestService;
  let client: Client;

  before(async () => {
    service = await startTestService({ mcp: { offerings: [{ id: 'credits-1000', title: '1000 credits', description: 'A top-up.', price: 'EUR 10', credits: 1000, checkout_url: '/checkout/credits-1000' }] } });
    client = new Client({ name: 'mediagate-public-tools-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`)));
  });
  after(async () => {
    await client.close();
    await service.stop();
  });

  it('lists the 11 public tools with their input and output schemas, read-only', async () => {
    const { tools } = await client.listTools();
    const listed = new Map(tools.map((tool) => [tool.name, tool]));
    expect(Object.keys(calls).sort()).to.deep.equal(publicTools.map((tool) => tool.name).sort());
    for (const name of Object.keys(calls)) {
      const tool = listed.get(name);
      expect(tool, name).to.not.equal(undefined);
      expect(tool!.inputSchema.type, name).to.equal('object');
      expect(tool!.outputSchema?.type, name).to.equal('object');
      expect(tool!.annotations?.readOnlyHint, name).to.equal(true);
    }
  });

  for (const [name, args] of Object.entries(calls)) {
    it(`${name} answers anonymously with structured content and the same JSON as text`, async () => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError ?? false, JSON.stringify(result.content)).to.equal(false);
      expect(result.structuredContent).to.be.an('object');
      expect(result.content).to.deep.equal([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
    });
  }

  it('search results carry absolute URLs of pages the gateway serves, and fetch returns the record behind one', async () => {
    const found = (await client.callTool({ name: 'search', arguments: { query: 'narration' } })).structuredContent as { results: { id: string; title: string; url: string }[] };
    expect(found.results.length).to.be.greaterThan(0);
    for (const result of found.results) {
      expect(result.url.startsWith(`${service.url}/docs/`), result.url).to.equal(true);
      const page = await fetch(result.url);
      expect(page.status, result.url).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/^text\/html/);
    }
    const record = (await client.callTool({ name: 'fetch', arguments: { id: found.results[0].id } })).structuredContent as { id: string; title: string; url: string; text: string };
    expect(record).to.include({ id: found.results[0].id, title: found.results[0].title, url: found.results[0].url });
    expect(record.text.length).to.be.greaterThan(0);
  });

  it('recommend_workflow plans the talking head with the credit total the manifests give', async () => {
    const plan = (await client.callTool({ name: 'recommend_workflow', arguments: { goal: 'a talking head from a photo' } })).structuredContent as { steps: { operation: string }[]; estimated_total_credits: number };
    expect(plan.steps.map((step) => step.operation)).to.deep.equal(['video.generate', 'narration.generate', 'lipsync.generate']);
    expect(plan.estimated_total_credits).to.equal(108);
  });

  it('a public tool refuses a bad argument as a tool error the model can read, never a transport error', async () => {
    const result = await client.callTool({ name: 'fetch', arguments: { id: 'operation:no.such.thing' } });
    expect(result.isError).to.equal(true);
    const [item] = result.content as { type: string; text: string }[];
    expect(JSON.parse(item.text)).to.include({ code: 'MG_NOT_FOUND' });
  });
});
