/**
 * Outbound URL guard for webhooks (SSRF): `https` only where required, and never a private, loopback,
 * link-local or otherwise internal address — checked after DNS resolution, so a public name that resolves to
 * 10.0.0.5 is refused too. Hosts on the allow-list (local development: 127.0.0.1, localhost) pass.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface UrlGuardSettings {
  require_https: boolean;
  allow_hosts: string[];
}

export class BlockedUrlError extends Error {
  override readonly name = 'BlockedUrlError';
}

/** Syntactic part, checked at create time (422): scheme. */
export function checkWebhookScheme(url: string, settings: UrlGuardSettings): string | undefined {
  const parsed = new URL(url);
  const allowed = settings.allow_hosts.includes(parsed.hostname);
  if (settings.require_https && parsed.protocol !== 'https:' && !allowed) return 'must use https';
  return undefined;
}

/** Full check at delivery time: scheme, then every resolved address. */
export async function assertDeliverable(url: string, settings: UrlGuardSettings): Promise<void> {
  const parsed = new URL(url);
  const scheme = checkWebhookScheme(url, settings);
  if (scheme) throw new BlockedUrlError(`webhook URL ${scheme}`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (settings.allow_hosts.includes(parsed.hostname) || settings.allow_hosts.includes(host)) return;
  const addresses = isIP(host) ? [{ address: host }] : await lookup(host, { all: true, verbatim: true }).catch(() => {
    throw new BlockedUrlError(`webhook host ${host} does not resolve`);
  });
  for (const { address } of addresses) {
    if (isInternalAddress(address)) throw new BlockedUrlError(`webhook host ${host} resolves to an internal address (${address})`);
  }
}

export function isInternalAddress(address: string): boolean {
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number);
    return (
      a === 0 || a === 10 || a === 127 || (a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 198 && (b === 18 || b === 19)) || a >= 224
    );
  }
  const lower = address.toLowerCase();
  if (lower === '::' || lower === '::1') return true;
  if (lower.startsWith('::ffff:')) return isInternalAddress(lower.slice(7));
  return /^(fc|fd|fe8|fe9|fea|feb|ff)/.test(lower);
}
