/**
 * What counts as "this machine" for the HTTP edge: the loopback host names a URL may carry (OAuth loopback
 * callbacks, local MCP tools) and the loopback addresses a socket may report (the default `/metrics` rule).
 */
import ipaddr from 'ipaddr.js';

/** As `URL.hostname` writes them (IPv6 in brackets). */
export const loopbackHostnames: readonly string[] = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopbackHostname(hostname: string): boolean {
  return loopbackHostnames.includes(hostname.toLowerCase());
}

/** 127.0.0.0/8, ::1, and IPv4 loopback written as IPv4-mapped IPv6 (what a dual-stack socket reports). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address || !ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === 'loopback';
}
