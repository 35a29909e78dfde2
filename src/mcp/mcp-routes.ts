/**
 * The MCP endpoints (spec, "MCP server endpoints"), mounted in the API's Koa app so every API process serves
 * them: `POST /mcp` (stateless Streamable HTTP, JSON responses), `GET`/`HEAD`/`DELETE /mcp`, `/mcp/health`,
 * `/mcp/server.json` and the RFC 9728 document; the authorization server's own metadata is `src/http/oauth`'s.
 */
import type { Router } from '@koa/router';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Context } from 'koa';
import { ApiError } from '../kernel/errors/index.js';
import type { Gateway } from '../kernel/gateway.js';
import { jsonBody } from '../http/middleware/json-body.js';
import { acceptJsonOrEventStream } from './accept-header.js';
import { bearerChallenge, insufficientScope, resolvePrincipal, unauthenticated, type CredentialSources } from './credentials.js';
import { challengeScopes, endpointMetadata, endpointPage, protectedResourceMetadata, serverJson } from './endpoint-documents.js';
import { startBuildingKnowledge, type KnowledgeSource } from './knowledge-source.js';
import { createMcpServer } from './mcp-server.js';
import { countMessages } from './message-metrics.js';
import { missingScopes, protectedToolCalls, toolAccessByName, toolScopeByName } from './protected-calls.js';
import { rebindingAllowList, rebindingGuard } from './rebinding-guard.js';
import { resourceMetadataUrl, serverIdentity, type ServerIdentity } from './server-identity.js';
import { allTools } from './tools/index.js';

/** What `/mcp` answers besides POST: there is no session to delete and no standalone SSE stream. */
const allowedOnMcp = 'GET, HEAD, POST';

/** Outcomes of `mediagate_mcp_tool_calls_total` (docs/metrics.md). */
const mcpToolOutcomes = ['ok', 'tool_error', 'internal_error', 'unauthenticated'] as const;

export function addMcpRoutes(router: Router, gateway: Gateway): void {
  const identity = serverIdentity(gateway.settings);
  const knowledge = startBuildingKnowledge(gateway);
  const guard = rebindingGuard(rebindingAllowList(gateway.settings));
  // Every tool's failure series exist from the first scrape, so alerts and rate() see a 0 before the first failure.
  for (const tool of allTools) {
    for (const outcome of mcpToolOutcomes) gateway.metrics.mcpToolCalls.inc({ tool: tool.name, outcome }, 0);
  }

  router.post('/mcp', guard, jsonBody(gateway.settings.server), handleMessages(gateway, identity, knowledge));

  router.get('/mcp', guard, async (ctx) => {
    if (ctx.method === 'HEAD') {
      ctx.status = 204;
      return;
    }
    if (ctx.get('accept').includes('text/event-stream')) {
      throw new ApiError('MG_METHOD_NOT_ALLOWED', 'this server offers no standalone SSE stream: POST JSON-RPC messages to /mcp (stateless, JSON responses)', { headers: { Allow: allowedOnMcp } });
    }
    const metadata = endpointMetadata(identity, gateway.settings, allTools, gateway.oauth.issuer);
    if (ctx.accepts('json', 'html') === 'html') {
      ctx.type = 'text/html; charset=utf-8';
      ctx.set('Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'");
      ctx.body = endpointPage(metadata);
    } else {
      ctx.body = metadata;
    }
  });

  router.delete('/mcp', guard, async () => {
    throw new ApiError('MG_METHOD_NOT_ALLOWED', 'the server is stateless: there is no session to delete', { headers: { Allow: allowedOnMcp } });
  });

  router.get('/mcp/health', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    const records = await knowledgeSize(knowledge);
    ctx.status = records === undefined ? 503 : 200;
    ctx.body = { ok: records !== undefined, name: identity.name, version: identity.version, tools: allTools.length, knowledge_records: records ?? null };
  });

  router.get('/mcp/server.json', async (ctx) => {
    const records = await knowledgeSize(knowledge);
    if (records === undefined) throw new ApiError('MG_UNAVAILABLE', 'the knowledge registry could not be built; see the server log');
    ctx.body = serverJson(identity, gateway.settings, allTools, records);
  });

  // Both the root and the path-inserted form (RFC 9728 §3.1; the MCP authorization spec tries the latter first).
  router.get(['/.well-known/oauth-protected-resource', '/.well-known/oauth-protected-resource/mcp'], async (ctx) => {
    ctx.body = protectedResourceMetadata(identity, gateway.oauth.issuer);
  });

  router.get('/.well-known/mcp-registry-auth', async (ctx) => {
    const record = gateway.settings.mcp.registry_auth_record.trim();
    // A problem document, never an HTML page: the registry would read a 200 HTML fallback as a bad record.
    if (!record) throw new ApiError('MG_NOT_FOUND', 'no MCP registry authentication record is configured (MCP_REGISTRY_AUTH_RECORD)');
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = record;
  });
}

/**
 * `POST /mcp`: credentials and protected calls are checked on the parsed body before the transport runs, so a
 * protected call without valid credentials is an HTTP 401 challenge; then a fresh server and transport answer.
 */
function handleMessages(gateway: Gateway, identity: ServerIdentity, knowledge: KnowledgeSource) {
  const accessByName = toolAccessByName(allTools);
  const scopeByName = toolScopeByName(allTools);
  const metadataUrl = resourceMetadataUrl(identity);
  const challenge = (invalid: boolean) => bearerChallenge(metadataUrl, challengeScopes, invalid);
  const sources: CredentialSources = { apiKeys: gateway.apiKeys, oauth: gateway.oauth };
  return async function answerMessages(ctx: Context): Promise<void> {
    const body: unknown = ctx.state.body;
    countMessages(body, gateway.metrics);
    const principal = await resolvePrincipal(ctx, sources, challenge);
    const needCredentials = protectedToolCalls(body, accessByName);
    if (needCredentials.length > 0 && !principal) {
      for (const tool of needCredentials) gateway.metrics.mcpToolCalls.inc({ tool, outcome: 'unauthenticated' });
      throw unauthenticated(`${needCredentials.join(', ')} needs an API key: send Authorization: Bearer <key> or x-api-key: <key>`, challenge(false));
    }
    // An OAuth client can ask its user for more scopes (step-up), so a missing one is an HTTP 403 naming it;
    // an API key cannot, and keeps getting the tool error the REST API's 403 matches.
    if (principal?.kind === 'oauth') {
      const missing = missingScopes(body, scopeByName, principal.scopes);
      if (missing.scopes.length > 0) throw insufficientScope(metadataUrl, missing.scopes, missing.tools);
    }
    acceptJsonOrEventStream(ctx.req);
    const server = createMcpServer(allTools, { gateway, knowledge, identity, principal });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    ctx.respond = false;
    ctx.res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(ctx.req, ctx.res, body);
  };
}

async function knowledgeSize(knowledge: KnowledgeSource): Promise<number | undefined> {
  try {
    return (await knowledge()).size;
  } catch {
    return undefined; // already logged once by startBuildingKnowledge
  }
}
