/**
 * Which callbacks dynamic registration accepts: loopback ones on any port (native MCP clients listen on a
 * port they pick at run time, RFC 8252 §7.3), and hosted ones only when the operator listed the exact URI.
 * Anything else is refused at registration with `invalid_redirect_uri`, before a client id exists.
 */
import { isLoopbackHostname } from '../loopback.js';

export function isLoopbackRedirect(uri: string): boolean {
  const url = URL.parse(uri);
  // http only: a loopback listener has no certificate, and an https loopback URI is a sign of confusion.
  return url !== null && url.protocol === 'http:' && isLoopbackHostname(url.hostname) && url.username === '' && url.password === '';
}

export function redirectUriAllowed(uri: string, approved: ReadonlySet<string>): boolean {
  return isLoopbackRedirect(uri) || approved.has(uri);
}
