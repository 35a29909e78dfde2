/**
 * The MCP endpoints over real HTTP against a real service: `POST /mcp` with the official SDK client and with
 * raw requests (Accept variants, credentials, batches, body bounds), DNS-rebinding refusals, the metadata
 * documents (`GET /mcp`, `/mcp/health`, `/mcp/server.json`, `/.well-known/*`) with whole bodies and headers.
 */
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'chai';
import { knowledgeFor } from '../../src/mcp/knowledge/index.js';
import { allTools } from '../../src/mcp/tools/index.js';
import { startTestService, type TestService } from '../support/test-service.js';

const packageVersion = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
const problem = (status: number, code: string, title: string, detail: string, instance = '/mcp') => ({ type: `https://mediagate.dev/docs/errors#${code.toLowerCase().replace(/_/g, '-')}`, title, status, detail, code, instance });
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'endpoint-test', version: '1.0.0' } } };
const callTool = (id: number, name: string, args: Record<string, unknown> = {}) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/** node:http rather than fetch: fetch may not set `Host`, and these tests need to. */
function raw(service: TestService, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(`${service.url}${path}`, { method, headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const json = /json/.test(String(response.headers['content-type'])) && text ? JSON.parse(text) : undefined;
        resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const post = (service: TestService, message: unknown, headers: Record<string, string> = {}) =>
  raw(service, 'POST', '/mcp', { accept: 'application/json, text/event-stream', ...headers }, JSON.stringify(message));

describe('MCP endpoints', function () {
  this.timeout(30_000);
  let service: TestService;
  let resourceMetadata: string;

  before(async () => {
    service = await startTestService();
    resourceMetadata = `${service.url}/.well-known/oauth-protected-resource/mcp`;
  });
  after(async () => service?.stop());

  async function connectedClient(headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'endpoint-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${service.url}/mcp`), { requestInit: { headers } }));
    return client;
  }

  describe('POST /mcp', () => {
    const initializeResult = () => ({ jsonrpc: '2.0', id: 1, result: { protocolVersion: '2025-11-25', capabilities: { tools: { listChanged: true } }, serverInfo: { name: 'mediagate', version: packageVersion } } });

    for (const accept of ['application/json, text/event-stream', 'application/json', 'text/event-stream', '*/*']) {
      it(`initializes with Accept: ${accept}, answering JSON`, async () => {
        const response = await post(service, initialize, { accept });
        expect(response.status).to.equal(200);
        expect(response.headers['content-type']).to.equal('application/json');
        expect(response.json).to.deep.equal(initializeResult());
      });
    }

    it('refuses a client that accepts neither JSON nor an event stream (406 from the transport)', async () => {
      const response = await post(service, initialize, { accept: 'text/html' });
      expect(response.status).to.equal(406);
      expect(response.json).to.deep.equal({ jsonrpc: '2.0', error: { code: -32000, message: 'Not Acceptable: Client must accept both application/json and text/event-stream' }, id: null });
    });

    it('lists every tool and calls a public one anonymously through the SDK client', async () => {
      const client = await connectedClient();
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).to.deep.equal(allTools.map((tool) => tool.name));
        for (const tool of tools) {
          const record = allTools.find((each) => each.name === tool.name)!;
          expect({ title: tool.title, description: tool.description, annotations: tool.annotations }).to.deep.equal({ title: record.title, description: record.description, annotations: record.annotations });
          expect(tool.outputSchema?.type).to.equal('object');
        }
        const result = await client.callTool({ name: 'search', arguments: { query: 'lip sync' } });
        expect(result.isError).to.equal(undefined);
        expect(result.content).to.deep.equal([{ type: 'text', text: JSON.stringify(result.structuredContent) }]);
        expect((result.structuredContent as { results: unknown[] }).results).to.not.be.empty;
      } finally {
        await client.close();
      }
    });

    it('answers a protected tool without credentials with a 401 challenge, before any tool runs', async () => {
      const response = await post(service, callTool(2, 'api_status'));
      expect(response.status).to.equal(401);
      expect(response.headers['www-authenticate']).to.equal(`Bearer resource_metadata="${resourceMetadata}", scope="requests:read requests:write"`);
      expect(response.headers['content-type']).to.equal('application/problem+json');
      expect(response.json).to.deep.equal(problem(401, 'MG_UNAUTHENTICATED', 'API key missing, invalid or revoked', 'api_status needs an API key: send Authorization: Bearer <key> or x-api-key: <key>'));
    });

    it('answers a revoked key with 401 invalid_token, never a 200 tool error', async () => {
      const { key } = await createRevokedKey();
      const response = await post(service, callTool(2, 'api_status'), { authorization: `Bearer ${key}` });
      expect(response.status).to.equal(401);
      expect(response.headers['www-authenticate']).to.equal(`Bearer resource_metadata="${resourceMetadata}", scope="requests:read requests:write", error="invalid_token", error_description="the credential is invalid, expired or revoked"`);
      expect(response.json).to.deep.equal(problem(401, 'MG_UNAUTHENTICATED', 'API key missing, invalid or revoked', 'the API key is invalid or has been revoked'));
      // A bad credential is refused whatever the call, so the client learns to fix it (RFC 6750).
      const onInitialize = await post(service, initialize, { 'x-api-key': 'mg_not_a_key' });
      expect([onInitialize.status, onInitialize.headers['www-authenticate']]).to.deep.equal([401, response.headers['www-authenticate']]);
    });

    async function createRevokedKey(): Promise<{ key: string }> {
      const { key, keyId } = await service.createKey();
      await service.service.gateway.apiKeys.revoke(keyId);
      return { key };
    }

    for (const [header, value] of [['authorization', 'Bearer '], ['x-api-key', '']] as const) {
      it(`runs a protected tool with the key in ${header}`, async () => {
        const { key } = await service.createKey();
        const response = await post(service, callTool(3, 'api_status'), { [header]: value + key });
        expect(response.status).to.equal(200);
        expect(response.json.id).to.equal(3);
        expect(response.json.result.isError).to.equal(undefined);
        expect(response.json.result.content).to.deep.equal([{ type: 'text', text: JSON.stringify(response.json.result.structuredContent) }]);
      });
    }

    it('checks every call of a batch: one protected call without credentials makes the whole batch 401', async () => {
      const refused = await post(service, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, callTool(2, 'search', { query: 'image' }), callTool(3, 'estimate_generation_cost', {})]);
      expect(refused.status).to.equal(401);
      expect(refused.json.detail).to.equal('estimate_generation_cost needs an API key: send Authorization: Bearer <key> or x-api-key: <key>');

      const answered = await post(service, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, { jsonrpc: '2.0', id: 2, method: 'ping' }], { 'mcp-protocol-version': '2025-11-25' });
      expect(answered.status).to.equal(200);
      expect(answered.json).to.deep.equal([{ jsonrpc: '2.0', id: 1, result: {} }, { jsonrpc: '2.0', id: 2, result: {} }]);
    });

    it('reads the body with the API bounds: 413, 415 and 400 as problem documents', async () => {
      const tooLarge = await raw(service, 'POST', '/mcp', { accept: 'application/json' }, JSON.stringify({ ...initialize, padding: 'x'.repeat(1_048_576) }));
      expect(tooLarge.status).to.equal(413);
      expect(tooLarge.json).to.deep.equal(problem(413, 'MG_PAYLOAD_TOO_LARGE', 'Request body too large', 'the body must be at most 1048576 bytes'));

      const notJson = await raw(service, 'POST', '/mcp', { accept: 'application/json', 'content-type': 'text/plain' }, 'ping');
      expect(notJson.status).to.equal(415);
      expect(notJson.json.code).to.equal('MG_UNSUPPORTED_MEDIA_TYPE');

      const malformed = await raw(service, 'POST', '/mcp', { accept: 'application/json' }, '{"jsonrpc":');
      expect(malformed.status).to.equal(400);
      expect(malformed.json.code).to.equal('MG_MALFORMED_JSON');
    });

    it('counts messages and tool calls by tool and outcome on /metrics', async () => {
      const metrics = await raw(service, 'GET', '/metrics');
      expect(metrics.text).to.match(/mediagate_mcp_messages_total\{method="initialize"\} [1-9]/);
      expect(metrics.text).to.match(/mediagate_mcp_tool_calls_total\{tool="search",outcome="ok"\} [1-9]/);
      expect(metrics.text).to.match(/mediagate_mcp_tool_calls_total\{tool="api_status",outcome="unauthenticated"\} [1-9]/);
    });
  });

  describe('Origin and Host (DNS-rebinding protection)', () => {
    it('allows the public origin, a loopback origin and no Origin at all', async () => {
      for (const origin of [service.url, 'http://localhost:6274', undefined]) {
        const response = await post(service, initialize, origin ? { origin } : {});
        expect({ origin, status: response.status }).to.deep.equal({ origin, status: 200 });
      }
    });

    it('refuses a foreign Origin with 403 before reading the body', async () => {
      const response = await post(service, initialize, { origin: 'http://evil.example.com' });
      expect(response.status).to.equal(403);
      expect(response.json).to.deep.equal(problem(403, 'MG_FORBIDDEN_ORIGIN', 'Origin or Host not allowed', 'requests from the origin http://evil.example.com are not allowed; see mcp.allowed_origins'));
    });

    it('refuses a foreign Host with 403', async () => {
      const response = await post(service, initialize, { host: 'evil.example.com' });
      expect(response.status).to.equal(403);
      expect(response.json).to.deep.equal(problem(403, 'MG_FORBIDDEN_ORIGIN', 'Origin or Host not allowed', 'this server does not answer to the host evil.example.com; see mcp.allowed_hosts'));
    });

    it('takes the allow-lists from configuration', async () => {
      const configured = await startTestService({ mcp: { allowed_origins: ['https://app.example.com'], allowed_hosts: ['mcp.example.com'] } });
      try {
        const fromApp = await post(configured, initialize, { host: 'mcp.example.com:443', origin: 'https://app.example.com' });
        const fromPublicUrl = await post(configured, initialize, { origin: configured.url.replace('127.0.0.1', 'example.org') });
        expect([fromApp.status, fromPublicUrl.status]).to.deep.equal([200, 403]);
      } finally {
        await configured.stop();
      }
    });
  });

  describe('GET, HEAD and DELETE /mcp', () => {
    it('GET answers the endpoint metadata as JSON', async () => {
      const response = await raw(service, 'GET', '/mcp', { accept: 'application/json' });
      expect(response.status).to.equal(200);
      const publicCount = allTools.filter((tool) => tool.access === 'public').length;
      expect(response.json).to.deep.equal({
        name: 'mediagate',
        version: packageVersion,
        description: 'Asynchronous media-generation gateway; public knowledge tools and account tools over an API key.',
        transport: 'streamable-http',
        endpoint: `${service.url}/mcp`,
        protocol_versions: ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'],
        latest_protocol_version: '2025-11-25',
        stateless: true,
        auth: {
          public_tools: 'no credentials needed for initialize, tools/list and the public tools',
          api_key: { headers: ['Authorization: Bearer <API key>', 'x-api-key: <API key>'], scopes: ['requests:read', 'requests:write'] },
          oauth: { authorization_server: service.url, scopes: ['requests:read', 'requests:write', 'workspace:read', 'workspace:write'] },
          resource_metadata: resourceMetadata,
        },
        tools: { total: allTools.length, public: publicCount, authenticated: allTools.length - publicCount, names: allTools.map((tool) => tool.name) },
        docs: `${service.url}/docs`,
        server_json: `${service.url}/mcp/server.json`,
        health: `${service.url}/mcp/health`,
      });
    });

    it('GET from a browser answers a small HTML page without scripts', async () => {
      const response = await raw(service, 'GET', '/mcp', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      expect(response.status).to.equal(200);
      expect(response.headers['content-type']).to.equal('text/html; charset=utf-8');
      expect(response.headers['content-security-policy']).to.equal("default-src 'none'; frame-ancestors 'none'");
      expect(response.text).to.match(/^<!doctype html>\n<html lang="en">/);
      expect(response.text).to.include(`<code>${service.url}/mcp</code>`);
      expect(response.text).to.not.include('<script');
    });

    it('GET with Accept: text/event-stream is 405: no standalone SSE stream', async () => {
      const response = await raw(service, 'GET', '/mcp', { accept: 'text/event-stream' });
      expect(response.status).to.equal(405);
      expect(response.headers.allow).to.equal('GET, HEAD, POST');
      expect(response.json).to.deep.equal(problem(405, 'MG_METHOD_NOT_ALLOWED', 'Method not allowed on this path', 'this server offers no standalone SSE stream: POST JSON-RPC messages to /mcp (stateless, JSON responses)'));
    });

    it('HEAD is 204 and DELETE is 405', async () => {
      const head = await raw(service, 'HEAD', '/mcp');
      expect([head.status, head.text]).to.deep.equal([204, '']);
      const remove = await raw(service, 'DELETE', '/mcp');
      expect(remove.status).to.equal(405);
      expect(remove.headers.allow).to.equal('GET, HEAD, POST');
      expect(remove.json).to.deep.equal(problem(405, 'MG_METHOD_NOT_ALLOWED', 'Method not allowed on this path', 'the server is stateless: there is no session to delete'));
    });
  });

  describe('metadata documents', () => {
    it('/mcp/health names the tool and knowledge record counts', async () => {
      const records = (await knowledgeFor(service.service.gateway)).size;
      const response = await raw(service, 'GET', '/mcp/health');
      expect([response.status, response.headers['cache-control']]).to.deep.equal([200, 'no-store']);
      expect(response.json).to.deep.equal({ ok: true, name: 'mediagate', version: packageVersion, tools: allTools.length, knowledge_records: records });
      expect(records).to.be.greaterThan(0);
    });

    it('/mcp/server.json is valid against the MCP registry schema (2025-12-11) and says what the registry needs', async () => {
      const records = (await knowledgeFor(service.service.gateway)).size;
      const response = await raw(service, 'GET', '/mcp/server.json');
      expect(response.status).to.equal(200);
      expect(response.json).to.deep.equal({
        $schema: 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json',
        name: 'io.github.mediagate/mediagate',
        title: 'mediagate',
        description: 'Asynchronous media-generation gateway; public knowledge tools and account tools over an API key.',
        version: packageVersion,
        remotes: [{ type: 'streamable-http', url: `${service.url}/mcp`, headers: [{ name: 'Authorization', description: 'Bearer <API key>: only the account tools need it', isRequired: false, isSecret: true }] }],
        _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: allTools.length, knowledge_records: records } },
      });
      const schema = JSON.parse(readFileSync(new URL('../fixtures/mcp/server.schema.2025-12-11.excerpt.json', import.meta.url), 'utf8')) as object;
      const ajv = new Ajv({ allErrors: true, strict: false });
      ((addFormatsModule as unknown as { default?: (ajv: Ajv) => void }).default ?? (addFormatsModule as unknown as (ajv: Ajv) => void))(ajv);
      const validate = ajv.compile(schema);
      expect(validate(response.json), JSON.stringify(validate.errors)).to.equal(true);
      // The schema can fail: a description over 100 characters and a name without a namespace are refused.
      expect(validate({ ...response.json, description: 'x'.repeat(101) })).to.equal(false);
      expect(validate({ ...response.json, name: 'mediagate' })).to.equal(false);
    });

    it('serves RFC 9728 resource metadata at the root and path-inserted URLs, naming the authorization server', async () => {
      const expected = {
        resource: `${service.url}/mcp`,
        authorization_servers: [service.url],
        bearer_methods_supported: ['header'],
        resource_name: 'mediagate MCP server',
        resource_documentation: `${service.url}/docs`,
        scopes_supported: ['requests:read', 'requests:write', 'workspace:read', 'workspace:write'],
      };
      for (const path of ['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp']) {
        const response = await raw(service, 'GET', path);
        expect({ path, status: response.status, body: response.json }).to.deep.equal({ path, status: 200, body: expected });
      }
      // The issuer is the origin, so its RFC 8414 metadata is at the root (test/e2e/oauth-flow.test.ts covers it).
      const server = await raw(service, 'GET', '/.well-known/oauth-authorization-server');
      expect({ status: server.status, issuer: server.json.issuer }).to.deep.equal({ status: 200, issuer: service.url });
    });

    it('/.well-known/mcp-registry-auth is 404 problem+json when unset and the record as text/plain when set', async () => {
      const unset = await raw(service, 'GET', '/.well-known/mcp-registry-auth', { accept: 'text/html' });
      expect(unset.status).to.equal(404);
      expect(unset.json).to.deep.equal(problem(404, 'MG_NOT_FOUND', 'No such resource', 'no MCP registry authentication record is configured (MCP_REGISTRY_AUTH_RECORD)', '/.well-known/mcp-registry-auth'));

      const record = 'v=MCPv1; k=ed25519; p=MCowBQYDK2VwAyEAexamplepublickeyexamplepublickey00=';
      const configured = await startTestService({}, { env: { MCP_REGISTRY_AUTH_RECORD: record } });
      try {
        const set = await raw(configured, 'GET', '/.well-known/mcp-registry-auth', { accept: 'text/plain', 'user-agent': 'mcp-registry/1.0' });
        expect([set.status, set.headers['content-type'], set.text]).to.deep.equal([200, 'text/plain; charset=utf-8', record]);
      } finally {
        await configured.stop();
      }
    });
  });
});
