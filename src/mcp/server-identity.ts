/** Who the MCP server says it is: its name from configuration, its version from package.json (read once). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../kernel/config/index.js';
import type { Settings } from '../kernel/config/index.js';

const packageVersion = (JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;

export interface ServerIdentity {
  name: string;
  version: string;
  /** `{public_url}/mcp`: the one URL clients connect to and the resource OAuth tokens will be bound to. */
  endpointUrl: string;
  publicUrl: string;
}

export function serverIdentity(settings: Settings): ServerIdentity {
  const publicUrl = settings.server.public_url;
  return { name: settings.mcp.server_name, version: packageVersion, endpointUrl: `${publicUrl}/mcp`, publicUrl };
}

/** RFC 9728 metadata of `/mcp`, path-inserted as the MCP authorization spec prefers. */
export function resourceMetadataUrl(identity: ServerIdentity): string {
  return `${identity.publicUrl}/.well-known/oauth-protected-resource/mcp`;
}
