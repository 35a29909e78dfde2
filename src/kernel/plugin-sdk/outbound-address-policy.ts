/**
 * Which addresses the gateway may open a connection to on behalf of a client or a vendor: public unicast
 * only (SSRF). The range logic is ipaddr.js's; this module adds the two rules it leaves to its users:
 * an IPv4-mapped IPv6 address is judged as the IPv4 address it carries, and an IPv6 address must lie in global
 * unicast 2000::/3 (ipaddr.js calls everything it has no name for "unicast", IPv4-compatible `::7f00:1`
 * included). Operators may let chosen hosts through for local development (`outbound.allow_hosts`).
 */
import ipaddr from 'ipaddr.js';

type ParsedAddress = ipaddr.IPv4 | ipaddr.IPv6;

/** Global unicast, RFC 4291 section 2.4: the only IPv6 block handed out for the public internet. */
const globalUnicastV6 = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Why an address is not public unicast (the ipaddr.js range name, e.g. `loopback`, `rfc6052`), or undefined
 * when a connection to it is fine. Something that is not an IP address at all is refused too.
 */
export function addressRefusal(address: string): string | undefined {
  let parsed: ParsedAddress;
  try {
    parsed = ipaddr.process(address);
  } catch {
    return 'not an IP address';
  }
  const range = parsed.range();
  if (range !== 'unicast') return range;
  if (parsed.kind() === 'ipv6' && !parsed.match(globalUnicastV6)) return 'outside global unicast 2000::/3';
  return undefined;
}

/**
 * The operator's exceptions: host names (matched as written in the URL, case-insensitively), IP addresses
 * and CIDR blocks (matched against literal hosts and every resolved address).
 */
export class OutboundAllowList {
  private readonly names = new Set<string>();
  private readonly blocks: [ParsedAddress, number][] = [];

  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim().toLowerCase().replace(/^\[|\]$/g, '');
      if (!entry) continue;
      if (ipaddr.isValidCIDR(entry)) this.blocks.push(ipaddr.parseCIDR(entry));
      // A mistyped block (`10.0.0.0/99`) must not quietly become a host name that matches nothing.
      else if (entry.includes('/')) throw new Error(`outbound.allow_hosts: ${raw.trim()} is neither a host name, an IP address nor a CIDR block`);
      else if (ipaddr.isValid(entry)) {
        const address = ipaddr.process(entry);
        this.blocks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
      } else this.names.add(entry);
    }
  }

  /** A URL host (name or literal, brackets allowed) that the operator lets through whatever it resolves to. */
  allowsHost(hostname: string): boolean {
    const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
    return this.names.has(host) || (ipaddr.isValid(host) && this.allowsAddress(host));
  }

  allowsAddress(address: string): boolean {
    let parsed: ParsedAddress;
    try {
      parsed = ipaddr.process(address);
    } catch {
      return false;
    }
    return this.blocks.some(([block, bits]) => block.kind() === parsed.kind() && parsed.match(block, bits));
  }
}
