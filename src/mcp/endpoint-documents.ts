/**
 * The documents that describe the MCP endpoint to people, registries and OAuth clients: `GET /mcp` (JSON, or a
 * small HTML page), `/mcp/server.json` (MCP registry format) and the RFC 9728 protected-resource metadata.
 */
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import type { Settings } from '../kernel/config/index.js';
import { oauthScopes } from '../kernel/oauth/index.js';
import { allScopes } from '../kernel/store/index.js';
import { resourceMetadataUrl, type ServerIdentity } from './server-identity.js';
import type { McpTool } from './tools/index.js';

/** The newest server.json schema the registry publishes (it added `variables` on remotes). */
export const serverJsonSchemaUrl = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** Scopes an API key can hold (the REST API's). */
const apiKeyScopes: readonly string[] = allScopes;

/** What the 401 challenge asks an OAuth client for: the account tools' scopes (workspace ones are a step-up). */
export const challengeScopes: readonly string[] = allScopes;

export interface EndpointMetadata {
  name: string;
  version: string;
  description: string;
  transport: 'streamable-http';
  endpoint: string;
  protocol_versions: string[];
  latest_protocol_version: string;
  stateless: true;
  auth: {
    public_tools: string;
    api_key: { headers: string[]; scopes: string[] };
    oauth: { authorization_server: string; scopes: string[] };
    resource_metadata: string;
  };
  tools: { total: number; public: number; authenticated: number; names: string[] };
  docs: string;
  server_json: string;
  health: string;
}

export function endpointMetadata(identity: ServerIdentity, settings: Settings, tools: readonly McpTool[], issuer: string): EndpointMetadata {
  const publicCount = tools.filter((tool) => tool.access === 'public').length;
  return {
    name: identity.name,
    version: identity.version,
    description: settings.mcp.description,
    transport: 'streamable-http',
    endpoint: identity.endpointUrl,
    protocol_versions: [...SUPPORTED_PROTOCOL_VERSIONS],
    latest_protocol_version: LATEST_PROTOCOL_VERSION,
    stateless: true,
    auth: {
      public_tools: 'no credentials needed for initialize, tools/list and the public tools',
      api_key: { headers: ['Authorization: Bearer <API key>', 'x-api-key: <API key>'], scopes: [...apiKeyScopes] },
      oauth: { authorization_server: issuer, scopes: [...oauthScopes] },
      resource_metadata: resourceMetadataUrl(identity),
    },
    tools: { total: tools.length, public: publicCount, authenticated: tools.length - publicCount, names: tools.map((tool) => tool.name) },
    docs: `${identity.publicUrl}/docs`,
    server_json: `${identity.endpointUrl}/server.json`,
    health: `${identity.endpointUrl}/health`,
  };
}

/** `GET /mcp` for a browser: the same facts as the JSON, readable, with no script and no external resource. */
export function endpointPage(metadata: EndpointMetadata): string {
  const list = (items: string[]) => items.map((item) => `<li><code>${escapeHtml(item)}</code></li>`).join('');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(metadata.name)} MCP server</title></head>
<body>
<main>
<h1>${escapeHtml(metadata.name)} MCP server</h1>
<p>${escapeHtml(metadata.description)}</p>
<dl>
<dt>Endpoint</dt><dd><code>${escapeHtml(metadata.endpoint)}</code> (Streamable HTTP, stateless, JSON responses; send JSON-RPC with POST)</dd>
<dt>Version</dt><dd>${escapeHtml(metadata.version)} (MCP ${escapeHtml(metadata.latest_protocol_version)})</dd>
<dt>Tools</dt><dd>${metadata.tools.total}: ${metadata.tools.public} public, ${metadata.tools.authenticated} needing an API key</dd>
</dl>
<h2>Credentials</h2>
<p>${escapeHtml(metadata.auth.public_tools)}. Account tools take an API key in one of these headers:</p>
<ul>${list(metadata.auth.api_key.headers)}</ul>
<p>or an OAuth access token: MCP clients link an account through the authorization server <code>${escapeHtml(metadata.auth.oauth.authorization_server)}</code> (dynamic registration, PKCE).</p>
<h2>Tools</h2>
<ul>${list(metadata.tools.names)}</ul>
<p><a href="${escapeHtml(metadata.docs)}">Documentation</a> · <a href="${escapeHtml(metadata.server_json)}">server.json</a> · <a href="${escapeHtml(metadata.health)}">health</a></p>
</main>
</body>
</html>
`;
}

export interface ServerJson {
  $schema: string;
  name: string;
  title: string;
  description: string;
  version: string;
  remotes: { type: 'streamable-http'; url: string; headers: { name: string; description: string; isRequired: boolean; isSecret: boolean }[] }[];
  _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: number; knowledge_records: number } };
}

export function serverJson(identity: ServerIdentity, settings: Settings, tools: readonly McpTool[], knowledgeRecords: number): ServerJson {
  return {
    $schema: serverJsonSchemaUrl,
    name: settings.mcp.registry_name,
    title: identity.name,
    description: settings.mcp.description,
    version: identity.version,
    remotes: [
      {
        type: 'streamable-http',
        url: identity.endpointUrl,
        headers: [{ name: 'Authorization', description: 'Bearer <API key>: only the account tools need it', isRequired: false, isSecret: true }],
      },
    ],
    _meta: { 'io.modelcontextprotocol.registry/publisher-provided': { tools: tools.length, knowledge_records: knowledgeRecords } },
  };
}

/**
 * RFC 9728 metadata, which the 401 challenge's `resource_metadata` points at: the resource tokens must be bound
 * to, the authorization server that issues them and every scope a client may ask for.
 */
export function protectedResourceMetadata(identity: ServerIdentity, issuer: string) {
  return {
    resource: identity.endpointUrl,
    authorization_servers: [issuer],
    bearer_methods_supported: ['header'],
    resource_name: `${identity.name} MCP server`,
    resource_documentation: `${identity.publicUrl}/docs`,
    scopes_supported: [...oauthScopes],
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
