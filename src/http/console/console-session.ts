/**
 * Who is using the console: resolves the session cookie to the user, their memberships and the account they
 * act in, and puts it on `ctx.state.console` (console-context.ts). Without a session the state is anonymous
 * and carries the pre-session CSRF token (a cookie of its own) so the sign-in form is protected too.
 * Idempotent: mounted once for `/console` and again by routes that need it elsewhere (the OAuth pages).
 */
import type { Context, Middleware, Next } from 'koa';
import { newRandomToken, type ConsoleSession } from '../../kernel/accounts/sessions.js';
import type { UserRecord } from '../../kernel/accounts/users.js';
import type { Gateway } from '../../kernel/gateway.js';
import type { ConsoleState } from './console-context.js';
import { clearCookie, consoleCookies, readToken, setCookie } from './console-cookies.js';

/** The resolved session of this request (for sign-out and the account switcher), if signed in. */
export function currentSession(ctx: Context): ConsoleSession | undefined {
  return ctx.state.consoleSession as ConsoleSession | undefined;
}

export function consoleSession(gateway: Gateway): Middleware {
  const cookies = consoleCookies(gateway.settings.server.public_url);
  const publicOrigin = new URL(gateway.settings.server.public_url).origin;
  return async function resolveConsoleSession(ctx: Context, next: Next): Promise<void> {
    ctx.state.consolePublicOrigin = publicOrigin;
    if (!ctx.state.console) ctx.state.console = await resolveState(ctx, gateway, cookies);
    await next();
  };
}

async function resolveState(ctx: Context, gateway: Gateway, cookies: ReturnType<typeof consoleCookies>): Promise<ConsoleState> {
  const cookieValue = readToken(ctx, cookies.session);
  const session = cookieValue ? await gateway.consoleSessions.resolve(cookieValue) : undefined;
  const user = session ? await gateway.users.get(session.userId) : undefined;
  if (session && user && !user.disabled) {
    ctx.state.consoleSession = session;
    const memberships = await gateway.users.memberships(user.id);
    const member = memberships.find((each) => each.accountId === session.accountId) ?? memberships[0];
    return { userId: user.id, email: user.email, member, memberships, csrfToken: session.csrfToken };
  }
  if (cookieValue) clearCookie(ctx, cookies, cookies.session);
  let csrfToken = readToken(ctx, cookies.csrf);
  if (!csrfToken) {
    csrfToken = newRandomToken();
    setCookie(ctx, cookies, cookies.csrf, csrfToken);
  }
  return { memberships: [], csrfToken };
}

/**
 * Signs `user` in: any session this browser had is ended and a new one (new id, new CSRF token) is started,
 * so an id planted before sign-in (session fixation) is worth nothing after it.
 */
export async function startSignedInSession(ctx: Context, gateway: Gateway, user: UserRecord): Promise<void> {
  const cookies = consoleCookies(gateway.settings.server.public_url);
  const previous = currentSession(ctx);
  if (previous) await gateway.consoleSessions.end(previous.id);
  const memberships = await gateway.users.memberships(user.id);
  const { cookieValue } = await gateway.consoleSessions.start(user.id, memberships[0]?.accountId ?? null);
  setCookie(ctx, cookies, cookies.session, cookieValue);
}

export async function endSession(ctx: Context, gateway: Gateway): Promise<void> {
  const cookies = consoleCookies(gateway.settings.server.public_url);
  const session = currentSession(ctx);
  if (session) {
    await gateway.consoleSessions.end(session.id);
    // Signing out of the console also signs out of the authorization server (its session follows ours).
    await gateway.oauth.models.endSessionsOf(session.userId);
  }
  clearCookie(ctx, cookies, cookies.session);
}
