/**
 * The knowledge registry and the 11 public tools over a real embedded gateway (real manifests, real plugin
 * registry, real docs/ and knowledge/), called through their handlers; the docs pages over real HTTP.
 */
import { expect } from 'chai';
import { errorCatalogue } from '../../../src/kernel/errors/index.js';
import { apiDecisions } from '../../../src/http/openapi/decisions.js';
import { knowledgeFor } from '../../../src/mcp/knowledge/index.js';
import type { KnowledgeRegistry } from '../../../src/mcp/knowledge/knowledge-registry.js';
import { buildKnowledgeRegistry } from '../../../src/mcp/knowledge/build-knowledge.js';
import { publicTools } from '../../../src/mcp/tools/public/index.js';
import type { McpCallContext } from '../../../src/mcp/tools/mcp-tool.js';
import { ToolError } from '../../../src/mcp/tools/mcp-tool.js';
import { startTestService, type TestService } from '../../support/test-service.js';

describe('knowledge registry and public MCP tools', () => {
  let service: TestService;
  let knowledge: KnowledgeRegistry;
  let context: McpCallContext;
  let base: string;

  before(async () => {
    service = await startTestService({ mcp: { offerings: [{ id: 'credits-1000', title: '1000 credits', description: 'A top-up.', price: 'EUR 10', credits: 1000, checkout_url: '/checkout/credits-1000' }] } });
    const { gateway } = service.service;
    base = gateway.settings.server.public_url;
    knowledge = await knowledgeFor(gateway);
    context = { gateway, knowledge, publicUrl: base };
  });
  after(() => service.stop());

  const call = (name: string, args: Record<string, unknown>) => publicTools.find((tool) => tool.name === name)!.handler(args as never, context);

  it('offers the 11 public tools, each read-only, public, titled and described', () => {
    expect(publicTools.map((tool) => tool.name)).to.deep.equal(['search', 'fetch', 'list_capabilities', 'recommend_workflow', 'compare_alternatives', 'get_pricing_context', 'list_offerings', 'get_checkout_link', 'get_model_availability', 'list_toolkits', 'get_api_operation']);
    for (const tool of publicTools) {
      expect(tool.access, tool.name).to.equal('public');
      expect(tool.annotations, tool.name).to.deep.equal({ readOnlyHint: true, openWorldHint: false });
      expect(tool.title.length, tool.name).to.be.greaterThan(3);
      expect(tool.description.length, tool.name).to.be.greaterThan(80);
    }
  });

  it('holds one record per operation, model, decision and error code, and the guides, workflows, offerings and toolkits', () => {
    const { registry } = service.service.gateway;
    const models = registry.all().reduce((sum, definition) => sum + Object.keys(definition.manifest.routing.models).length, 0);
    expect(knowledge.all('operation').length).to.equal(registry.names().length);
    expect(knowledge.all('model').length).to.equal(models);
    expect(knowledge.all('error').map((record) => record.id).sort()).to.deep.equal(Object.keys(errorCatalogue).map((code) => `error:${code}`).sort());
    expect(knowledge.all('decision').length).to.equal(apiDecisions.split('\n- **').length - 1);
    expect(knowledge.all('workflow').map((record) => record.id)).to.include('workflow:talking-head');
    expect(knowledge.all('offering').map((record) => record.id)).to.deep.equal(['offering:self-hosted', 'offering:credits-1000']);
    expect(knowledge.all('toolkit').map((record) => record.id)).to.deep.equal(['toolkit:public-knowledge', 'toolkit:account', 'toolkit:workspace', 'toolkit:rest-api']);
    expect(knowledge.all('guide').map((record) => record.id)).to.include.members(['guide:errors', 'guide:pricing/rules-by-operation', 'guide:connect-an-agent']);
    expect(knowledge.size).to.equal(knowledge.all().length);
  });

  it('search ranks, pages with an opaque cursor, finds "lipsync" for "lip sync" and forgives typos', async () => {
    const first = (await call('search', { query: 'lip sync' })) as { results: { id: string; title: string; url: string }[]; nextCursor?: string };
    expect(first.results.slice(0, 2).map((result) => result.id)).to.have.members(['operation:lipsync.generate', 'model:lipsync.generate/lipsync-2']);
    expect(first.results).to.have.length(8);
    expect(Object.keys(first.results[0])).to.deep.equal(['id', 'title', 'url']);
    const second = (await call('search', { query: 'lip sync', cursor: first.nextCursor })) as typeof first;
    expect(second.results.map((result) => result.id)).to.not.include.members(first.results.map((result) => result.id));
    const typo = (await call('search', { query: 'naration' })) as typeof first;
    expect(typo.results[0].id).to.equal('operation:narration.generate');
    const errors = (await call('search', { query: 'idempotency', kinds: ['error'] })) as typeof first;
    expect(errors.results.map((result) => result.id)).to.have.members(['error:MG_IDEMPOTENCY_KEY_REUSED', 'error:MG_IDEMPOTENCY_IN_FLIGHT']);
    const error = await call('search', { query: 'video', cursor: 'not-a-cursor' }).catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(ToolError).and.include({ code: 'MG_VALIDATION_FAILED' });
    expect((error as ToolError).details).to.deep.equal({ errors: [{ path: '/cursor', message: 'is not a cursor of this search' }] });
  });

  it('fetch returns the whole record; an unknown id is a tool error naming the field', async () => {
    const record = (await call('fetch', { id: 'error:MG_INSUFFICIENT_CREDITS' })) as Record<string, unknown>;
    expect(record).to.deep.equal({
      id: 'error:MG_INSUFFICIENT_CREDITS',
      title: 'MG_INSUFFICIENT_CREDITS (402): Not enough credits for this request',
      text: "# MG_INSUFFICIENT_CREDITS\n\nHTTP 402: Not enough credits for this request.\n\nThe account balance does not cover the request's price. Nothing is written or charged.\n\nProblem `type`: https://mediagate.dev/docs/errors#mg-insufficient-credits. Branch on `code`, not on `title` or `detail`.",
      url: `${base}/docs/error/MG_INSUFFICIENT_CREDITS`,
      metadata: { code: 'MG_INSUFFICIENT_CREDITS', status: 402, source: 'docs/errors.md', tags: ['error', '402'] },
    });
    const error = await call('fetch', { id: 'operation:nope' }).catch((thrown: unknown) => thrown);
    expect(error).to.be.instanceOf(ToolError).and.include({ code: 'MG_NOT_FOUND' });
  });

  it('recommend_workflow plans a talking head from a photo as photo -> video -> narration -> lip sync, priced from the manifests', async () => {
    const plan = (await call('recommend_workflow', { goal: 'Talking head from a photo' })) as Record<string, any>;
    expect(plan.workflow).to.deep.equal({ id: 'workflow:talking-head', title: 'Talking head from a photo', url: `${base}/docs/workflow/talking-head` });
    expect(plan.available_media).to.deep.equal(['text', 'image']);
    expect(plan.steps.map((step: any) => [step.step, step.operation, step.model, step.inputs, step.estimated_credits])).to.deep.equal([
      // 5 s × 10 credits × 1.5 (1080p, Wan's default resolution) × 1.2 (wan-2.7) = 90
      [1, 'video.generate', 'wan-2.7', { image_url: 'your image' }, 90],
      // base 10 × 1 (eleven_multilingual_v2)
      [2, 'narration.generate', 'eleven_multilingual_v2', {}, 10],
      // ceil(0.75 × 5 + 0.75 × 5) = 8
      [3, 'lipsync.generate', 'lipsync-2', { video_url: 'step 1 (video_url)', audio_url: 'step 2 (audio_url)' }, 8],
    ]);
    expect(plan.estimated_total_credits).to.equal(108);
    expect(plan.steps[2].url).to.equal(`${base}/docs/operation/lipsync.generate`);
    expect(plan.reasoning).to.have.length(4);
  });

  it('compare_alternatives prices every video model for 10 s at 1080p, names the rules that refuse one, and its availability', async () => {
    const comparison = (await call('compare_alternatives', { operation: 'video.generate', input: { duration: 10, resolution: '1080p' } })) as Record<string, any>;
    const byModel = Object.fromEntries(comparison.alternatives.map((entry: any) => [entry.model, entry]));
    // 10 s × 10 × 1.5 (1080p) × the model's factor
    expect(byModel['wan-2.7'].credits).to.equal(180);
    expect(byModel['kling-2.6'].credits).to.equal(150);
    expect(byModel['veo-3.1'].credits).to.equal(null);
    expect(byModel['veo-3.1'].refused_because).to.include('/input/duration: Veo renders 4, 6 or 8 seconds');
    expect(byModel['veo-3.1'].rules).to.include('Veo renders 4, 6 or 8 seconds');
    expect(byModel['partner-2'].credits).to.equal(null);
    expect(byModel['partner-2'].refused_because).to.include('/input/duration: partner2 models render 4, 8, 12, 16 or 20 seconds');
    expect(byModel['wan-2.7']).to.include({ availability: 'available', served_by: 'local', url: `${base}/docs/model/video.generate/wan-2.7` });
    const credits = comparison.alternatives.map((entry: any) => entry.credits).filter((value: number | null) => value !== null);
    expect(credits).to.deep.equal([...credits].sort((a: number, b: number) => a - b));
    expect(comparison.cheapest).to.equal(comparison.alternatives[0].model);
  });

  it('get_pricing_context explains the credit rule and prices an input like a create', async () => {
    const pricing = await call('get_pricing_context', { operation: 'image.generate', model: 'gpt-image-1', input: { prompt: 'a mug', resolution: '1K' } });
    expect(pricing).to.deep.equal({
      operation: 'image.generate',
      model: 'gpt-image-1',
      rule: service.service.gateway.registry.get('image.generate')!.manifest.credits,
      explanation: [
        'Start from 4 credits.',
        'Multiply by `model`: nano-banana-pro ×3.5, gpt-image-1 ×3, ideogram-v3 ×1.5, nano-banana ×1, imagen-4 ×1, kling-image ×1, seedream-4 ×1, flux-1.1-pro ×1, flux-kontext-pro ×1, flux-2-pro ×1, recraft-v3 ×1, qwen-image ×1; any other or no value ×3.5.',
        'Multiply by `resolution`: 1K ×1, 1k ×1, 2K ×1.25, 2k ×1.25, 4K ×2; any other or no value ×1.',
        'Round up to a whole credit.',
        'Charge at least 1.',
      ],
      priced_input: { prompt: 'a mug', resolution: '1K', model: 'gpt-image-1' },
      credits: 12,
      url: `${base}/docs/operation/image.generate`,
    });
    const refused = await call('get_pricing_context', { operation: 'image.generate', input: { prompt: 'x', aspect_ratio: '1:1', resolution: '4K' } }).catch((thrown: unknown) => thrown);
    expect(refused).to.be.instanceOf(ToolError).and.include({ code: 'MG_VALIDATION_FAILED' });
  });

  it('get_model_availability reads the live breaker state, not the start-time snapshot', async () => {
    const before = (await call('get_model_availability', { operation: 'lipsync.generate' })) as { models: any[] };
    expect(before.models).to.deep.equal([
      {
        operation: 'lipsync.generate', model: 'lipsync-2', label: before.models[0].label, state: 'available', served_by: 'local', primary_plugin: 'syncso', planned: null,
        candidates: [{ plugin: 'local', breaker: 'closed', synthetic: true }], reason: 'served by local (standing in for syncso)', url: `${base}/docs/model/lipsync.generate/lipsync-2`,
      },
    ]);
    const breaker = service.service.gateway.plugins.get('local')!.breaker;
    breaker.open();
    try {
      const during = (await call('get_model_availability', { operation: 'lipsync.generate', model: 'lipsync-2' })) as { models: any[] };
      expect(during.models[0]).to.include({ state: 'degraded', served_by: null });
      expect(during.models[0].candidates).to.deep.equal([{ plugin: 'local', breaker: 'open', synthetic: true }]);
    } finally {
      breaker.close();
    }
  });

  it('list_capabilities groups operations by family with what they consume and produce', async () => {
    const capabilities = (await call('list_capabilities', { family: 'video' })) as Record<string, any>;
    const lipsync = capabilities.families[0].operations.find((entry: any) => entry.operation === 'lipsync.generate');
    expect(lipsync).to.deep.equal({
      operation: 'lipsync.generate',
      summary: service.service.gateway.registry.get('lipsync.generate')!.manifest.summary,
      consumes: ['text', 'video', 'audio'],
      produces: 'video',
      default_model: 'lipsync-2',
      models: [{ model: 'lipsync-2', label: lipsync.models[0].label, url: `${base}/docs/model/lipsync.generate/lipsync-2` }],
      deprecated: false,
      url: `${base}/docs/operation/lipsync.generate`,
    });
    expect(capabilities.families.map((family: any) => family.family)).to.deep.equal(['video']);
  });

  it('get_api_operation returns the REST contract from the manifest', async () => {
    const { manifest } = service.service.gateway.registry.get('narration.generate')!;
    const contract = (await call('get_api_operation', { operation: 'narration.generate' })) as Record<string, any>;
    expect(contract).to.deep.include({
      operation: 'narration.generate',
      input_schema: manifest.input,
      output_schema: manifest.output,
      estimate_endpoint: { method: 'POST', url: `${base}/api/v1/estimates` },
      poll_endpoint: { method: 'GET', url: `${base}/api/v1/requests/{id}` },
      poll_after_ms: manifest.polling.first_after_ms,
      deprecated: null,
      openapi_url: `${base}/api/v1/openapi`,
    });
    const unknown = await call('get_api_operation', { operation: 'nope.generate' }).catch((thrown: unknown) => thrown);
    expect(unknown).to.be.instanceOf(ToolError).and.include({ code: 'MG_UNKNOWN_OPERATION' });
  });

  it('list_offerings and get_checkout_link hand out first-party links only', async () => {
    expect(await call('list_offerings', {})).to.deep.equal({
      offerings: [
        { id: 'self-hosted', title: 'Self-hosted gateway', description: knowledge.get('offering:self-hosted')!.metadata.description, price: 'free', credits: null, checkout_available: false, url: `${base}/docs/offering/self-hosted` },
        { id: 'credits-1000', title: '1000 credits', description: 'A top-up.', price: 'EUR 10', credits: 1000, checkout_available: true, url: `${base}/docs/offering/credits-1000` },
      ],
    });
    expect(await call('get_checkout_link', { offering_id: 'credits-1000' })).to.deep.equal({
      offering_id: 'credits-1000', title: '1000 credits', checkout_url: `${base}/checkout/credits-1000`, note: 'Open this page yourself to buy; nothing has been reserved or charged.',
    });
    const none = await call('get_checkout_link', { offering_id: 'self-hosted' }).catch((thrown: unknown) => thrown);
    expect(none).to.be.instanceOf(ToolError).and.include({ code: 'MG_NOT_FOUND' });
  });

  it('refuses to start with a checkout link off the public origin', async () => {
    const { gateway } = service.service;
    const settings = { ...gateway.settings, mcp: { ...gateway.settings.mcp, offerings: [{ id: 'evil', title: 'x', description: 'x', checkout_url: 'https://pay.example.com/x' }] } };
    const error = await buildKnowledgeRegistry({ gateway: { ...gateway, settings }, publicUrl: base }).catch((thrown: unknown) => thrown);
    expect((error as Error).message).to.equal(`offering evil (mcp.offerings) checkout_url: https://pay.example.com/x is not first-party: use a path (/checkout/...) or a URL on ${base}`);
  });

  it('list_toolkits lists the public, account and workspace groups with their registered tools, and the REST API', async () => {
    const { toolkits } = (await call('list_toolkits', {})) as { toolkits: any[] };
    expect(toolkits.map((toolkit) => [toolkit.id, toolkit.access])).to.deep.equal([['public-knowledge', 'public'], ['account', 'account'], ['workspace', 'workspace'], ['rest-api', 'rest']]);
    expect(toolkits[0].tools).to.deep.equal(publicTools.map((tool) => tool.name));
    expect(toolkits[3].tools).to.deep.equal([]);
  });

  it('serves every record URL as an HTML page without scripts, and an index at /docs', async () => {
    for (const record of knowledge.all()) {
      expect(record.url.startsWith(`${base}/docs/`), record.id).to.equal(true);
      const response = await fetch(record.url);
      const html = await response.text();
      expect(response.status, record.url).to.equal(200);
      expect(response.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(html, record.url).to.not.match(/<script/i);
    }
    const page = await fetch(`${base}/docs/workflow/talking-head`);
    expect(await page.text()).to.include('<title>Talking head from a photo · mediagate docs</title>');
    expect(page.headers.get('content-security-policy')).to.include("default-src 'none'");
    const index = await service.api('GET', '/docs');
    expect(index.status).to.equal(200);
    expect(index.body).to.include(`<p>${knowledge.size} records,`);
    const missing = await service.api('GET', '/docs/operation/nope');
    expect([missing.status, missing.body.code]).to.deep.equal([404, 'MG_NOT_FOUND']);
  });
});
