/**
 * The console's two cookies: the session (after sign-in) and the pre-session CSRF token (the sign-in form's,
 * before there is a session). Both HttpOnly and SameSite=Lax. Over https they are `Secure` and carry the
 * `__Host-` prefix, which makes the browser refuse them unless they are Secure, host-only and Path=/ — so a
 * sibling subdomain cannot plant or overwrite them. Plain http (local development) cannot use the prefix.
 *
 * Written by hand rather than with `ctx.cookies.set`: Koa refuses a Secure cookie when it cannot see TLS
 * itself, which is exactly the case behind a TLS-terminating proxy.
 */
import type { Context } from 'koa';

export interface ConsoleCookies {
  session: string;
  csrf: string;
  secure: boolean;
}

export function consoleCookies(publicUrl: string): ConsoleCookies {
  const secure = publicUrl.startsWith('https:');
  const prefix = secure ? '__Host-' : '';
  return { session: `${prefix}mg_session`, csrf: `${prefix}mg_csrf`, secure };
}

export function setCookie(ctx: Context, cookies: ConsoleCookies, name: string, value: string): void {
  ctx.append('Set-Cookie', `${name}=${value}; Path=/; HttpOnly; SameSite=Lax${cookies.secure ? '; Secure' : ''}`);
}

export function clearCookie(ctx: Context, cookies: ConsoleCookies, name: string): void {
  ctx.append('Set-Cookie', `${name}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${cookies.secure ? '; Secure' : ''}`);
}

/** The cookie's value when it looks like one of our tokens (base64url); anything else is ignored. */
export function readToken(ctx: Context, name: string): string | undefined {
  const value = ctx.cookies.get(name);
  return value && /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
}
