/**
 * CSRF protection for every state-changing console request (and the OAuth interaction pages): the form must
 * carry the session's token in a hidden `_csrf` field (the pre-session token before sign-in), and a browser's
 * `Origin` must be ours. The token alone would do; the Origin check is the second, independent line (OWASP
 * CSRF cheat sheet). A request without Origin (not a browser, or a very old one) still needs the token.
 * Also parses the form into `ctx.request.body` (form-body.ts), which the pages read.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Context, Middleware, Next } from 'koa';
import { ApiError } from '../../kernel/errors/index.js';
import type { ConsoleState } from './console-context.js';
import { readFormBody } from './form-body.js';

const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

export function csrfProtection(): Middleware {
  return async function checkCsrf(ctx: Context, next: Next): Promise<void> {
    if (safeMethods.has(ctx.method) || ctx.state.csrfChecked) return next();
    const state = ctx.state.console as ConsoleState | undefined;
    if (!state) throw new Error('csrfProtection needs consoleSession(gateway) in front of it');
    const origin = ctx.get('Origin');
    // Ours: the public URL's origin (set by consoleSession), or the origin this request was addressed to.
    const publicOrigin = ctx.state.consolePublicOrigin as string | undefined;
    // `null` is what a browser sends from sandboxed frames and some cross-origin redirects: never ours.
    // Built from protocol and Host rather than read from `ctx.origin`, which is not the request's own origin in every Koa version.
    const requestOrigin = `${ctx.protocol}://${ctx.host}`;
    if (origin && origin !== requestOrigin && origin !== publicOrigin) {
      throw new ApiError('MG_CSRF_REJECTED', `a form from ${origin} may not change anything here`, { errors: [{ path: 'Origin', message: 'not this site' }] });
    }
    if (ctx.get('Sec-Fetch-Site') === 'cross-site') {
      throw new ApiError('MG_CSRF_REJECTED', 'a cross-site form may not change anything here', { errors: [{ path: 'Sec-Fetch-Site', message: 'cross-site' }] });
    }
    const token = (await readFormBody(ctx))._csrf;
    if (typeof token !== 'string' || !sameToken(token, state.csrfToken)) {
      throw new ApiError('MG_CSRF_REJECTED', 'the form is missing its CSRF token or it does not match this session; reload the page and try again', {
        errors: [{ path: '_csrf', message: token === undefined ? 'missing' : 'does not match' }],
      });
    }
    ctx.state.csrfChecked = true;
    await next();
  };
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
