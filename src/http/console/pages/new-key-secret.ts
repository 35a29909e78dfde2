/**
 * The one showing of a new key's secret. The create (a POST) redirects to the key's "created" page so that a
 * reload never creates a second key; the secret rides along in a short-lived, HttpOnly cookie scoped to that
 * page, which the page reads once and clears. The server keeps no plaintext, so this works across API
 * processes, and a reload (or any later visit) finds no cookie and says the secret cannot be shown again.
 */
import type { Context } from 'koa';

const cookieName = 'mg_new_key';
const lifetimeSeconds = 300;

export function createdPagePath(keyId: string): string {
  return `/console/keys/${encodeURIComponent(keyId)}/created`;
}

/** Sets the cookie on the create's redirect. Written by hand: Koa refuses `Secure` behind a TLS proxy it does not trust. */
export function handOverSecret(ctx: Context, keyId: string, plaintext: string, secure: boolean): void {
  ctx.append('Set-Cookie', cookie(`${keyId}.${plaintext}`, keyId, lifetimeSeconds, secure));
}

/** The secret handed over for `keyId`, if the browser brought it; the cookie is cleared either way. */
export function takeSecret(ctx: Context, keyId: string, secure: boolean): string | undefined {
  const value = ctx.cookies.get(cookieName);
  ctx.append('Set-Cookie', cookie('', keyId, 0, secure));
  if (!value?.startsWith(`${keyId}.`)) return undefined;
  return value.slice(keyId.length + 1);
}

function cookie(value: string, keyId: string, maxAgeSeconds: number, secure: boolean): string {
  const attributes = [`${cookieName}=${value}`, `Path=${createdPagePath(keyId)}`, `Max-Age=${maxAgeSeconds}`, 'HttpOnly', 'SameSite=Strict'];
  if (secure) attributes.push('Secure');
  return attributes.join('; ');
}
