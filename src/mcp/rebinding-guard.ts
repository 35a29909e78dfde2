/**
 * DNS-rebinding protection for `/mcp` (MCP transports spec: servers MUST validate `Origin`): a request whose
 * `Origin` is not allowed, or whose `Host` is not one this server answers to, is refused with 403 before
 * anything runs. A request without `Origin` comes from a non-browser client (SDKs, curl) and is not refused
 * for it. Loopback names are always allowed: a rebinding page carries its own domain in `Host` and `Origin`,
 * never a loopback one, and local tools (the MCP Inspector on localhost) need them.
 */
import type { Context, Next } from 'koa';
import type { Settings } from '../kernel/config/index.js';
import { ApiError } from '../kernel/errors/index.js';
import { isLoopbackHostname, loopbackHostnames } from '../http/loopback.js';

export interface RebindingAllowList {
  /** Exact origins (`scheme://host[:port]`, lower case). */
  origins: Set<string>;
  /** Host names (any port) or `host:port` pairs, lower case. */
  hosts: Set<string>;
}

/** The configured lists, or (when empty) the public URL's origin and host; loopback names in both cases. */
export function rebindingAllowList(settings: Settings): RebindingAllowList {
  const publicUrl = new URL(settings.server.public_url);
  const origins = settings.mcp.allowed_origins.length > 0 ? settings.mcp.allowed_origins.map((origin) => new URL(origin).origin) : [publicUrl.origin];
  const hosts = settings.mcp.allowed_hosts.length > 0 ? settings.mcp.allowed_hosts : [publicUrl.host];
  return {
    origins: new Set(origins.map((origin) => origin.toLowerCase())),
    hosts: new Set([...hosts, ...loopbackHostnames].map((host) => host.toLowerCase())),
  };
}

export function rebindingGuard(allowList: RebindingAllowList) {
  return async function checkOriginAndHost(ctx: Context, next: Next): Promise<void> {
    // ctx.host honours X-Forwarded-Host (app.proxy): the name the client addressed, not our upstream name.
    // A page could forge that header, but not its Origin, which is checked below.
    if (!hostAllowed(ctx.host, allowList)) {
      throw new ApiError('MG_FORBIDDEN_ORIGIN', `this server does not answer to the host ${ctx.host || '(none)'}; see mcp.allowed_hosts`);
    }
    const origin = ctx.get('origin');
    if (origin && !originAllowed(origin, allowList)) {
      throw new ApiError('MG_FORBIDDEN_ORIGIN', `requests from the origin ${origin} are not allowed; see mcp.allowed_origins`);
    }
    await next();
  };
}

function hostAllowed(host: string, allowList: RebindingAllowList): boolean {
  const lower = host.toLowerCase();
  return allowList.hosts.has(lower) || allowList.hosts.has(hostnameOf(lower));
}

function originAllowed(origin: string, allowList: RebindingAllowList): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // `null` (sandboxed frames, file://) and garbage are never ours.
  }
  return allowList.origins.has(url.origin.toLowerCase()) || ((url.protocol === 'http:' || url.protocol === 'https:') && isLoopbackHostname(url.hostname));
}

/** `example.com:8080` -> `example.com`; `[::1]:8080` -> `[::1]`. */
function hostnameOf(host: string): string {
  const match = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(host);
  return match ? match[1] : host;
}
